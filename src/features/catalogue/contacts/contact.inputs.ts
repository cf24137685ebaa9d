import { ArgsType, Field, InputType, registerEnumType } from "type-graphql";
import { UUIDScalar } from "../../../graphql/scalars";
import { BidStatus, FundingSource, PainPointCategory, VendorCategory } from "../../kits/common/enums";
import { ListArgs, type ListArgsOf } from "../../kits/common/list-kit";

export enum ContactOrderField {
  name = "name",
  title = "title",
  state = "state",
  qualification_score = "qualification_score",
  created_at = "created_at",
  last_updated_at = "last_updated_at",
}
registerEnumType(ContactOrderField, { name: "ContactOrderField" });

export enum EnrichmentStatus {
  pending = "pending",
  processing = "processing",
  completed = "completed",
  error = "error",
}
registerEnumType(EnrichmentStatus, { name: "EnrichmentStatus" });

/**
 * Every filter of GET /contacts (spec "GET /contacts"). The intelligence filters (vendors, pain points,
 * funding, contracts, bids) read the contact's parent (its school when it has one, else its district)
 * and match only contacts whose parent the caller's organization has unlocked.
 */
@InputType()
export class ContactFilter {
  @Field(() => UUIDScalar, { nullable: true })
  districtId?: string;
  @Field(() => UUIDScalar, { nullable: true }) schoolId?: string;
  @Field({ nullable: true }) state?: string;
  @Field({ nullable: true }) search?: string;
  @Field({ nullable: true })
  titleIlike?: string;
  @Field({ nullable: true }) isDistrictContact?: boolean;
  @Field(() => EnrichmentStatus, { nullable: true }) enrichmentStatus?: EnrichmentStatus;
  @Field(() => UUIDScalar, { nullable: true }) listId?: string;
  @Field(() => [UUIDScalar], { nullable: true })
  districtListIds?: string[];
  @Field(() => [UUIDScalar], { nullable: true })
  schoolListIds?: string[];
  @Field(() => [UUIDScalar], { nullable: true }) vendorIds?: string[];
  @Field(() => VendorCategory, { nullable: true }) vendorCategory?: VendorCategory;
  @Field(() => BidStatus, { nullable: true }) rfpStatus?: BidStatus;
  @Field(() => PainPointCategory, { nullable: true }) painPointCategory?: PainPointCategory;
  @Field({ nullable: true }) hasPainPoints?: boolean;
  @Field(() => FundingSource, { nullable: true }) fundingSource?: FundingSource;
  @Field({ nullable: true }) hasExpiringContracts?: boolean;
}

export const CONTACT_MAX_LIMIT = 200;
export const PARENT_CONTACTS_DEFAULT_LIMIT = 50;

/** The arguments of `contacts` (GET /contacts): the list kit's plus `unique`. */
@ArgsType()
export class ContactListArgs extends ListArgs({
  filter: ContactFilter,
  orderBy: { type: ContactOrderField, default: ContactOrderField.name },
  maxLimit: CONTACT_MAX_LIMIT,
}) {
  @Field(() => Boolean, { nullable: true, defaultValue: true }) unique?: boolean | null;
}
export type ContactListArgsOf = ListArgsOf<ContactFilter, ContactOrderField> & { unique?: boolean | null };

/** The arguments of a parent's contacts (District.contacts, School.contacts): paging, sort and `unique`, no filter. */
@ArgsType()
export class ParentContactsArgs extends ListArgs<never, ContactOrderField>({
  orderBy: { type: ContactOrderField, default: ContactOrderField.name },
  maxLimit: CONTACT_MAX_LIMIT,
  defaultLimit: PARENT_CONTACTS_DEFAULT_LIMIT,
}) {
  @Field(() => Boolean, { nullable: true, defaultValue: true }) unique?: boolean | null;
}
export type ParentContactsArgsOf = Omit<ListArgsOf<never, ContactOrderField>, "filter" | "metricQuery"> & { unique?: boolean | null };
