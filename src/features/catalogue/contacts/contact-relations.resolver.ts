/**
 * The catalogue's contact relations. The contacts feature owns them, so it adds the fields to the other
 * types: District.contacts and School.contacts (a page of the parent's listed contacts with the parent's
 * own `_accessSummary`, every parent of a request in one statement), and Contact.district / Contact.school
 * (the records, batched by their loaders). Listing, deduplication and gating are the contacts list's
 * (contact.service.ts): a locked contact's gated fields are null here as in GET /contacts.
 */
import { Args, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import type { DistrictRow } from "../districts/district.service";
import { District } from "../districts/district.type";
import type { SchoolRow } from "../schools/school.service";
import { School } from "../schools/school.type";
import { ParentContactsArgs, type ParentContactsArgsOf } from "./contact.inputs";
import type { ContactPageOf, ContactRow } from "./contact.service";
import { Contact, ContactPage } from "./contact.type";

@Resolver(() => District)
export class DistrictContactsResolver {
  @FieldResolver(() => ContactPage)
  contacts(
    @Root() district: DistrictRow,
    @Args(() => ParentContactsArgs) args: ParentContactsArgsOf,
    @Ctx() ctx: Context,
  ): Promise<ContactPageOf> {
    return ctx.loaders.contacts.ofDistrict(args).load(district.id);
  }
}

@Resolver(() => School)
export class SchoolContactsResolver {
  @FieldResolver(() => ContactPage)
  contacts(
    @Root() school: SchoolRow,
    @Args(() => ParentContactsArgs) args: ParentContactsArgsOf,
    @Ctx() ctx: Context,
  ): Promise<ContactPageOf> {
    return ctx.loaders.contacts.ofSchool(args).load(school.id);
  }
}

@Resolver(() => Contact)
export class ContactParentsResolver {
  @FieldResolver(() => District, { nullable: true })
  district(@Root() contact: ContactRow, @Ctx() ctx: Context): Promise<DistrictRow | null> | null {
    return contact.district_id ? ctx.loaders.districts.byId.load(contact.district_id) : null;
  }

  @FieldResolver(() => School, { nullable: true })
  school(@Root() contact: ContactRow, @Ctx() ctx: Context): Promise<SchoolRow | null> | null {
    return contact.school_id ? ctx.loaders.schools.byId.load(contact.school_id) : null;
  }
}
