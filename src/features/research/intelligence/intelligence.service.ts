/**
 * The intelligence filters of the district, school and contact lists (vendors, pain points, funding, contracts,
 * bids). Gated like the lists themselves: a locked record never matches one, whatever its data.
 */
import { sql, type SqlFragment } from "../../../db/sql-template";
import { unlockedSql } from "../../account/access/access.service";
import { Bool, enumOf, Uuids, type FilterGroup, type FilterType } from "../../kits/common/define-list";
import { BidStatus, FundingSource, PainPointCategory, VendorCategory } from "../../kits/common/enums";

/** SQL true while the bid `bid` takes bids: its status is open and its deadline has not passed. */
const bidOpenSql = (bid: string): string => `${bid}.status = 'open' AND (${bid}.deadline_at IS NULL OR ${bid}.deadline_at > now())`;

/** SQL of a bid's status as served (`bid`: its alias): the same rule as the rfp_status filter. */
export const BID_STATUS_SQL = (bid: string): string => `CASE WHEN ${bidOpenSql(bid)} THEN 'open' ELSE 'closed' END`;

export interface IntelligenceFilter {
  vendorIds?: string[] | null;
  vendorCategory?: VendorCategory | null;
  painPointCategory?: PainPointCategory | null;
  hasPainPoints?: boolean | null;
  fundingSource?: FundingSource | null;
  hasFunding?: boolean | null;
  hasExpiringContracts?: boolean | null;
  rfpStatus?: BidStatus | null;
}

const INTELLIGENCE_TYPES = {
  vendorIds: Uuids,
  vendorCategory: enumOf(VendorCategory),
  painPointCategory: enumOf(PainPointCategory),
  hasPainPoints: Bool,
  fundingSource: enumOf(FundingSource),
  hasFunding: Bool,
  hasExpiringContracts: Bool,
  rfpStatus: enumOf(BidStatus),
} satisfies Record<keyof IntelligenceFilter, FilterType<unknown>>;

/** The descriptions of the district and school lists' intelligence filters (`items`: Districts, Schools). */
export const intelligenceDescriptions = (items: string): Record<keyof IntelligenceFilter, string> => ({
  vendorIds: `${items} using any of these vendors (ids). Matches only records the caller's organization has unlocked.`,
  vendorCategory: `${items} using a vendor of this category. Matches only unlocked records.`,
  painPointCategory: `${items} with an extracted pain point of this category. Matches only unlocked records.`,
  hasPainPoints: `${items} with (true) or without (false) extracted pain points. Matches only unlocked records.`,
  fundingSource: `${items} receiving funding of this source. Matches only unlocked records.`,
  hasFunding: `${items} with (true) or without (false) extracted funding. Matches only unlocked records.`,
  hasExpiringContracts: `${items} with (true) or without (false) an extracted contract expiring within 6 months. Matches only unlocked records.`,
  rfpStatus: `${items} with a bid of this status (open: deadline not passed). Matches only unlocked records.`,
});

/**
 * The gated filters as one declaration of a list's filter (define-list): the input fields named in
 * `descriptions`, in its order, and one condition over any owner. `owner.match(x)` is SQL true where the
 * intelligence row `x` belongs to the filtered row's owner, `owner.unlocked` SQL true where the caller
 * unlocked that owner (contacts: their parent district or school).
 */
export function intelligenceFilters<K extends keyof IntelligenceFilter, C = unknown>(
  owner: { match: (x: SqlFragment) => SqlFragment; unlocked: (context: C) => SqlFragment },
  descriptions: Record<K, string>,
): FilterGroup<Pick<IntelligenceFilter, K>, C> {
  const fields = Object.fromEntries(
    (Object.keys(descriptions) as K[]).map((key) => [key, { type: INTELLIGENCE_TYPES[key], description: descriptions[key] }]),
  ) as FilterGroup<Pick<IntelligenceFilter, K>, C>["fields"];
  return {
    fields,
    where: (filter, context) => {
      const f = filter as IntelligenceFilter;
      const x = sql.raw("x");
      const exists = (table: string, extra: SqlFragment = sql``) =>
        sql`EXISTS (SELECT 1 FROM ${sql.raw(table)} WHERE ${owner.match(x)}${extra})`;
      const conditions: SqlFragment[] = [];
      if (f.vendorIds?.length) conditions.push(exists("entity_vendors x", sql` AND x.vendor_id = ANY(${f.vendorIds}::uuid[])`));
      if (f.vendorCategory) {
        conditions.push(exists("entity_vendors x JOIN vendors v ON v.id = x.vendor_id", sql` AND v.category = ${f.vendorCategory}`));
      }
      if (f.painPointCategory) conditions.push(exists("pain_points x", sql` AND x.category = ${f.painPointCategory}`));
      if (f.hasPainPoints != null) conditions.push(sql`${sql.raw(f.hasPainPoints ? "" : "NOT ")}${exists("pain_points x")}`);
      if (f.fundingSource) conditions.push(exists("funding x", sql` AND x.source = ${f.fundingSource}`));
      if (f.hasFunding != null) conditions.push(sql`${sql.raw(f.hasFunding ? "" : "NOT ")}${exists("funding x")}`);
      if (f.hasExpiringContracts != null) {
        const expiring = exists(
          "contracts x",
          sql` AND x.expires_on >= CURRENT_DATE AND x.expires_on < CURRENT_DATE + INTERVAL '6 months'`,
        );
        conditions.push(f.hasExpiringContracts ? expiring : sql`NOT ${expiring}`);
      }
      if (f.rfpStatus === "open") conditions.push(exists("bids x", sql` AND ${sql.raw(bidOpenSql("x"))}`));
      if (f.rfpStatus === "closed") conditions.push(exists("bids x", sql` AND NOT (${sql.raw(bidOpenSql("x"))})`));
      // A gated filter never leaks: locked records cannot match it, whatever their data.
      if (conditions.length) conditions.push(owner.unlocked(context));
      return conditions;
    },
  };
}

/** The owner of a district's or school's intelligence rows: `alias` the record, `ownerColumn` its column in them, `unlock` its access join. */
export const recordOwner = (alias: string, ownerColumn: string, unlock: string) => ({
  match: (x: SqlFragment) => sql`${x}.${sql.raw(ownerColumn)} = ${sql.raw(alias)}.id`,
  unlocked: () => sql.raw(unlockedSql(unlock)),
});
