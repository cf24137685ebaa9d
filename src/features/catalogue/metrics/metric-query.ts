/**
 * The metric query (api-contract §8): parse and validate the `metric_query` JSON string, then compile it to
 * SQL expressions correlated to the district/school row of the list query. Filtering and sorting happen in
 * that SQL; every user value goes through SqlParams and every identifier comes from the catalogue.
 */
import { ident, type SqlParams } from "../../../db/sql";
import { BadRequestError } from "../../../graphql/errors";
import type { Notice } from "../../../graphql/notices";
import { findMetric, type MetricDef, type MetricEntity } from "./metrics.catalog";

export const METRIC_QUERY_MAX_LENGTH = 16_000;
/** Bounds the size of the generated SQL; far above what a list screen needs. */
export const METRIC_QUERY_MAX_ITEMS = 50;

export const FILTER_OPS = ["eq", "neq", "gt", "gte", "lt", "lte", "between", "is_null", "not_null"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];
type ComparisonOp = Exclude<FilterOp, "between" | "is_null" | "not_null">;
/** The `value` each operator takes: one number, `[lo, hi]`, or none at all. */
export const FILTER_OP_VALUES: Readonly<Record<FilterOp, "number" | "range" | "none">> = {
  eq: "number",
  neq: "number",
  gt: "number",
  gte: "number",
  lt: "number",
  lte: "number",
  between: "range",
  is_null: "none",
  not_null: "none",
};
export const CHANGE_KINDS = ["absolute", "percent"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Which value of a metric a select, filter or sort refers to. */
export type MetricPoint = { at: "latest" } | { at: "year"; year: number } | { at: "change"; from: number; to: number; kind: ChangeKind };

export interface MetricRef {
  metric: string;
  point: MetricPoint;
}
export interface MetricSelect extends MetricRef {
  as: string;
}
export type MetricFilter = MetricRef &
  ({ op: ComparisonOp; value: number } | { op: "between"; value: [number, number] } | { op: "is_null" | "not_null" });
export interface MetricSort extends MetricRef {
  direction: SortDirection;
}
export interface MetricQuery {
  select: MetricSelect[];
  filters: MetricFilter[];
  sort: MetricSort | null;
}

export interface CompiledMetricSelect {
  /** The key in `metric_values`. */
  as: string;
  /** A scalar SQL expression correlated to the entity row. */
  sql: string;
  /** A collision-free column alias for `sql` in the list query's select list (`as` may clash with d.*). */
  column: string;
}
export interface CompiledMetricQuery {
  selects: CompiledMetricSelect[];
  /** Conditions to AND with the list's other conditions. */
  where: string[];
  /** `<expr> ASC|DESC NULLS LAST`; the caller appends its own id tie-breaker. */
  orderBy: string | null;
  /** Some point reads a year other than the latest through a history gate: values may be withheld. */
  historyGated: boolean;
}

/**
 * History gating of a compiled query (see valueSql): a boolean SQL expression on the record, null when
 * history is open for every record, or a function returning either, called only when a point needs it
 * (so its parameters are bound only when the SQL uses them).
 */
export type HistoryGate = string | null | (() => string | null);

// ---------------------------------------------------------------------------------------------- parsing

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
// Four-digit years keep the value inside int4; a year no record has is still valid (every value null).
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

/** The keys each part of a metric query takes: the grammar the parser checks (and test/support/fuzz derives queries from). */
export const METRIC_QUERY_KEYS = {
  query: ["select", "filters", "sort"],
  select: ["metric", "year", "change", "as"],
  filter: ["metric", "year", "change", "op", "value"],
  sort: ["metric", "year", "change", "direction"],
  change: ["from", "to", "kind"],
} as const;

type Json = unknown;
type JsonObject = Record<string, Json>;

function fail(problem: string): never {
  throw new BadRequestError(`metric_query: ${problem}`);
}

/** A user value, quoted and shortened, for error messages. */
function show(value: Json): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describe(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${show(value)}`;
}

function isObject(value: Json): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function expectObject(value: Json, path: string, keys: readonly string[]): JsonObject {
  if (!isObject(value)) fail(`${path} must be an object, got ${describe(value)}`);
  const unknown = Object.keys(value).filter((key) => !keys.includes(key));
  if (unknown.length)
    fail(`${path} has unknown key${unknown.length > 1 ? "s" : ""} ${unknown.map(show).join(", ")}; allowed: ${keys.join(", ")}`);
  return value;
}

function expectArray(value: Json, path: string): Json[] {
  if (!Array.isArray(value)) fail(`${path} must be an array, got ${describe(value)}`);
  if (value.length > METRIC_QUERY_MAX_ITEMS) fail(`${path} has ${value.length} items; at most ${METRIC_QUERY_MAX_ITEMS} are allowed`);
  return value;
}

function expectOneOf<T extends string>(value: Json, path: string, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    fail(`${path} ${show(value)} is not one of ${allowed.join(", ")}`);
  }
  return value as T;
}

function expectNumber(value: Json, path: string): number {
  // JSON has no NaN/Infinity, but 1e999 parses to Infinity.
  if (typeof value !== "number" || !Number.isFinite(value)) fail(`${path} must be a finite number, got ${describe(value)}`);
  return value;
}

function expectYear(value: Json, path: string): number {
  if (value === undefined) fail(`${path} is required (a school_year_start integer)`);
  if (typeof value !== "number" || !Number.isInteger(value)) fail(`${path} must be an integer school year, got ${describe(value)}`);
  if (value < MIN_YEAR || value > MAX_YEAR) fail(`${path} ${value} is not a four-digit school year`);
  return value;
}

function parseMetricName(entity: MetricEntity, value: Json, path: string): string {
  if (value === undefined) fail(`${path} is required`);
  if (typeof value !== "string") fail(`${path} must be a string, got ${describe(value)}`);
  if (!findMetric(entity, value)) {
    fail(`${path} ${show(value)} is not a ${entity} metric; GET /metrics?entity_type=${entity} lists the allowed metrics`);
  }
  return value;
}

/** `metric` plus an optional `year` or `change` (not both) of a select, filter or sort item. */
function parseMetricRef(entity: MetricEntity, item: JsonObject, path: string): MetricRef {
  const metric = parseMetricName(entity, item.metric, `${path}.metric`);
  if (item.year !== undefined && item.change !== undefined) fail(`${path} has both "year" and "change"; give one of them`);
  if (item.change !== undefined) {
    const change = expectObject(item.change, `${path}.change`, METRIC_QUERY_KEYS.change);
    const from = expectYear(change.from, `${path}.change.from`);
    const to = expectYear(change.to, `${path}.change.to`);
    if (change.kind === undefined) fail(`${path}.change.kind is required (one of ${CHANGE_KINDS.join(", ")})`);
    const kind = expectOneOf(change.kind, `${path}.change.kind`, CHANGE_KINDS);
    return { metric, point: { at: "change", from, to, kind } };
  }
  if (item.year === undefined || item.year === "latest") return { metric, point: { at: "latest" } };
  if (typeof item.year === "string") fail(`${path}.year ${show(item.year)} must be "latest" or an integer school year`);
  return { metric, point: { at: "year", year: expectYear(item.year, `${path}.year`) } };
}

function parseSelect(entity: MetricEntity, value: Json): MetricSelect[] {
  const seen = new Set<string>();
  return expectArray(value, "select").map((raw, i) => {
    const path = `select[${i}]`;
    const item = expectObject(raw, path, METRIC_QUERY_KEYS.select);
    const ref = parseMetricRef(entity, item, path);
    if (item.as !== undefined && (typeof item.as !== "string" || !IDENTIFIER.test(item.as))) {
      fail(
        `${path}.as ${show(item.as)} must be a simple identifier (letters, digits, _; not starting with a digit; at most 63 characters)`,
      );
    }
    const as = (item.as as string | undefined) ?? ref.metric;
    if (seen.has(as)) fail(`${path}.as ${show(as)} is already used by an earlier select item; give each item a distinct "as"`);
    seen.add(as);
    return { ...ref, as };
  });
}

function parseFilters(entity: MetricEntity, value: Json): MetricFilter[] {
  return expectArray(value, "filters").map((raw, i): MetricFilter => {
    const path = `filters[${i}]`;
    const item = expectObject(raw, path, METRIC_QUERY_KEYS.filter);
    const ref = parseMetricRef(entity, item, path);
    if (item.op === undefined) fail(`${path}.op is required (one of ${FILTER_OPS.join(", ")})`);
    const op = expectOneOf(item.op, `${path}.op`, FILTER_OPS);
    switch (FILTER_OP_VALUES[op]) {
      case "none":
        if (item.value !== undefined) fail(`${path}.value is not allowed with op "${op}"`);
        return { ...ref, op } as MetricFilter;
      case "range": {
        if (!Array.isArray(item.value) || item.value.length !== 2) {
          fail(`${path}.value must be [lo, hi] (two numbers) for op "${op}", got ${describe(item.value)}`);
        }
        const lo = expectNumber(item.value[0], `${path}.value[0]`);
        const hi = expectNumber(item.value[1], `${path}.value[1]`);
        if (lo > hi) fail(`${path}.value [${lo}, ${hi}] has lo greater than hi`);
        return { ...ref, op, value: [lo, hi] } as MetricFilter;
      }
      case "number":
        if (item.value === undefined) fail(`${path}.value is required for op "${op}"`);
        return { ...ref, op, value: expectNumber(item.value, `${path}.value`) } as MetricFilter;
    }
  });
}

function parseSort(entity: MetricEntity, value: Json): MetricSort {
  const item = expectObject(value, "sort", METRIC_QUERY_KEYS.sort);
  const ref = parseMetricRef(entity, item, "sort");
  const direction = item.direction === undefined ? "asc" : expectOneOf(item.direction, "sort.direction", SORT_DIRECTIONS);
  return { ...ref, direction };
}

/** Validates a `metric_query` string; throws BadRequestError (`metric_query: ...`) naming the problem and its path. */
export function parseMetricQuery(entity: MetricEntity, raw: string): MetricQuery {
  // Code points, not UTF-16 units; only counted when the cheap upper bound is exceeded.
  if (raw.length > METRIC_QUERY_MAX_LENGTH) {
    const length = [...raw].length;
    if (length > METRIC_QUERY_MAX_LENGTH) fail(`is ${length} characters long; at most ${METRIC_QUERY_MAX_LENGTH} are allowed`);
  }
  let parsed: Json;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    fail(`is not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(parsed)) fail(`must be a JSON object with "select", "filters" and/or "sort", got ${describe(parsed)}`);
  const query = expectObject(parsed, "the query", METRIC_QUERY_KEYS.query);
  return {
    select: query.select === undefined ? [] : parseSelect(entity, query.select),
    filters: query.filters === undefined ? [] : parseFilters(entity, query.filters),
    sort: query.sort === undefined || query.sort === null ? null : parseSort(entity, query.sort),
  };
}

