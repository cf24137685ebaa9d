/**
 * Per-request intelligence loaders, one set per entity kind: each list is one statement over the ids
 * of a page. Resolvers call them only for unlocked entities, so a locked page issues no statement.
 */
import DataLoader from "dataloader";
import { groupByKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import type { Viewer } from "../auth/viewer";
import { ENTITY_SQL, perEntityKind, type EntityKind } from "../common/entity-kind";
import type { Bid, BidFiling, Contract, Funding, PainPoint, Vendor } from "./intelligence.type";

/** The same rule as the rfp_status filter (list-query.ts): open while status is open and the deadline has not passed. */
const BID_STATUS_SQL = `CASE WHEN b.status = 'open' AND (b.deadline_at IS NULL OR b.deadline_at > now()) THEN 'open' ELSE 'closed' END`;

type Owned<T> = T & { __owner: string };

interface BidRow extends Omit<Bid, "filing"> {
  __owner: string;
  __filing_action: string | null;
  __filing_reason_code: string | null;
  __filing_reason_note: string | null;
  __filing_filed_at: Date | null;
}

function createKindLoaders(db: Db, viewer: Viewer, kind: EntityKind) {
  const { ownerColumn: owner } = ENTITY_SQL[kind];
  /** One statement for the page; `sql` selects `__owner` and takes the ids as $1. */
  const list = <T>(sql: string, extra: unknown[] = []) =>
    new DataLoader<string, Owned<T>[]>(async (ids) => groupByKeys(ids, await db.query<Owned<T>>(sql, [ids, ...extra]), (r) => r.__owner));

  return {
    painPoints: list<PainPoint>(
      `SELECT ${owner} AS __owner, id, category, description, source_url, detected_at FROM pain_points
        WHERE ${owner} = ANY($1::uuid[]) ORDER BY ${owner}, detected_at DESC NULLS LAST, id`,
    ),
    vendors: list<Vendor>(
      `SELECT DISTINCT ev.${owner} AS __owner, v.id, v.name, v.category
         FROM entity_vendors ev JOIN vendors v ON v.id = ev.vendor_id
        WHERE ev.${owner} = ANY($1::uuid[]) ORDER BY __owner, v.name, v.id`,
    ),
    funding: list<Funding>(
      `SELECT ${owner} AS __owner, id, source, amount, fiscal_year, description FROM funding
        WHERE ${owner} = ANY($1::uuid[]) ORDER BY ${owner}, fiscal_year DESC NULLS LAST, source, id`,
    ),
    contracts: list<Contract>(
      `SELECT c.${owner} AS __owner, c.id, c.vendor_id, v.name AS vendor_name, c.category, c.amount, c.starts_on, c.expires_on
         FROM contracts c LEFT JOIN vendors v ON v.id = c.vendor_id
        WHERE c.${owner} = ANY($1::uuid[]) ORDER BY c.${owner}, c.expires_on NULLS LAST, c.id`,
    ),
    bids: new DataLoader<string, Bid[]>(async (ids) => {
      const rows = await db.query<BidRow>(
        `SELECT b.${owner} AS __owner, b.id, b.title, ${BID_STATUS_SQL} AS status, b.posted_on, b.deadline_at, b.url,
                f.action AS __filing_action, f.reason_code AS __filing_reason_code,
                f.reason_note AS __filing_reason_note, f.filed_at AS __filing_filed_at
           FROM bids b LEFT JOIN bid_filings f ON f.bid_id = b.id AND f.organization_id = $2
          WHERE b.${owner} = ANY($1::uuid[]) ORDER BY b.${owner}, b.posted_on DESC NULLS LAST, b.id`,
        [ids, viewer.organizationId],
      );
      const bids = rows.map((r): Bid & { __owner: string } => ({
        __owner: r.__owner,
        id: r.id,
        title: r.title,
        status: r.status,
        posted_on: r.posted_on,
        deadline_at: r.deadline_at,
        url: r.url,
        filing: filingOf(r),
      }));
      return groupByKeys(ids, bids, (b) => b.__owner);
    }),
  };
}

function filingOf(r: BidRow): BidFiling | null {
  if (r.__filing_action === null) return null;
  return {
    action: r.__filing_action,
    reason_code: r.__filing_reason_code,
    reason_note: r.__filing_reason_note,
    filed_at: r.__filing_filed_at as Date,
  };
}

export function createIntelligenceLoaders(db: Db, viewer: Viewer) {
  return perEntityKind((kind) => createKindLoaders(db, viewer, kind));
}

export type IntelligenceLoaders = ReturnType<typeof createIntelligenceLoaders>;
