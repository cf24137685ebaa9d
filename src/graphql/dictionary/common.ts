/**
 * Shared wording of the field dictionary: sources, conventions and the entries many types repeat
 * (pages, list arguments, addresses, record bookkeeping). See dictionary.ts for the key format.
 */
import { TYPE, type Dictionary } from "./dictionary";

export const SOURCES = {
  ccdDirectory: "Source: NCES CCD LEA directory 2023-24 (file 029, preliminary v0a).",
  schoolSearch: "Source: NCES CCD School/District Search export (CA, FL, MI, WA; 2023-24 directory, 2022-23 counts).",
  elsi: "Source: NCES CCD via ELSI exports, school years 2019-20 to 2023-24.",
  saipe: "Source: Census SAIPE school district estimates (income year Y stored under school year Y).",
  f33: "Source: Census F-33 school finance (fiscal year N stored under school year N-1), via NCES ELSI (FY2020, FY2021) or the Urban Institute Education Data Portal (Tennessee FY2018).",
  headStart: "Source: HHS Office of Head Start Program Information Report (PIR) 2019, 2021, 2022.",
  childcare: "Source: state childcare licensing rosters (Nebraska DHHS, Feb 2026; Indiana FSSA, Mar 2022).",
  irs: "Source: IRS Exempt Organizations Business Master File (EO BMF, Apr 2026).",
  demo: "Demo data: written by the demo layer (data_source demo), not from a real source.",
  extraction: "Written by the extraction pipeline (docs/extraction.md); demo rows for the demo layer's completed records.",
} as const;

export const USD = "USD, nominal (not adjusted for inflation).";
export const SCHOOL_YEAR = "School year as the fall year it starts in (school_year_start): 2023 is 2023-24.";
export const UNLOCK_GATED = "Gated: null until the caller's organization unlocks this district or school (6 credits; contract section 4).";
export const NOT_LOADED =
  "No file loaded by this service fills it yet (the national CCD staff and F-33 files are not included; data/README.md), so it is null unless another source writes it.";

/**
 * Every mutation's `idempotencyKey` argument (src/graphql/idempotency.ts): REST's Idempotency-Key header and MCP's
 * idempotency_key argument are described by it too.
 */
export const IDEMPOTENCY_KEY =
  "Idempotency-Key: 1-255 visible ASCII characters naming this request, scoped to the caller's organization. The same key with the same request within 24 hours answers the first result again (same status and body) without running the operation again; with another request, or while the first request with the key still runs, it is refused (409 conflict; GraphQL CONFLICT). A request that failed stores nothing: its key may be used again.";

/** `(type)`, `data` and `pagination` of a list page type. */
export function page(items: string, rest: string): Record<string, string> {
  return {
    [TYPE]: `A page of ${items} (${rest}): the page's records and its pagination.`,
    data: `The ${items} of this page, in the requested order.`,
    pagination: "Total over the whole result set, and the page's limit and offset.",
  };
}

/** Descriptions of a list field's paging and sort arguments (`limit` is described where it is declared). */
export function listArgs(field: string, items: string, opts: { filter?: boolean; defaultOrder: string }): Record<string, string> {
  return {
    ...(opts.filter === false ? {} : { [`${field}(filter)`]: `Which ${items} to return; every given condition must hold (omitted: all).` }),
    [`${field}(orderBy)`]: `Sort column (default ${opts.defaultOrder}); nulls last, ties broken by ascending id.`,
    [`${field}(orderAscending)`]: "true (default): ascending; false: descending.",
    [`${field}(offset)`]: "Records to skip before the page, 0 or more (default 0).",
  };
}

/** An order-by enum's type description and one line per column. */
export function orderEnum(items: string, columns: Record<string, string>): Record<string, string> {
  return { [TYPE]: `Sort columns of ${items} (orderBy / order_by).`, ...columns };
}

export const ADDRESS = (source: string): Record<string, string> => ({
  physicalAddress: `Street address of the location (street lines joined). ${source}`,
  physicalCity: `City of the location. ${source}`,
  physicalZip: `5-digit ZIP code of the location. ${source}`,
});

/** A list field's `limit` argument: the page size, its default and maximum (contract section 1: out of range is a 400, never clamped). */
export const limitArg = (max: number, defaultLimit = 50): string =>
  `Page size: how many records to return, 1 to ${max.toLocaleString("en-US")} (default ${defaultLimit}). A value out of range is refused (400 bad_request; GraphQL BAD_USER_INPUT), never clamped.`;

