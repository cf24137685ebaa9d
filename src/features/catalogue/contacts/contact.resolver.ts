import { Arg, Args, Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { ContactListArgs } from "./contact.inputs";
import { listContacts, type ContactPageOf, type ContactRow } from "./contact.service";
import { Contact, ContactPage } from "./contact.type";

/** Contact queries. Gating, listing and deduplication live in contact.service.ts. */
@Resolver(() => Contact)
export class ContactResolver {
  @Query(() => ContactPage)
  async contacts(@Args(() => ContactListArgs) args: ContactListArgs, @Ctx() ctx: Context): Promise<ContactPageOf> {
    const page = await listContacts(ctx.db, ctx.viewer, args);
    for (const row of page.data) ctx.loaders.contacts.byId.prime(row.id, row);
    return page;
  }

  @Query(() => Contact, { nullable: true })
  contact(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<ContactRow | null> {
    return ctx.loaders.contacts.byId.load(id);
  }
}
