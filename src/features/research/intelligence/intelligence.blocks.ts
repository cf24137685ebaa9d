/**
 * The five intelligence lists of districts and schools (contract section 4): gated, so they are read
 * only for records the caller's organization unlocked and are null for the others. Each holds the
 * record's own rows (district_id or school_id).
 *
 * Each list is declared once (FindingsList: its rows, their order, its columns). Its block reads it for
 * the API; `findingsSql` reads the same rows in the same order for a brief's dossier, with where each row
 * came from (src/features/research/briefs/brief.dossier.ts), so the two cannot disagree.
 */
import { columnsOf } from "../../../graphql/fields";
import { defineBlock, type BlockSqlContext } from "../../kits/blocks/block";
import { ENTITY_SQL } from "../../kits/common/entity-kind";
import { jsonArraySql, jsonRowsSql, rowDecoder, type JsonColumn, type RowDecoder } from "../../kits/common/json-rows";
import { BID_STATUS_SQL } from "./intelligence.service";
import { Bid, BidFiling, Contract, Funding, PainPoint, Vendor } from "./intelligence.type";

const owner = ({ kind }: BlockSqlContext): string => ENTITY_SQL[kind].ownerColumn;
const list = <T>(rows: T[]): T[] => rows;

/** Where a finding came from: beyond the API's columns, read for the dossier only. */
export interface Provenance {
  source_url: string | null;
  data_source: string;
}
const PROVENANCE: readonly JsonColumn[] = [
  { property: "source_url", kind: "string" },
  { property: "data_source", kind: "string" },
];

/** One list of a record: its rows (`source`, naming them `alias`), their order, the columns the API serves. */
interface FindingsList<Row> {
  alias: string;
  columns: readonly JsonColumn[];
  source(q: BlockSqlContext): string;
  orderBy: string;
  /** SQL of each row's Provenance when it is not the row's own source_url and data_source. */
  provenance?(q: BlockSqlContext): Record<keyof Provenance, string>;
  /** The API's rows (the block's decoder) and the rows with their Provenance (the dossier's). */
  decode: RowDecoder<Row>;
  decodeWithProvenance: RowDecoder<Row & Provenance>;
}

function findingsList<Row>(spec: Omit<FindingsList<Row>, "decode" | "decodeWithProvenance">): FindingsList<Row> {
  return {
    ...spec,
    decode: rowDecoder<Row>(spec.columns),
    decodeWithProvenance: rowDecoder<Row & Provenance>([...spec.columns, ...provenanceColumns(spec)]),
  };
}

/** The Provenance columns a list does not serve already (pain points serve their source_url). */
function provenanceColumns(spec: Pick<FindingsList<unknown>, "columns" | "provenance">, q?: BlockSqlContext): JsonColumn[] {
  const sql = q && spec.provenance?.(q);
  return PROVENANCE.filter((p) => !spec.columns.some((c) => c.property === p.property)).map((p) =>
    sql ? { ...p, sql: sql[p.property as keyof Provenance] } : p,
  );
}

/** The block's SQL of a list: every row of the record, in the list's order. */
const blockSql =
  <Row>(spec: FindingsList<Row>) =>
  (q: BlockSqlContext): string =>
    jsonRowsSql(spec.alias, spec.columns, spec.source(q), spec.orderBy);

const PAIN_POINTS = findingsList<PainPoint>({
  alias: "ipp",
  columns: columnsOf(PainPoint),
  source: (q) => `pain_points ipp WHERE ipp.${owner(q)} = ${q.record}.id`,
  orderBy: "ipp.detected_at DESC NULLS LAST, ipp.id",
});

export const painPointsBlock = defineBlock({
  name: "pain_points",
  kinds: ["district", "school"],
  gated: true,
  sql: blockSql(PAIN_POINTS),
  decode: (json) => PAIN_POINTS.decode.all(json as unknown[][] | null),
  fields: [
    {
      name: "painPoints",
      type: () => [PainPoint],
      nullable: true,
      shape: list,
    },
  ],
});

const VENDORS = findingsList<Vendor>({
  alias: "ive",
  columns: columnsOf(Vendor),
  // Each vendor once, however many entity_vendors rows name it.
  source: (q) => `vendors ive WHERE ive.id IN (SELECT iev.vendor_id FROM entity_vendors iev WHERE iev.${owner(q)} = ${q.record}.id)`,
  orderBy: "ive.name, ive.id",
  // A vendor is cited where the record was first found to use it.
  provenance: (q) => {
    const first = (column: string) =>
      `(SELECT ivl.${column} FROM entity_vendors ivl WHERE ivl.${owner(q)} = ${q.record}.id AND ivl.vendor_id = ive.id
         ORDER BY ivl.created_at, ivl.id LIMIT 1)`;
    return { source_url: first("source_url"), data_source: first("data_source") };
  },
});

