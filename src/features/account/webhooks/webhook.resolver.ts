import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { CreateWebhookInput, DeliveriesArgs } from "./webhook.inputs";
import { createWebhook, deleteWebhook, listWebhooks, webhookDeliveries } from "./webhook.service";
import { Webhook, WebhookDelivery } from "./webhook.type";

@Resolver(() => Webhook)
export class WebhookResolver {
  @Query(() => [Webhook])
  webhooks(@Ctx() ctx: Context): Promise<Webhook[]> {
    return listWebhooks(ctx.db, ctx.viewer);
  }

  @Query(() => [WebhookDelivery])
  webhookDeliveries(
    @Arg("webhookId", () => UUIDScalar) webhookId: string,
    @Args(() => DeliveriesArgs) args: DeliveriesArgs,
    @Ctx() ctx: Context,
  ): Promise<WebhookDelivery[]> {
    return webhookDeliveries(ctx.db, ctx.viewer, webhookId, args);
  }

  @Mutation(() => Webhook)
  createWebhook(@Arg("input", () => CreateWebhookInput) input: CreateWebhookInput, @Ctx() ctx: Context): Promise<Webhook> {
    return createWebhook(ctx.db, ctx.env, ctx.viewer, input);
  }

  @Mutation(() => Webhook)
  deleteWebhook(@Arg("webhookId", () => UUIDScalar) webhookId: string, @Ctx() ctx: Context): Promise<Webhook> {
    return deleteWebhook(ctx.db, ctx.viewer, webhookId);
  }
}