// ------------------------------------------------------------------------------------------------- cost

/**
 * Records a filter or sort point is assumed to be evaluated for: they run for every record the list's
 * plain filters leave (the whole table without them), which the cost analysis cannot know before running.
 */
export const METRIC_SCAN_ROWS = 10_000;

/**
 * The work of a metric query, in the cost limit's units (src/graphql/limits.ts `argumentCost`; docs/limits.md):
 * each point is one index lookup per record (`change`: two), a select's for each record of the page
 * (`limit`), a filter's and the sort's for METRIC_SCAN_ROWS records. Counted from the JSON's shape alone; a
 * query that does not parse, or one parseMetricQuery refuses for its size, costs 0 here and is refused there.
 */
export function metricQueryCost(raw: unknown, limit: number): number {
  if (typeof raw !== "string" || raw.length > METRIC_QUERY_MAX_LENGTH * 2) return 0;
  let query: Json;
  try {
    query = JSON.parse(raw);
  } catch {
    return 0;
  }
  if (!isObject(query)) return 0;
  const lookups = (item: Json): number => (isObject(item) && item.change !== undefined ? 2 : 1);
  const items = (list: Json): Json[] | null =>
    list === undefined ? [] : Array.isArray(list) && list.length <= METRIC_QUERY_MAX_ITEMS ? list : null;
  const [select, filters] = [items(query.select), items(query.filters)];
  if (!select || !filters) return 0;
  const sort = query.sort === undefined || query.sort === null ? 0 : lookups(query.sort);
  const perPage = select.reduce((n: number, item) => n + lookups(item), 0);
  const perScan = filters.reduce((n: number, item) => n + lookups(item), sort);
  return perPage * limit + perScan * METRIC_SCAN_ROWS;
}

