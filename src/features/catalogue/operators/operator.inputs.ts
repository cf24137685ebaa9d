import { registerEnumType } from "type-graphql";
import { sql } from "../../../db/sql-template";
import { BadRequestError, echo } from "../../../graphql/errors";
import { Bool, defineList, enumOf, filter, rangeFilter, Text, Texts, updatedSinceFilter, Uuids } from "../../kits/common/define-list";
import { checkList, checkState, checkText, containsPattern, type ListArgsOf } from "../../kits/common/list-kit";

export const OPERATOR_MAX_LIMIT = 10000;

export enum ContractorMode {
  any = "any",
  latest = "latest",
}
registerEnumType(ContractorMode, {
  name: "ContractorMode",
});

export const OPERATOR_KINDS = ["nonprofit", "company", "government", "tribe", "church", "other"] as const;

function checkKind(kind: string): string {
  const k = kind.toLowerCase();
  if (!(OPERATOR_KINDS as readonly string[]).includes(k)) {
    throw new BadRequestError(`kind must be one of ${OPERATOR_KINDS.join(", ")} (any case); got ${echo(kind)}`);
  }
  return k;
}

/**
 * The operator list (GET /operators, `operators`): every filter and sort, once, over the computed record `x`.
 * `state`, `ids` and `contractor` also shape the statement's CTEs (operator.service.ts operatorCtes: the
 * counts scoped to the states, the merged ids, the contractor matches).
 */
export const OPERATOR_LIST = defineList({
  name: "Operator",
  items: "operators",
  description: "Filters of the operator list (GET /operators); every given filter must hold.",
  filters: [
    filter(
      "state",
      Texts,
      "Two-letter states where it runs active centers or open Head Start programs; also scopes the counts to them.",
      // Runs active centers or open programs in one of the states: the scoped counts say so.
      (states) => (checkList("state", states, checkState), sql`(x.center_count > 0 OR x.head_start_count > 0)`),
    ),
    filter(
      "kind",
      Texts,
      "Any case: nonprofit, company, government, tribe, church, other.",
      (kinds) => sql`lower(x.kind) = ANY(${checkList("kind", kinds, checkKind)}::text[])`,
    ),
    rangeFilter("centers", sql`x.center_count`, {
      integer: true,
      min: "Active childcare centers it runs (centerCount, scoped by state) at least, 0 to 2147483647.",
      max: "Active childcare centers it runs (centerCount, scoped by state) at most.",
    }),
    rangeFilter("capacity", sql`x.center_seats`, {
      integer: true,
      min: "Summed licensed capacity (children) of its active centers (centerSeats) at least.",
      max: "Summed licensed capacity (children) of its active centers (centerSeats) at most.",
    }),
    filter("hasOpenHeadStart", Bool, "Runs a Head Start program with an open site (true) or none (false).", (open) =>
      open ? sql`x.head_start_count > 0` : sql`x.head_start_count = 0`,
    ),
    rangeFilter("totalRevenue", sql`x.total_revenue`, {
      integer: false,
      signed: true,
      min: "Total revenue (totalRevenue, USD) at least; may be negative.",
      max: "Total revenue (totalRevenue, USD) at most; may be negative.",
    }),
    rangeFilter("governmentGrants", sql`x.government_grants`, {
      integer: false,
      signed: true,
      min: "Government grants (governmentGrants, USD) at least; may be negative.",
      max: "Government grants (governmentGrants, USD) at most; may be negative.",
    }),
    filter(
      "contractor",
      Text,
      "Paid a contractor over $100,000 whose name contains one of these names (joined by |, at most 20, each at most 200 characters), ignoring case, spaces and punctuation. 990-EZ returns never match.",
      () => sql`x.contractor_paid IS NOT NULL`,
    ),
    filter(
      "contractorMode",
      enumOf(ContractorMode),
      "any (default): match contractors on any current Form 990 return; latest: only on the latest return. Without contractor it does nothing.",
      () => null,
    ),
    filter("search", Text, "Name contains it (case-insensitive), or the EIN equals it; at most 200 characters.", (search) => {
      const text = checkText("search", search);
      // A tax id is compared exactly (the usual 12-3456789 spelling is accepted for the stored 123456789).
      const ein = /^\d{2}-\d{7}$/.test(text) ? text.replace("-", "") : text;
      return sql`(x.name ILIKE ${containsPattern(text)} OR x.ein = ${ein})`;
    }),
    filter(
      "ids",
      Uuids,
      "Our operator ids (UUID); an id merged into another operator reads as the operator it became.",
      // The merged ids are the CTE `wanted` (listOperators checks the list before building it).
      () => sql`x.id IN (SELECT root FROM wanted)`,
    ),
    updatedSinceFilter(sql`x.updated_at`, "Operators whose record changed at or after this instant (updated_at), for incremental sync."),
  ],
  sorts: {
    name: "Organization name.",
    state: "State abbreviation.",
    kind: "Kind (nonprofit, company ...).",
    center_count: "Active childcare centers (count).",
    center_seats: "Summed licensed capacity of active centers (children).",
    head_start_count: "Head Start programs with an open site (count).",
    head_start_slots: "Summed funded slots of those programs (children).",
    total_revenue: "Total revenue (USD; latest Form 990 return, else IRS EO BMF).",
    government_grants: "Government grants (USD; latest Form 990 return).",
    created_at: "When the record was first stored.",
    updated_at: "When the record last changed.",
  },
  defaultSort: "name",
  maxLimit: OPERATOR_MAX_LIMIT,
});

export const OperatorFilter = OPERATOR_LIST.Filter;
export type OperatorFilter = InstanceType<typeof OperatorFilter>;
export const OperatorOrderField = OPERATOR_LIST.OrderField;
export type OperatorOrderField = keyof typeof OperatorOrderField;

/** The arguments of `operators` (GET /operators). */
export const OperatorListArgs = OPERATOR_LIST.Args;
export type OperatorListArgs = ListArgsOf<OperatorFilter, OperatorOrderField>;
