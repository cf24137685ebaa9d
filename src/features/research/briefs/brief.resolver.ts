/** Brief operations (docs/briefs.md). Rules, authorization and transactions live in brief.service.ts. */
import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import type { ContactRow } from "../../catalogue/contacts/contact.service";
import { Contact } from "../../catalogue/contacts/contact.type";
import { BriefRequestInput } from "./brief.inputs";
import { briefById, briefOfPair, promoteBriefPerson, requestBrief } from "./brief.service";
import { Brief, BriefEntityType, BriefRequestOutcome, PromoteOutcome, PromotedContact } from "./brief.type";

@Resolver(() => Brief)
export class BriefResolver {
  @Query(() => Brief, { nullable: true })
  brief(
    @Arg("projectId", () => UUIDScalar) projectId: string,
    @Arg("entityType", () => BriefEntityType) entityType: BriefEntityType,
    @Arg("entityId", () => UUIDScalar) entityId: string,
    @Ctx() ctx: Context,
  ): Promise<Brief | null> {
    return briefOfPair(ctx.db, ctx.viewer, projectId, entityType, entityId);
  }

  @Query(() => Brief, { nullable: true })
  briefById(@Arg("briefId", () => UUIDScalar) briefId: string, @Ctx() ctx: Context): Promise<Brief | null> {
    return briefById(ctx.db, ctx.viewer, briefId);
  }

  @Mutation(() => BriefRequestOutcome)
  requestBrief(@Arg("input", () => BriefRequestInput) input: BriefRequestInput, @Ctx() ctx: Context): Promise<BriefRequestOutcome> {
    return requestBrief(ctx.db, ctx.viewer, input, ctx.jobs);
  }

  @Mutation(() => PromoteOutcome)
  promoteBriefPerson(
    @Arg("briefId", () => UUIDScalar) briefId: string,
    @Arg("personKey", () => String) personKey: string,
    @Ctx() ctx: Context,
  ): Promise<PromoteOutcome> {
    return promoteBriefPerson(ctx.db, ctx.viewer, briefId, personKey);
  }
}

/** PromotedContact.contact: the linked catalogue contact, gated as GET /contacts/{id} (batched by the contacts loader). */
@Resolver(() => PromotedContact)
export class PromotedContactResolver {
  @FieldResolver(() => Contact, { nullable: true })
  contact(@Root() record: PromotedContact, @Ctx() ctx: Context): Promise<ContactRow | null> | null {
    return record.contact_id ? ctx.loaders.contacts.byId.load(record.contact_id) : null;
  }
}
