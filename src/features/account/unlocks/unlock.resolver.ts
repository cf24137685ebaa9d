import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { UnlockEntityType, UnlockInput } from "./unlock.inputs";
import { unlock, unlockStatus } from "./unlock.service";
import { UnlockPayload, UnlockStatus } from "./unlock.type";

@Resolver()
export class UnlockResolver {
  @Mutation(() => UnlockPayload)
  unlock(
    @Arg("input", () => UnlockInput) input: UnlockInput,
    @Arg("idempotencyKey", () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: Context,
  ): Promise<UnlockPayload> {
    return unlock(ctx.db, ctx.viewer, input, { idempotencyKey, jobs: ctx.jobs, env: ctx.env, commit: ctx.commit });
  }

  @Query(() => UnlockStatus)
  unlockStatus(
    @Arg("entityType", () => UnlockEntityType) entityType: UnlockEntityType,
    @Arg("entityId", () => UUIDScalar) entityId: string,
    @Ctx() ctx: Context,
  ): Promise<UnlockStatus> {
    return unlockStatus(ctx.db, ctx.viewer, entityType, entityId);
  }
}
