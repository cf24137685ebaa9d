/**
 * The five intelligence lists of districts and schools (contract section 4): gated, so they are read
 * only for records the caller's organization unlocked and are null for the others. Each holds the
 * record's own rows (district_id or school_id).
 */
import { columnsOf } from "../../../graphql/fields";
import { defineBlock, type BlockSqlContext } from "../../kits/blocks/block";
import { ENTITY_SQL } from "../../kits/common/entity-kind";
import { jsonArraySql, jsonRowsSql, rowDecoder, type JsonColumn } from "../../kits/common/json-rows";
import { BID_STATUS_SQL } from "./intelligence.service";
import { Bid, BidFiling, Contract, Funding, PainPoint, Vendor } from "./intelligence.type";

const owner = ({ kind }: BlockSqlContext): string => ENTITY_SQL[kind].ownerColumn;
const list = <T>(rows: T[]): T[] => rows;

const PAIN_POINT_COLUMNS = columnsOf(PainPoint);
const decodePainPoints = rowDecoder<PainPoint>(PAIN_POINT_COLUMNS).all;

export const painPointsBlock = defineBlock({
  name: "pain_points",
  kinds: ["district", "school"],
  gated: true,
  sql: (q) =>
    jsonRowsSql(
      "ipp",
      PAIN_POINT_COLUMNS,
      `pain_points ipp WHERE ipp.${owner(q)} = ${q.record}.id`,
      "ipp.detected_at DESC NULLS LAST, ipp.id",
    ),
  decode: (json) => decodePainPoints(json as unknown[][] | null),
  fields: [
    {
      name: "painPoints",
      type: () => [PainPoint],
      nullable: true,
      shape: list,
    },
  ],
});

const VENDOR_COLUMNS = columnsOf(Vendor);
const decodeVendors = rowDecoder<Vendor>(VENDOR_COLUMNS).all;

export const vendorsBlock = defineBlock({
  name: "vendors",
  kinds: ["district", "school"],
  gated: true,
  // Each vendor once, however many entity_vendors rows name it.
  sql: (q) =>
    jsonRowsSql(
      "ive",
      VENDOR_COLUMNS,
      `vendors ive WHERE ive.id IN (SELECT iev.vendor_id FROM entity_vendors iev WHERE iev.${owner(q)} = ${q.record}.id)`,
      "ive.name, ive.id",
    ),
  decode: (json) => decodeVendors(json as unknown[][] | null),
  fields: [{ name: "vendors", type: () => [Vendor], nullable: true, shape: list }],
});

const FUNDING_COLUMNS = columnsOf(Funding);
const decodeFunding = rowDecoder<Funding>(FUNDING_COLUMNS).all;

export const fundingBlock = defineBlock({
  name: "funding",
  kinds: ["district", "school"],
  gated: true,
  sql: (q) =>
    jsonRowsSql(
      "ifu",
      FUNDING_COLUMNS,
      `funding ifu WHERE ifu.${owner(q)} = ${q.record}.id`,
      "ifu.fiscal_year DESC NULLS LAST, ifu.source, ifu.id",
    ),
  decode: (json) => decodeFunding(json as unknown[][] | null),
  fields: [
    {
      name: "funding",
      type: () => [Funding],
      nullable: true,
      shape: list,
    },
  ],
});

const CONTRACT_COLUMNS: JsonColumn[] = columnsOf(Contract).map((c) => (c.property === "vendor_name" ? { ...c, sql: "icv.name" } : c));
const decodeContracts = rowDecoder<Contract>(CONTRACT_COLUMNS).all;

export const contractsBlock = defineBlock({
  name: "contracts",
  kinds: ["district", "school"],
  gated: true,
  sql: (q) =>
    jsonRowsSql(
      "ico",
      CONTRACT_COLUMNS,
      `contracts ico LEFT JOIN vendors icv ON icv.id = ico.vendor_id WHERE ico.${owner(q)} = ${q.record}.id`,
      "ico.expires_on NULLS LAST, ico.id",
    ),
  decode: (json) => decodeContracts(json as unknown[][] | null),
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
const BID_COLUMNS: JsonColumn[] = [
  { property: "id", kind: "uuid" },
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
];
const decodeBids = rowDecoder<Bid>(BID_COLUMNS).all;

export const bidsBlock = defineBlock({
  name: "bids",
  kinds: ["district", "school"],
  gated: true,
  sql: (q) =>
    jsonRowsSql(
      "ibi",
      BID_COLUMNS,
      `bids ibi LEFT JOIN bid_filings ibf ON ibf.bid_id = ibi.id AND ibf.organization_id = ${q.org()}
        WHERE ibi.${owner(q)} = ${q.record}.id`,
      "ibi.posted_on DESC NULLS LAST, ibi.id",
    ),
  decode: (json) => decodeBids(json as unknown[][] | null),
  fields: [
    {
      name: "bids",
      type: () => [Bid],
      nullable: true,
      shape: list,
    },
  ],
});
