import { registerEnumType } from "type-graphql";
import { sql } from "../../../db/sql-template";
import {
  activeStatusFilter,
  anyOfFilter,
  Bool,
  cityFilter,
  countyFilter,
  defineList,
  enumsOf,
  filter,
  rangeFilter,
  statesFilter,
  Text,
  Texts,
  updatedSinceFilter,
  Uuids,
} from "../../kits/common/define-list";
import { checkList, checkText, containsPattern, type ListArgsOf } from "../../kits/common/list-kit";

export const CHILDCARE_MAX_LIMIT = 200;

export enum ChildcareLicenseType {
  center = "center",
  preschool = "preschool",
  school_age = "school_age",
  infant_toddler = "infant_toddler",
  other = "other",
}
registerEnumType(ChildcareLicenseType, { name: "ChildcareLicenseType" });

export enum ChildcareStatusFilter {
  active = "active",
  inactive = "inactive",
  all = "all",
}
registerEnumType(ChildcareStatusFilter, { name: "ChildcareStatusFilter" });

/** The `chain` filter's word for centers in no chain. */
export const INDEPENDENT = "independent";
export const CHILDCARE_STATUS =
  "active (default): license status active; inactive: any other; all: both. The default applies with ids too.";

/** The childcare center list (GET /childcare-centers, `childcareCenters`, Operator.childcareCenters): every filter and sort, once, over the center `c`. */
export const CHILDCARE_LIST = defineList({
  name: "Childcare",
  items: "childcare centers",
  description: "Filters of the childcare center list (GET /childcare-centers); every given filter must hold.",
  filters: [
    statesFilter(sql`c.state`, "Two-letter state abbreviations."),
    countyFilter(sql`c.county`, "County names (exact, case-insensitive; a trailing 'County' is optional)."),
    cityFilter(sql`c.physical_city`, "City names (exact, case-insensitive)."),
    anyOfFilter("licenseType", enumsOf(ChildcareLicenseType), sql`c.license_type`, "text", "Any of these license types.", {
      nonEmpty: true,
    }),
    activeStatusFilter(ChildcareStatusFilter, sql`c.license_status`, CHILDCARE_STATUS),
    rangeFilter("capacity", sql`c.capacity`, {
      integer: true,
      min: "Licensed capacity (children), at least.",
      max: "Licensed capacity (children), at most.",
    }),
    filter("chain", Texts, "Chain keys, or `independent` for centers in no chain.", (values) => {
      const keys = checkList("chain", values, (k) => checkText("chain", k).toLowerCase());
      const chains = keys.filter((k) => k !== INDEPENDENT);
      const any = [
        ...(chains.length ? [sql`c.chain = ANY(${chains}::text[])`] : []),
        ...(chains.length < keys.length ? [sql`c.chain IS NULL`] : []),
      ];
      return sql`(${sql.join(any, " OR ")})`;
    }),
    filter(
      "acceptsSubsidy",
      Bool,
      "Accepts childcare subsidy (true) or not (false); centers whose roster says nothing match neither.",
      (value) => sql`c.accepts_subsidy = ${value}`,
    ),
    filter(
      "districtOperated",
      Bool,
      "Run by a school district (true) or not (false); centers whose roster says nothing match neither.",
      (value) => sql`c.district_operated = ${value}`,
    ),
    filter("search", Text, "Center or licensee name (contains, case-insensitive), or license number (equals, any case).", (search) => {
      const text = checkText("search", search);
      const pattern = sql.value(containsPattern(text));
      return sql`(c.name ILIKE ${pattern} OR c.licensee_name ILIKE ${pattern} OR upper(c.license_number) = ${text.toUpperCase()})`;
    }),
    anyOfFilter("ids", Uuids, sql`c.id`, "uuid", "Our center ids (UUID).", { nonEmpty: true }),
    updatedSinceFilter(sql`c.updated_at`, "Centers whose record changed at or after this instant (updated_at), for incremental sync."),
  ],
  sorts: {
    name: "Center name.",
    state: "State abbreviation.",
    capacity: "Licensed capacity (children).",
    license_type: "License type.",
    chain: "Chain key.",
    first_licensed: "Date first licensed.",
    created_at: "When the record was first stored.",
    updated_at: "When the record last changed.",
  },
  defaultSort: "name",
  maxLimit: CHILDCARE_MAX_LIMIT,
});

export const ChildcareFilter = CHILDCARE_LIST.Filter;
export type ChildcareFilter = InstanceType<typeof ChildcareFilter>;
export const ChildcareOrderField = CHILDCARE_LIST.OrderField;
export type ChildcareOrderField = keyof typeof ChildcareOrderField;

/** The arguments of `childcareCenters` (GET /childcare-centers). */
export const ChildcareListArgs = CHILDCARE_LIST.Args;
export type ChildcareListArgs = ListArgsOf<ChildcareFilter, ChildcareOrderField>;