/** The `listId` style filters: lists are private to an organization and hold one entity type. */
export const LIST_FILTER = (what: string): string =>
  `Another organization's list or an unknown id is a 404 not_found; a list that holds other than ${what} is a 400.`;

export const METRIC_QUERY =
  "Metric query JSON (contract section 8), at most 16,000 characters. Its lookups count in the query cost (docs/limits.md). " +
  "On the free plan, years history gating withholds read as null and the answer carries a history_gated notice (docs/metric-query.md).";

export const RECORD_TIMES = (what: string): Record<string, string> => ({
  id: `Our stable id of the ${what} (UUID); use it in the API's paths and filters.`,
  createdAt: `When the ${what} record was first stored here (UTC).`,
});

export const commonDictionary: Dictionary = {
  Query: {
    [TYPE]:
      "Read operations. Every query needs an API key (Authorization: Bearer); gated fields follow the caller's organization's unlocks and plan, and every request passes the cost and depth limits (docs/limits.md).",
  },
  Mutation: {
    [TYPE]: "Write operations of the caller's organization (lists, projects, follows, unlocks; school edits on the internal plan).",
  },
  Pagination: {
    [TYPE]: "Paging of a list response (every list has one).",
    total: "How many records match the filters over all pages.",
    limit: "The page size used (the limit argument or its default).",
    offset: "Records skipped before this page.",
    hasMore: "true when records follow this page (offset + limit < total).",
  },
  Access: {
    [TYPE]: "What the caller's organization may see of a gated record, and what unlocking costs.",
    isUnlocked: "true when the caller's organization has unlocked the record (its gated fields are filled).",
    isUnlocking:
      "true while an unlock of the caller's organization is pending (credits held, extraction or enrichment running), a re-extraction of an unlocked record included; unlock-status then says unlock_pending.",
    unlockedAt: "When the caller's organization's unlock completed (UTC); null while locked.",
    creditsSpent: "Credits the caller's organization has been charged for this record (0 while locked).",
    unlockCost: "Credits one unlock of this record costs (districts and schools 6, contacts 2).",
  },
  AccessSummary: {
    [TYPE]:
      "Access over a whole result set (not the page): how many results are unlocked, how many locked ones would unlock instantly (processed) or after processing (unprocessed), and what unlocking every locked one costs.",
    totalResults: "Results over the whole result set (equals pagination.total).",
    unlocked: "Results the caller's organization has unlocked.",
    lockedProcessed: "Locked results that would unlock instantly (already processed).",
    lockedUnprocessed: "Locked results whose unlock would be pending until processing runs.",
    unlockAllCost: "Credits to unlock every locked result (cost per record × locked results).",
  },
  PipelineStatus: {
    [TYPE]: "State of the extraction pipeline for a district or school.",
    pending: "Not processed by the extraction pipeline yet.",
    processing: "An extraction run is under way.",
    completed: "Extraction finished; extracted intelligence and contacts exist.",
    error: "The last extraction run failed (error_message says why).",
  },
  LocaleBucket: {
    [TYPE]: "NCES locale bucket (locale code 1x city, 2x suburb, 3x town, 4x rural).",
    city: "NCES locale codes 11-13 (city).",
    suburban: "NCES locale codes 21-23 (suburb).",
    town: "NCES locale codes 31-33 (town).",
    rural: "NCES locale codes 41-43 (rural).",
  },
  UUID: {
    [TYPE]:
      "A UUID (RFC 4122), e.g. 0b4c1f0e-3d2a-4c55-9a57-6f1c2d3e4f50. Accepted in any letter case (and in braces); always returned in lower case.",
  },
  DateTimeISO: {
    [TYPE]:
      "A point in time: an RFC 3339 / ISO 8601 date-time in UTC with milliseconds, e.g. 2024-05-01T12:30:00.000Z (contract section 9).",
  },
  Date: {
    [TYPE]: "A calendar date, YYYY-MM-DD (no time, no time zone).",
  },
  JSON: {
    [TYPE]: "Any JSON value (ECMA-404), served as stored: an object for the free-form fields (key_facts, source_urls, icp ...).",
  },
  GradeLevel: {
    [TYPE]: "Grade buckets derived from a grade span: pre_k PK; elementary KG-05; middle 06-08; high 09-13.",
    pre_k: "Pre-kindergarten (PK).",
    elementary: "Kindergarten to grade 5 (KG-05).",
    middle: "Grades 6 to 8.",
    high: "Grades 9 to 13.",
  },
};