// -------------------------------------------------------------------------------------------- compiling

const COMPARISON_SQL: Record<ComparisonOp, string> = { eq: "=", neq: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };

function metricDef(entity: MetricEntity, metric: string): MetricDef {
  const def = findMetric(entity, metric);
  // parseMetricQuery already rejected unknown metrics; this guards queries built in code.
  if (!def) fail(`"${metric}" is not a ${entity} metric; GET /metrics?entity_type=${entity} lists the allowed metrics`);
  return def;
}

/**
 * One record's value of `def` as a zero-or-one-row source `SELECT <col> AS v, <year> AS y ...`: in the
 * school year `yearParam`, or (null) in the record's own latest year that has the metric, a backward scan
 * of the (entity, year) index that stops at the first non-null value.
 */
function valueRow(def: MetricDef, entityRef: string, yearParam: string | null): string {
  const [col, year] = [`m.${ident(def.column)}`, `m.${ident(def.yearColumn)}`];
  const where = [
    `m.${ident(def.entityColumn)} = ${entityRef}`,
    ...(yearParam ? [`${year} = ${yearParam}::int`] : []),
    `${col} IS NOT NULL`,
  ];
  // Annual rows are unique per (entity, year); assessments have one row per source and year, and the most
  // recently loaded source that reports the metric wins.
  const order = [...(yearParam ? [] : [`${year} DESC`]), ...(def.source === "assessment" ? [`m."loaded_at" DESC`, `m."source_id"`] : [])];
  const pick = order.length ? ` ORDER BY ${order.join(", ")} LIMIT 1` : "";
  return `SELECT ${col} AS v, ${year} AS y FROM ${ident(def.table)} m WHERE ${where.join(" AND ")}${pick}`;
}

