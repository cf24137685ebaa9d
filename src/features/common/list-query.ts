/**
 * Shared pieces of the hand-built list queries (districts, schools): paging bounds, text patterns,
 * and the gated intelligence filters, which only ever match entities the caller has unlocked.
 */
import { SqlParams } from "../../db/sql";
import { BadRequestError } from "../../graphql/errors";
import { isPaidPlan, type Viewer } from "../auth/viewer";
import type { BidStatus, FundingSource, PainPointCategory, VendorCategory } from "./enums";

export function checkPaging(limit: number, offset: number, maxLimit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    throw new BadRequestError(`limit must be an integer from 1 to ${maxLimit}`);
  if (!Number.isInteger(offset) || offset < 0) throw new BadRequestError("offset must be an integer >= 0");
}

export function checkRange(name: string, min: number | undefined | null, max: number | undefined | null, integer: boolean): void {
  for (const [which, value] of [
    ["min", min],
    ["max", max],
  ] as const) {
    if (value == null) continue;
    if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value)) || value > 2147483647) {
      throw new BadRequestError(`${which}_${name} must be ${integer ? "an integer" : "a number"} from 0 to 2147483647`);
    }
  }
  if (min != null && max != null && min > max) throw new BadRequestError(`min_${name} must not exceed max_${name}`);
}

/** ILIKE pattern matching `text` anywhere, with the user's % and _ taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function checkState(state: string): string {
  if (!/^[A-Za-z]{2}$/.test(state)) throw new BadRequestError(`state must be a two-letter abbreviation, got "${state}"`);
  return state.toUpperCase();
}

export function checkText(name: string, value: string, max = 200): string {
  const trimmed = value.trim();
  if (!trimmed) throw new BadRequestError(`${name} must not be empty`);
  if (trimmed.length > max) throw new BadRequestError(`${name} must be at most ${max} characters`);
  return trimmed;
}

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
 * WHERE clauses for the gated filters. `entityColumn` is district_id or school_id in the intelligence
 * tables, `alias` the entity row, and `unlocked` the SQL that is true when the caller unlocked it.
 */
export function intelligenceClauses(f: IntelligenceFilter, p: SqlParams, entityColumn: string, alias: string, unlocked: string): string[] {
  const clauses: string[] = [];
  const where = (table: string, extra = "") => `EXISTS (SELECT 1 FROM ${table} WHERE x.${entityColumn} = ${alias}.id${extra})`;
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
  if (f.rfpStatus === "open") clauses.push(where("bids x", " AND x.status = 'open' AND (x.deadline_at IS NULL OR x.deadline_at > now())"));
  if (f.rfpStatus === "closed")
    clauses.push(where("bids x", " AND NOT (x.status = 'open' AND (x.deadline_at IS NULL OR x.deadline_at > now()))"));
  // A gated filter never leaks: locked entities cannot match it, whatever their data.
  if (clauses.length) clauses.push(unlocked);
  return clauses;
}

/** SQL true when organization `orgParam` follows the `entityType` record `alias`. */
export const followedSql = (orgParam: string, entityType: "district" | "school", alias: string): string =>
  `EXISTS (SELECT 1 FROM follows f WHERE f.organization_id = ${orgParam} AND f.entity_type = '${entityType}'
             AND f.entity_id = ${alias}.id AND f.unfollowed_at IS NULL)`;

/**
 * History gating of the metric query (contract section 4): SQL true where the caller sees the record's
 * whole history (it follows the record), or null when its plan opens history for every record.
 */
export function historyOpenSql(viewer: Viewer, entityType: "district" | "school", alias: string, p: SqlParams): string | null {
  return isPaidPlan(viewer) ? null : followedSql(p.add(viewer.organizationId), entityType, alias);
}
