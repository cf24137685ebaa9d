/**
 * The intelligence filters of the district and school lists (vendors, pain points, funding, contracts,
 * bids). Gated like the lists themselves: a locked record never matches one, whatever its data.
 */
import type { SqlParams } from "../../../db/sql";
import { unlockedSql } from "../../account/access/access.service";
import type { FilterClause } from "../../kits/common/list-kit";
import type { BidStatus, FundingSource, PainPointCategory, VendorCategory } from "../../kits/common/enums";

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

/**
 * The gated filters as one clause of a list's filter. `alias` is the record row, `ownerColumn` its
 * column in the intelligence tables (district_id, school_id), `unlock` the alias of its access join.
 */
export function intelligenceFilter(alias: string, ownerColumn: string, unlock: string): FilterClause<IntelligenceFilter> {
  return ownerIntelligenceFilter(
    (x) => `${x}.${ownerColumn} = ${alias}.id`,
    () => unlockedSql(unlock),
  );
}

/**
 * The gated filters over any owner: `ownerMatch(x)` is SQL true where the intelligence row `x` belongs to
 * the filtered row's owner, `unlocked` SQL true where the caller unlocked that owner (contacts: their
 * parent district or school).
 */
export function ownerIntelligenceFilter<C>(
  ownerMatch: (x: string) => string,
  unlocked: (p: SqlParams, context: C) => string,
): FilterClause<IntelligenceFilter, C> {
  return (f, p, context) => {
    const clauses: string[] = [];
    const where = (table: string, extra = "") => `EXISTS (SELECT 1 FROM ${table} WHERE ${ownerMatch("x")}${extra})`;
    if (f.vendorIds?.length) clauses.push(where("entity_vendors x", ` AND x.vendor_id = ANY(${p.add(f.vendorIds)}::uuid[])`));
    if (f.vendorCategory) {
      clauses.push(where("entity_vendors x JOIN vendors v ON v.id = x.vendor_id", ` AND v.category = ${p.add(f.vendorCategory)}`));
    }
    if (f.painPointCategory) clauses.push(where("pain_points x", ` AND x.category = ${p.add(f.painPointCategory)}`));
    if (f.hasPainPoints != null) clauses.push(`${f.hasPainPoints ? "" : "NOT "}${where("pain_points x")}`);
    if (f.fundingSource) clauses.push(where("funding x", ` AND x.source = ${p.add(f.fundingSource)}`));
    if (f.hasFunding != null) clauses.push(`${f.hasFunding ? "" : "NOT "}${where("funding x")}`);
    if (f.hasExpiringContracts != null) {
      const expiring = where("contracts x", " AND x.expires_on >= CURRENT_DATE AND x.expires_on < CURRENT_DATE + INTERVAL '6 months'");
      clauses.push(f.hasExpiringContracts ? expiring : `NOT ${expiring}`);
    }
    if (f.rfpStatus === "open") clauses.push(where("bids x", ` AND ${bidOpenSql("x")}`));
    if (f.rfpStatus === "closed") clauses.push(where("bids x", ` AND NOT (${bidOpenSql("x")})`));
    // A gated filter never leaks: locked records cannot match it, whatever their data.
    if (clauses.length) clauses.push(unlocked(p, context));
    return clauses;
  };
}