/**
 * A scalar SQL expression for the point of a metric of the record `alias`; NULL when it has no value.
 * `historyOpen` (a boolean SQL expression on the record, or null when history is open for every record)
 * applies history gating (contract section 4): where it is false the record shows only its latest year
 * of the metric, so another year reads as NULL unless it is that latest year, and a change reads as NULL.
 */
function valueSql(
  entity: MetricEntity,
  ref: MetricRef,
  yearParam: (year: number) => string,
  alias: string,
  historyOpen: () => string | null,
): string {
  const def = metricDef(entity, ref.metric);
  const entityRef = `${alias}."id"`;
  const point = ref.point;
  switch (point.at) {
    case "latest":
      return `(SELECT l.v FROM (${valueRow(def, entityRef, null)}) l)`;
    case "year": {
      const exact = `(SELECT e.v FROM (${valueRow(def, entityRef, yearParam(point.year))}) e)`;
      const open = historyOpen();
      if (open === null) return exact;
      const latestOnly = `(SELECT l.v FROM (${valueRow(def, entityRef, null)}) l WHERE l.y = ${yearParam(point.year)}::int)`;
      return `(CASE WHEN ${open} THEN ${exact} ELSE ${latestOnly} END)`;
    }
    case "change": {
      // Both endpoints as one-row sources: a missing endpoint yields no row, hence NULL.
      const to = valueRow(def, entityRef, yearParam(point.to));
      const from = valueRow(def, entityRef, yearParam(point.from));
      const delta = point.kind === "absolute" ? "t.v - f.v" : "(t.v::float8 - f.v) / NULLIF(f.v, 0)::float8 * 100";
      const change = `(SELECT ${delta} FROM (${to}) t CROSS JOIN (${from}) f)`;
      const open = historyOpen();
      return open === null ? change : `(CASE WHEN ${open} THEN ${change} END)`;
    }
  }
}

function filterSql(value: string, filter: MetricFilter, params: SqlParams): string {
  // A NULL value makes every comparison NULL, so it fails them all; only is_null matches it.
  switch (filter.op) {
    case "is_null":
      return `${value} IS NULL`;
    case "not_null":
      return `${value} IS NOT NULL`;
    case "between":
      return `${value} BETWEEN ${params.add(filter.value[0])}::float8 AND ${params.add(filter.value[1])}::float8`;
    default:
      // float8 parameters so a fractional bound on an integer metric is not a type error.
      return `${value} ${COMPARISON_SQL[filter.op]} ${params.add(filter.value)}::float8`;
  }
}

