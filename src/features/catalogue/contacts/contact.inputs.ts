import { ArgsType, Field, registerEnumType } from "type-graphql";
import { sql } from "../../../db/sql-template";
import { LIST_FILTER } from "../../../graphql/dictionary/common";
import { BadRequestError } from "../../../graphql/errors";
import type { Viewer } from "../../account/auth/viewer";
import { Bool, callerListsFilter, defineList, enumOf, filter, Text, Uuid, Uuids } from "../../kits/common/define-list";
import { checkState, checkText, containsPattern, ListArgs, type ListArgsOf } from "../../kits/common/list-kit";
import { intelligenceFilters } from "../../research/intelligence/intelligence.service";

export enum EnrichmentStatus {
  pending = "pending",
  processing = "processing",
  completed = "completed",
  error = "error",
}
registerEnumType(EnrichmentStatus, { name: "EnrichmentStatus" });

export const CONTACT_MAX_LIMIT = 200;
export const PARENT_CONTACTS_DEFAULT_LIMIT = 50;

/** The contact's parent: its school when it has one, else its district (intelligence rows `x` belong to it). */
const CONTACT_PARENT = {
  match: (x: ReturnType<typeof sql>) => sql`(${x}.school_id = c.school_id OR (c.school_id IS NULL AND ${x}.district_id = c.district_id))`,
  /** SQL true where the caller's organization unlocked the contact's parent. */
  unlocked: (viewer: Viewer) => sql`EXISTS (SELECT 1 FROM unlocks pu
    WHERE pu.organization_id = ${viewer.organizationId}::uuid AND pu.state = 'unlocked'
      AND ((c.school_id IS NOT NULL AND pu.entity_type = 'school' AND pu.entity_id = c.school_id)
        OR (c.school_id IS NULL AND pu.entity_type = 'district' AND pu.entity_id = c.district_id)))`,
};

/**
 * The contact list (GET /contacts, `contacts`, spec "GET /contacts"): every filter and sort, once, over the
 * contact `c`. The intelligence filters (vendors, pain points, funding, contracts, bids) read the contact's
 * parent and match only contacts whose parent the caller's organization has unlocked.
 */
export const CONTACT_LIST = defineList({
  name: "Contact",
  items: "contacts",
  description: "Filters of the contact list (GET /contacts); every given filter must hold.",
  filters: [
    filter("districtId", Uuid, "Contacts of this district (district and school level).", (id) => sql`c.district_id = ${id}::uuid`),
    filter("schoolId", Uuid, "Contacts of this school (our school id, UUID).", (id) => sql`c.school_id = ${id}::uuid`),
    filter("state", Text, "Two-letter state abbreviation.", (state) => sql`c.state = ${checkState(state)}`),
    filter(
      "search",
      Text,
      "Text contained in the name or the title (case-insensitive; % and _ taken literally), at most 200 characters.",
      (text) => {
        const pattern = sql.value(containsPattern(checkText("search", text)));
        return sql`(c.name ILIKE ${pattern} OR c.title ILIKE ${pattern})`;
      },
    ),
    filter(
      "titleIlike",
      Text,
      "A PostgreSQL ILIKE pattern the title matches (% any run, _ one character; without a wildcard the whole title, any case).",
      (text) => {
        // The caller's pattern: % and _ are wildcards. A backslash escapes the next character; PostgreSQL refuses a pattern ending with an unpaired one.
        const pattern = checkText("title_ilike", text);
        if (/(^|[^\\])(\\\\)*\\$/.test(pattern)) throw new BadRequestError("title_ilike must not end with an unescaped backslash");
        return sql`c.title ILIKE ${pattern}`;
      },
    ),
    filter(
      "isDistrictContact",
      Bool,
      "true: district-level contacts; false: school-level.",
      (value) => sql`c.is_district_contact = ${value}`,
    ),
    filter(
      "enrichmentStatus",
      enumOf(EnrichmentStatus),
      "Contacts whose enrichment is in this state: pending, processing, completed or error.",
      (status) => sql`c.enrichment_status = ${status}`,
    ),
    callerListsFilter(
      "listId",
      Uuid,
      sql`c.id`,
      "contact",
      `A contact list of the caller's organization: its contacts. ${LIST_FILTER("contacts")}`,
    ),
    callerListsFilter(
      "districtListIds",
      Uuids,
      sql`c.district_id`,
      "district",
      `Contacts whose district is in any of these district lists of the caller's organization. ${LIST_FILTER("districts")}`,
    ),
    callerListsFilter(
      "schoolListIds",
      Uuids,
      sql`c.school_id`,
      "school",
      `Contacts whose school is in any of these school lists of the caller's organization. ${LIST_FILTER("schools")}`,
    ),
    intelligenceFilters(CONTACT_PARENT, {
      vendorIds: "The parent uses any of these vendors (ids). Matches only contacts whose parent the caller's organization has unlocked.",
      vendorCategory: "The parent uses a vendor of this category. Matches only contacts of unlocked parents.",
      rfpStatus: "The parent has a bid of this status. Matches only contacts of unlocked parents.",
      painPointCategory: "The parent has an extracted pain point of this category. Matches only contacts of unlocked parents.",
      hasPainPoints: "The parent has (true) or has no (false) extracted pain points. Matches only contacts of unlocked parents.",
      fundingSource: "The parent receives funding of this source. Matches only contacts of unlocked parents.",
      hasExpiringContracts: "The parent has a contract expiring within 6 months.",
    }),
  ],
  sorts: {
    name: "The person's name.",
    title: "Job title as found.",
    state: "Two-letter state abbreviation.",
    qualification_score: "Qualification score (higher fits better as a buyer).",
    created_at: "When the record was first stored.",
    last_updated_at: "When the record last changed.",
    district_enrollment: {
      column: "district_enrollment",
      description:
        "Enrollment (student_count) of the contact's district, school contacts by their school's district (largest first with order_ascending=false).",
    },
  },
  defaultSort: "name",
  maxLimit: CONTACT_MAX_LIMIT,
  context: {} as Viewer,
});

/** Sort keys that are not a contact column: the value each is computed from, over the contact `c`. */
export const CONTACT_SORT_VALUES: Readonly<Partial<Record<ContactOrderFieldName, string>>> = {
  district_enrollment: `(SELECT d.student_count FROM districts d WHERE d.id = c.district_id)`,
};
type ContactOrderFieldName = keyof typeof CONTACT_LIST.OrderField;

/** The select item of a sort key, named as the sort's column (the statements sort their CTE by it). */
export const contactSortValue = (field: ContactOrderFieldName): string => {
  const column = CONTACT_LIST.orderColumns[field];
  return `${CONTACT_SORT_VALUES[field] ?? `c.${column}`} AS ${column}`;
};

export const ContactFilter = CONTACT_LIST.Filter;
export type ContactFilter = InstanceType<typeof ContactFilter>;
export const ContactOrderField = CONTACT_LIST.OrderField;
export type ContactOrderField = keyof typeof ContactOrderField;

/** The arguments of `contacts` (GET /contacts): the list kit's plus `unique`. */
@ArgsType()
export class ContactListArgs extends CONTACT_LIST.Args {
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