export const vendorsBlock = defineBlock({
  name: "vendors",
  kinds: ["district", "school"],
  gated: true,
  sql: blockSql(VENDORS),
  decode: (json) => VENDORS.decode.all(json as unknown[][] | null),
  fields: [{ name: "vendors", type: () => [Vendor], nullable: true, shape: list }],
});

const FUNDING = findingsList<Funding>({
  alias: "ifu",
  columns: columnsOf(Funding),
  source: (q) => `funding ifu WHERE ifu.${owner(q)} = ${q.record}.id`,
  orderBy: "ifu.fiscal_year DESC NULLS LAST, ifu.source, ifu.id",
});

export const fundingBlock = defineBlock({
  name: "funding",
  kinds: ["district", "school"],
  gated: true,
  sql: blockSql(FUNDING),
  decode: (json) => FUNDING.decode.all(json as unknown[][] | null),
  fields: [
    {
      name: "funding",
      type: () => [Funding],
      nullable: true,
      shape: list,
    },
  ],
});

const CONTRACTS = findingsList<Contract>({
  alias: "ico",
  columns: columnsOf(Contract).map((c) => (c.property === "vendor_name" ? { ...c, sql: "icv.name" } : c)),
  source: (q) => `contracts ico LEFT JOIN vendors icv ON icv.id = ico.vendor_id WHERE ico.${owner(q)} = ${q.record}.id`,
  orderBy: "ico.expires_on NULLS LAST, ico.id",
});

export const contractsBlock = defineBlock({
  name: "contracts",
  kinds: ["district", "school"],
  gated: true,
  sql: blockSql(CONTRACTS),
  decode: (json) => CONTRACTS.decode.all(json as unknown[][] | null),
  fields: [
    {
      name: "contracts",
      type: () => [Contract],
      nullable: true,
      shape: list,
    },
  ],
});

const FILING_COLUMNS = columnsOf(BidFiling);
const decodeFiling = rowDecoder<BidFiling>(FILING_COLUMNS).one;

const BIDS = findingsList<Bid>({
  alias: "ibi",
  columns: [
    { property: "id", kind: "uuid" },
    { property: "data_source", kind: "string" },
    { property: "title", kind: "string" },
    { property: "status", kind: "string", sql: BID_STATUS_SQL("ibi") },
    { property: "posted_on", kind: "date" },
    { property: "deadline_at", kind: "datetime" },
    { property: "url", kind: "string" },
    // The caller's organization's own filing of the bid, else null.
    {
      property: "filing",
      kind: "other",
      sql: `CASE WHEN ibf.id IS NULL THEN NULL ELSE ${jsonArraySql("ibf", FILING_COLUMNS)} END`,
      decode: decodeFiling,
    },
  ],
  source: (q) => `bids ibi LEFT JOIN bid_filings ibf ON ibf.bid_id = ibi.id AND ibf.organization_id = ${q.org()}
        WHERE ibi.${owner(q)} = ${q.record}.id`,
  orderBy: "ibi.posted_on DESC NULLS LAST, ibi.id",
});

export const bidsBlock = defineBlock({
  name: "bids",
  kinds: ["district", "school"],
  gated: true,
  sql: blockSql(BIDS),
  decode: (json) => BIDS.decode.all(json as unknown[][] | null),
  fields: [
    {
      name: "bids",
      type: () => [Bid],
      nullable: true,
      shape: list,
    },
  ],
});

// ---------------------------------------------------------------------------------------------------
// The lists beyond the API: a brief's dossier

const FINDINGS = { pain_points: PAIN_POINTS, vendors: VENDORS, funding: FUNDING, contracts: CONTRACTS, bids: BIDS };

export type FindingsName = keyof typeof FINDINGS;
export const FINDINGS_NAMES = Object.keys(FINDINGS) as FindingsName[];

/** A record's five lists as the blocks serve them, each row with its Provenance. */
export interface Findings {
  pain_points: (PainPoint & Provenance)[];
  vendors: (Vendor & Provenance)[];
  funding: (Funding & Provenance)[];
  contracts: (Contract & Provenance)[];
  bids: (Bid & Provenance)[];
}

/**
 * SQL select list: the five lists of the record `q.record`, each a column named by the list (pain_points,
 * vendors ...): the block's rows in the block's order, at most `limit`, with their Provenance.
 */
export function findingsSql(q: BlockSqlContext, limit: number): string {
  return FINDINGS_NAMES.map((name) => {
    const spec = FINDINGS[name] as FindingsList<unknown>;
    const columns = [...spec.columns, ...provenanceColumns(spec, q)];
    return `${jsonRowsSql(spec.alias, columns, spec.source(q), spec.orderBy, limit)} AS ${name}`;
  }).join(",\n       ");
}

/** A row of `findingsSql` -> the lists (an empty list for none). */
export function decodeFindings(row: Record<FindingsName, unknown>): Findings {
  return Object.fromEntries(
    FINDINGS_NAMES.map((name) => [
      name,
      (FINDINGS[name] as FindingsList<unknown>).decodeWithProvenance.all(row[name] as unknown[][] | null),
    ]),
  ) as unknown as Findings;
}
