import { registerEnumType } from "type-graphql";
import { sql } from "../../../db/sql-template";
import { BadRequestError } from "../../../graphql/errors";
import {
  activeStatusFilter,
  anyOfFilter,
  Bool,
  CalendarDate,
  countyFilter,
  defineList,
  enumOf,
  enumsOf,
  filter,
  filterGroup,
  rangeFilter,
  statesFilter,
  Text,
  updatedSinceFilter,
  Uuid,
  Uuids,
} from "../../kits/common/define-list";
import { checkText, containsPattern, type ListArgsOf } from "../../kits/common/list-kit";

export const HEAD_START_MAX_LIMIT = 200;

export enum HeadStartProgramType {
  head_start = "head_start",
  early_head_start = "early_head_start",
  migrant_seasonal = "migrant_seasonal",
  aian_head_start = "aian_head_start",
  aian_early_head_start = "aian_early_head_start",
}
registerEnumType(HeadStartProgramType, { name: "HeadStartProgramType" });

export enum HeadStartStatusFilter {
  active = "active",
  no_open_site = "no_open_site",
  all = "all",
}
registerEnumType(HeadStartStatusFilter, { name: "HeadStartStatusFilter" });

export enum DelegatesFilter {
  include = "include",
  exclude = "exclude",
  only = "only",
}
registerEnumType(DelegatesFilter, {
  name: "DelegatesFilter",
});

/** Why funded seats are mostly null (the filter's and the field's descriptions). */
export const NO_FUNDED_SLOTS = "The PIR extract loaded here has no funded enrollment, so it is null unless another source fills it.";
export const HEAD_START_STATUS =
  "active (default): reported in the latest PIR year (2022); no_open_site: not reported in 2022 (grant ended or re-competed); all: both. The default applies with ids and parentProgramId too.";

/** The Head Start program list (GET /head-start-programs, `headStartPrograms`, its relations): every filter and sort, once, over the program `h`. */
export const HEAD_START_LIST = defineList({
  name: "HeadStart",
  items: "Head Start programs",
  description: "Filters of the Head Start program list (GET /head-start-programs); every given filter must hold.",
  filters: [
    statesFilter(sql`h.state`, "Two-letter state abbreviations."),
    countyFilter(sql`h.county`, "County names (exact, case-insensitive)."),
    filter("programType", enumsOf(HeadStartProgramType), "Programs having any of these program types (PIR program type).", (types) => {
      if (!types.length) throw new BadRequestError("program_type must be a non-empty comma-separated list");
      return sql`h.program_types && ${types}::text[]`;
    }),
    activeStatusFilter(HeadStartStatusFilter, sql`h.status`, HEAD_START_STATUS),
    rangeFilter("fundedSlots", sql`h.funded_slots`, {
      integer: true,
      min: `Funded seats at open sites (children), at least. ${NO_FUNDED_SLOTS}`,
      max: `Funded seats at open sites (children), at most. ${NO_FUNDED_SLOTS}`,
    }),
    filterGroup(
      {
        grantEndAfter: {
          type: CalendarDate,
          description: "Grant ends on or after this date (YYYY-MM-DD, inclusive); programs without a grant end date never match.",
        },
        grantEndBefore: {
          type: CalendarDate,
          description: "Grant ends on or before this date (YYYY-MM-DD, inclusive); programs without a grant end date never match.",
        },
      },
      ({ grantEndAfter: after, grantEndBefore: before }) => {
        if (after != null && before != null && after > before)
          throw new BadRequestError("grant_end_after must not be later than grant_end_before");
        return [
          ...(after != null ? [sql`h.grant_end >= ${after}::date`] : []),
          ...(before != null ? [sql`h.grant_end <= ${before}::date`] : []),
        ];
      },
    ),
    filter(
      "delegates",
      enumOf(DelegatesFilter),
      "include (default): recipients and delegates; exclude: grant recipients only; only: delegate agencies only.",
      (delegates) =>
        (delegates === DelegatesFilter.exclude && sql`h.delegate_number IS NULL`) ||
        (delegates === DelegatesFilter.only && sql`h.delegate_number IS NOT NULL`),
    ),
    filter("districtRun", Bool, "true: only school-district-run programs; false: none of them.", (run) =>
      run ? sql`h.district_id IS NOT NULL` : sql`h.district_id IS NULL`,
    ),
    filter("search", Text, "Program or recipient name (contains, case-insensitive), or grant number (equals).", (search) => {
      const text = checkText("search", search);
      const pattern = sql.value(containsPattern(text));
      // A grant number matches exactly (any case), also as grant-delegate (01CH010841-001).
      const grant = sql.value(text.toUpperCase());
      return sql`(h.name ILIKE ${pattern} OR h.recipient_name ILIKE ${pattern}
             OR h.grant_number = ${grant} OR h.grant_number || '-' || h.delegate_number = ${grant})`;
    }),
    anyOfFilter("ids", Uuids, sql`h.id`, "uuid", "Our program ids (UUID).", { nonEmpty: true }),
    updatedSinceFilter(sql`h.updated_at`, "Programs whose record changed at or after this instant (updated_at), for incremental sync."),
    filter("parentProgramId", Uuid, "Only delegates under this recipient's program.", (id) => sql`h.parent_program_id = ${id}::uuid`),
  ],
  sorts: {
    name: "Program name.",
    state: "State abbreviation.",
    funded_slots: "Funded seats (children).",
    open_site_count: "Open sites (count).",
    grant_amount: "Grant amount (USD).",
    grant_end: "Grant end date.",
    created_at: "When the record was first stored.",
    updated_at: "When the record last changed.",
  },
  defaultSort: "name",
  maxLimit: HEAD_START_MAX_LIMIT,
});

export const HeadStartFilter = HEAD_START_LIST.Filter;
export type HeadStartFilter = InstanceType<typeof HeadStartFilter>;
export const HeadStartOrderField = HEAD_START_LIST.OrderField;
export type HeadStartOrderField = keyof typeof HeadStartOrderField;

/** The arguments of `headStartPrograms` (GET /head-start-programs). */
export const HeadStartListArgs = HEAD_START_LIST.Args;
export type HeadStartListArgs = ListArgsOf<HeadStartFilter, HeadStartOrderField>;