/**
 * Compiles a parsed metric query into SQL fragments for `SELECT ... FROM <entity table> <alias> WHERE ...
 * ORDER BY ...`. The expressions are correlated scalar subqueries on `<alias>."id"` that hit the unique
 * (entity_id, school_year_start) indexes; their parameters are appended to `params`. `historyOpen`: see
 * valueSql; selects, filters and sorts all read the gated values, so no filter can reveal a hidden year.
 */
export function compileMetricQuery(
  entity: MetricEntity,
  query: MetricQuery,
  params: SqlParams,
  alias: string,
  historyOpen: HistoryGate = null,
): CompiledMetricQuery {
  if (!IDENTIFIER.test(alias)) throw new Error(`compileMetricQuery: alias ${JSON.stringify(alias)} is not a simple identifier`);
  // The gate's SQL (and any parameter it binds) is built on first use only: a parameter bound but never
  // referenced has no type PostgreSQL can infer ("could not determine data type of parameter $n"), which
  // made every latest-only query of a free plan fail (issue 20 point 3).
  let gate: { sql: string | null } | undefined;
  const gateSql = (): string | null => {
    gate ??= { sql: typeof historyOpen === "function" ? historyOpen() : historyOpen };
    return gate.sql;
  };
  // One placeholder per distinct year: the sort then repeats a select's SQL text exactly, and PostgreSQL
  // matches an ORDER BY expression equal to a select-list expression to that column instead of recomputing it.
  const yearParams = new Map<number, string>();
  const yearParam = (year: number): string => {
    if (!yearParams.has(year)) yearParams.set(year, params.add(year));
    return yearParams.get(year) as string;
  };
  const value = (ref: MetricRef) => valueSql(entity, ref, yearParam, alias, gateSql);
  const selects = query.select.map((select, i) => ({ as: select.as, sql: value(select), column: `__metric_${i}` }));
  const where = query.filters.map((filter) => filterSql(value(filter), filter, params));
  const orderBy = query.sort ? `${value(query.sort)} ${query.sort.direction === "asc" ? "ASC" : "DESC"} NULLS LAST` : null;
  return { selects, where, orderBy, historyGated: gate?.sql != null };
}

/** The school years a query's `year` and `change` points read (those history gating may withhold), ascending. */
export function gatedYears(query: MetricQuery): number[] {
  const years = new Set<number>();
  for (const ref of [...query.select, ...query.filters, ...(query.sort ? [query.sort] : [])]) {
    if (ref.point.at === "year") years.add(ref.point.year);
    if (ref.point.at === "change") years.add(ref.point.from).add(ref.point.to);
  }
  return [...years].sort((a, b) => a - b);
}

/**
 * Why a free organization's metric query may answer fewer rows or null values (issue 20 point 12): the
 * notice `history_gated`, added whenever a point went through the history gate (CompiledMetricQuery.historyGated).
 * `reader`: what read the years, as the caller wrote it (a summary's `year`, too, reads through the same gate).
 */
export function historyGatedNotice(entity: MetricEntity, query: MetricQuery, reader = "metric_query"): Notice {
  const years = gatedYears(query);
  return {
    code: "history_gated",
    message:
      `${reader} reads school year${years.length > 1 ? "s" : ""} ${years.join(", ")}: on the free plan a ${entity} you do not ` +
      `follow shows only each metric's latest year, so other years and changes read as null for it (filters on them match ` +
      `only is_null, sorts on them do not order). Follow the ${entity} (POST /follows) to see its whole history, or upgrade ` +
      `to a paid plan.`,
  };
}

/** `metric_values` of one result row, read from the columns the list query selected as `select.column`. */
export function metricValuesFromRow(
  selects: readonly Pick<CompiledMetricSelect, "as" | "column">[],
  row: Record<string, unknown>,
): Record<string, number | null> {
  const values: Record<string, number | null> = {};
  for (const select of selects) {
    const value = row[select.column];
    values[select.as] = value === null || value === undefined ? null : Number(value);
  }
  return values;
}
