/**
 * The list kit: everything a list resource (districts, schools, operators, Head Start programs,
 * childcare centers, and every later list) shares, so no resource writes its own copy.
 *
 * - `ListArgs(...)`: the list-argument type (filter, orderBy, orderAscending, limit, offset[, metricQuery]);
 * - `Page(Item, name)`: the page type `{ data: [Item!]!, pagination: Pagination! }`;
 * - `pageArgs`: limit and offset, checked against the resource's maximum;
 * - `sortClause`: the sort contract (nulls last in both directions, ties broken by ascending id);
 * - `compileFilter` and the value checks: a resource declares its filter with `defineList` (define-list.ts),
 *   whose declarations compile to the clauses run here;
 * - `pageSql` / `readPage`: one statement for a page and its total, the total included past the end
 *   (`tablePageSql`: the common case, a page of one table's rows).
 */
import DataLoader from "dataloader";
import { ArgsType, Extensions, Field, Int, ObjectType, type ClassType } from "type-graphql";
import type { SqlParams } from "../../../db/sql";
import { BadRequestError, echo, type AppError } from "../../../graphql/errors";
import type { Notice } from "../../../graphql/notices";
import { metricQueryCost } from "../../catalogue/metrics/metric-query";
import { Pagination, pagination } from "./common.type";

// ---------------------------------------------------------------------------------------------------
// Types: the page and the list arguments

/** A page of a list: what a list service returns and its GraphQL `Page(Item)` type describes. */
export interface PageOf<T> {
  data: T[];
  pagination: Pagination;
  /** Not a GraphQL field: the resolver adds them to the request's notices (src/graphql/notices.ts). */
  notices?: Notice[];
}

/** The GraphQL page type of `item`, named `name` (DistrictPage, SchoolPage ...). */
export function Page<T extends object>(item: ClassType<T>, name: string): ClassType<PageOf<T>> {
  @ObjectType(name)
  class PageType implements PageOf<T> {
    @Field(() => [item]) data: T[];
    @Field(() => Pagination) pagination: Pagination;
  }
  return PageType;
}

const DEFAULT_LIMIT = 50;

/** The arguments of every list: the sort, the paging, and (when the resource has them) its filter and metric query. */
export interface ListArgsOf<F, O extends string> {
  filter?: F | null;
  orderBy?: O | null;
  orderAscending?: boolean | null;
  limit?: number | null;
  offset?: number | null;
  metricQuery?: string | null;
}

export interface ListArgsOptions<F, O extends string> {
  /** The filter input type; none for a list without filters (District.schools). */
  filter?: ClassType<F & object>;
  /** The enum of sortable fields and the default. */
  orderBy: { type: object; default: O };
  maxLimit: number;
  defaultLimit?: number;
  /** Takes a metric query (districts, schools). */
  metricQuery?: boolean;
}

/** The GraphQL ArgsType of a list (use with `@Args(() => TheArgs)`). */
export function ListArgs<F, O extends string>(options: ListArgsOptions<F, O>): ClassType<ListArgsOf<F, O>> {
  class ListArgsType {}
  const field = (name: string, type: () => unknown, fieldOptions: Record<string, unknown> = {}) =>
    Field(type as never, { nullable: true, ...fieldOptions })(ListArgsType.prototype, name);
  if (options.filter) field("filter", () => options.filter);
  field("orderBy", () => options.orderBy.type, { defaultValue: options.orderBy.default });
  field("orderAscending", () => Boolean, { defaultValue: true });
  field("limit", () => Int, {
    defaultValue: options.defaultLimit ?? DEFAULT_LIMIT,
  });
  // The range pageArgs enforces, for the OpenAPI document (rest-adapter/openapi.ts reads `range`).
  Extensions({ range: { minimum: 1, maximum: options.maxLimit } })(ListArgsType.prototype, "limit");
  field("offset", () => Int, { defaultValue: 0 });
  Extensions({ range: { minimum: 0 } })(ListArgsType.prototype, "offset");
  if (options.metricQuery) {
    field("metricQuery", () => String);
    // Its lookups count in the query cost (src/graphql/limits.ts reads `argumentCost`).
    Extensions({ argumentCost: metricQueryCost })(ListArgsType.prototype, "metricQuery");
  }
  ArgsType()(ListArgsType);
  return ListArgsType as ClassType<ListArgsOf<F, O>>;
}

/** The arguments of a nested list that is not a page (Association.people ...): its `limit` alone. */
export interface LimitArgsOf {
  limit?: number | null;
}

/** The GraphQL ArgsType of a nested list's `limit` (default `defaultLimit`, 1 to `maxLimit`; checked by `checkLimit`). */
export function LimitArgs(options: { defaultLimit: number; maxLimit: number }): ClassType<LimitArgsOf> {
  class LimitArgsType {}
  Field(() => Int, {
    nullable: true,
    defaultValue: options.defaultLimit,
  })(LimitArgsType.prototype, "limit");
  Extensions({ range: { minimum: 1, maximum: options.maxLimit } })(LimitArgsType.prototype, "limit");
  ArgsType()(LimitArgsType);
  return LimitArgsType as ClassType<LimitArgsOf>;
}

/** A nested list's limit, checked like a page's (400 naming `limit`). */
export const checkLimit = (args: LimitArgsOf, maxLimit: number, defaultLimit: number): number =>
  pageArgs({ limit: args.limit }, maxLimit, defaultLimit).limit;

// ---------------------------------------------------------------------------------------------------
// Paging and sorting

/** The page asked for, checked: limit 1..maxLimit, offset >= 0 (400 otherwise). */
export function pageArgs(
  args: { limit?: number | null; offset?: number | null },
  maxLimit: number,
  defaultLimit = DEFAULT_LIMIT,
): { limit: number; offset: number } {
  const limit = args.limit ?? defaultLimit;
  const offset = args.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    throw new BadRequestError(`limit must be an integer from 1 to ${maxLimit}`);
  if (!Number.isInteger(offset) || offset < 0) throw new BadRequestError("offset must be an integer >= 0");
  return { limit, offset };
}

/**
 * The list sort contract (section 1): the chosen column, nulls last in both directions, ties broken by
 * ascending id so paging is stable. `column` comes from a feature's allowlist, never from the caller.
 */
export function sortClause(alias: string, column: string, ascending: boolean | null | undefined): string {
  return `${alias}.${column} ${ascending === false ? "DESC" : "ASC"} NULLS LAST, ${alias}.id ASC`;
}

// ---------------------------------------------------------------------------------------------------
// The statement: a page and its total

export interface PageSqlParts {
  /** Leading `WITH [RECURSIVE] ...` entries the rest may use, or none. */
  with?: string;
  /** FROM of the rows to filter and sort (with the aliases `where` and `order` use). */
  from: string;
  where: readonly string[];
  /** ORDER BY over `from`, ending with a unique tie-breaker (sortClause). */
  order: string;
  /** What the page keeps of each row: its key (`d.id AS __id`, joined back in `join`) or the whole row (`x.*`). */
  keep: string;
  /** Without filters: the total read more cheaply than by a window over every row (`(SELECT count(*) FROM districts)`). */
  countAll?: string;
  /** Placeholders of limit and offset. */
  limit: string;
  offset: string;
  /** Select list of the page's rows, over `page` and `join`'s aliases. */
  select: string;
  /** Joins from `page` to the rest of each row (`JOIN districts d ON d.id = page.__id ...`). */
  join?: string;
}

/**
 * One statement for a page and its total. The filter, count and sort run over narrow tuples (`keep`),
 * and only the page's rows are then read in full (`join`, `select`: columns computed per row, such as
 * blocks, run for the page only). Filtered, a window count reads the filtered set once for the count
 * and the page; unfiltered, `countAll`. Past the end no page row carries the total: one row of nulls
 * (`__position` null) comes back with the total counted then (the count runs only in that case).
 */
export function pageSql(parts: PageSqlParts): string {
  const where = parts.where.length ? `WHERE ${parts.where.join(" AND ")}` : "";
  const total = !parts.where.length && parts.countAll ? parts.countAll : "count(*) OVER ()";
  return `${parts.with ? `${parts.with},` : "WITH"} page AS MATERIALIZED (
      SELECT ranked.*, row_number() OVER () AS __position FROM (
        SELECT ${parts.keep}, ${total} AS __page_total
          FROM ${parts.from}
          ${where}
         ORDER BY ${parts.order}
         LIMIT ${parts.limit} OFFSET ${parts.offset}) ranked)
    SELECT coalesce(page.__page_total, (SELECT count(*) FROM ${parts.from} ${where})) AS __total, page.__position AS __position, ${parts.select}
      FROM (SELECT) AS one LEFT JOIN ${parts.join ? `(page ${parts.join})` : "page"} ON true
     ORDER BY page.__position`;
}

/**
 * pageSql over one table's rows (`table` as `alias`), the common list: the page keeps each row's id and
 * joins the table back on it; `sharedJoins` join both the filtered rows and the page's (an access join the
 * filter reads), `joins` the page's only. Unfiltered, the total is the table's count.
 */
export function tablePageSql(
  parts: Pick<PageSqlParts, "where" | "order" | "limit" | "offset" | "select"> & {
    table: string;
    alias: string;
    sharedJoins?: string;
    joins?: string;
  },
): string {
  const { table, alias: a, sharedJoins, joins, ...rest } = parts;
  const from = [`${table} ${a}`, sharedJoins].filter(Boolean).join(" ");
  return pageSql({
    ...rest,
    from,
    keep: `${a}.id AS __id`,
    countAll: `(SELECT count(*) FROM ${table})`,
    join: [`JOIN ${table} ${a} ON ${a}.id = page.__id`, sharedJoins, joins].filter(Boolean).join(" "),
  });
}

/** Rows of `pageSql` -> the page (`present` turns each row into the record served). */
export function readPage<T>(
  rows: readonly Record<string, unknown>[],
  limit: number,
  offset: number,
  present: (row: Record<string, unknown>) => T,
): PageOf<T> {
  const total = rows.length ? Number(rows[0].__total) : 0;
  const data = rows.length && rows[0].__position !== null ? rows.map(present) : [];
  return { data, pagination: pagination(total, limit, offset) };
}

// ---------------------------------------------------------------------------------------------------
// Relations: one page of children for each of several parents, in one statement

/**
 * Select-list entries of a relation's rows (`, ...`): the row's parent (`__parent`), its number in its
 * parent's page order (`__rn`) and its parent's total (`__page_total`).
 */
export const childPageColumns = (parent: string, order: string): string =>
  `, ${parent} AS __parent,
    (row_number() OVER (PARTITION BY ${parent} ORDER BY ${order}))::int AS __rn,
    (count(*) OVER (PARTITION BY ${parent}))::int AS __page_total`;

/**
 * The page of every parent's children in one statement (a DataLoader batch of a relation: District.schools,
 * Operator.childcareCenters ...). `rows` selects the asked parents' children with `childPageColumns`;
 * the window keeps each parent's rows of the page, and row 1 always, so a parent whose page lies past its
 * end still reports its total. `with`: leading `WITH [RECURSIVE] ...` entries `rows` uses. The bounds are
 * bigint: offset + limit passes the int range at the largest offset (a 500 before). `join` and `select`
 * (as in pageSql): `rows` numbers narrow tuples, and only the kept rows are read in full, joined to `x`.
 */
export function childPagesSql(parts: {
  with?: string;
  rows: string;
  limit: string;
  offset: string;
  select?: string;
  join?: string;
}): string {
  return `${parts.with ?? ""} SELECT ${parts.select ? `x.*, ${parts.select}` : "*"} FROM (${parts.rows}) x ${parts.join ?? ""}
    WHERE x.__rn <= ${parts.offset}::bigint + ${parts.limit}::bigint AND (x.__rn > ${parts.offset}::bigint OR x.__rn = 1)
    ORDER BY x.__parent, x.__rn`;
}

/** Rows of `childPagesSql` -> one page per parent, in `parents` order (a parent without rows: an empty page, total 0). */
export function readChildPages<T>(
  rows: readonly Record<string, unknown>[],
  parents: readonly string[],
  page: { limit: number; offset: number },
  present: (row: Record<string, unknown>) => T,
): PageOf<T>[] {
  const { limit, offset } = page;
  const pages = new Map<string, PageOf<T>>(parents.map((id) => [id, { data: [], pagination: pagination(0, limit, offset) }]));
  for (const row of rows) {
    const found = pages.get(row.__parent as string);
    if (!found) continue;
    found.pagination = pagination(Number(row.__page_total), limit, offset);
    if (Number(row.__rn) <= offset) continue;
    found.data.push(present(row));
  }
  return parents.map((id) => pages.get(id)!);
}

/**
 * A relation's per-request loaders: one DataLoader per distinct arguments (paging, order, filter) in the
 * request, usually one, each keyed by parent id; `batch(args)` loads the pages of every parent asked.
 */
export function relationLoaders<A, V>(
  batch: (args: A) => (parents: readonly string[]) => Promise<V[]>,
): (args: A) => DataLoader<string, V> {
  const loaders = new Map<string, DataLoader<string, V>>();
  return (args) => {
    const key = JSON.stringify(args ?? null);
    let loader = loaders.get(key);
    if (!loader) {
      const load = batch(args);
      // async: an argument check that throws is the request's error, not a broken batch function
      loaders.set(key, (loader = new DataLoader<string, V>(async (parents) => load(parents))));
    }
    return loader;
  };
}

/** relationLoaders of list pages whose rows also fill `byId`: a record read in a page is not read again by id. */
export function pageLoaders<A, T extends { id: string }, P extends PageOf<T> = PageOf<T>>(
  byId: DataLoader<string, T | null>,
  load: (args: A, parents: readonly string[]) => Promise<P[]>,
): (args: A) => DataLoader<string, P> {
  return relationLoaders<A, P>((args) => async (parents) => {
    const pages = await load(args, parents);
    for (const page of pages) for (const row of page.data) byId.prime(row.id, row);
    return pages;
  });
}

// ---------------------------------------------------------------------------------------------------
// Filters

/**
 * A check of a filter's value that needs the database (the list of `list_id` is the caller's): `sql` is a
 * scalar expression, null when the value is fine, run in the page statement itself (once, beside the
 * page); any other value is handed to `fail`, whose error the list answers instead of the page.
 */
export interface FilterCheck {
  sql: string;
  fail: (value: unknown) => AppError;
}

/** A clause's conditions with a check of its value (`FilterCheck`). */
export interface CheckedClause {
  where: string | readonly string[];
  check: FilterCheck;
}

/**
 * One clause of a resource's filter: SQL (one condition or several, ANDed) for the filter's value,
 * or nothing when the filter does not set it. `context` is what the resource passes (the viewer).
 * Clauses check their values and answer 400 naming the parameter.
 */
export type FilterClause<F, C = unknown> = (
  filter: F,
  p: SqlParams,
  context: C,
) => string | readonly string[] | CheckedClause | null | undefined | false;

/**
 * WHERE conditions of `filter`, clause by clause in the declared order (so the first bad parameter is the one reported).
 * Checks of checked clauses go to `checks`; a resource whose clauses have checks must pass it (and run them).
 */
export function compileFilter<F, C>(
  clauses: readonly FilterClause<F, C>[],
  filter: F,
  p: SqlParams,
  context: C,
  checks?: FilterCheck[],
): string[] {
  const where: string[] = [];
  for (const clause of clauses) {
    let sql = clause(filter, p, context);
    if (!sql) continue;
    if (typeof sql === "object" && "check" in sql) {
      if (!checks) throw new Error("compileFilter: a checked clause needs a checks array");
      checks.push(sql.check);
      sql = sql.where;
    }
    if (typeof sql === "string") where.push(sql);
    else where.push(...sql);
  }
  return where;
}

/** Throws the error of the first failed check of a page statement's row (`__check_<n>`: the n-th check's column). */
export function runChecks(checks: readonly FilterCheck[], row: Record<string, unknown> | undefined): void {
  checks.forEach((check, n) => {
    const value = row?.[`__check_${n}`];
    if (value != null) throw check.fail(value);
  });
}

/** Select-list entries of the checks (`, <sql> AS __check_<n>`). */
export const checkColumns = (checks: readonly FilterCheck[]): string => checks.map((c, n) => `, ${c.sql} AS __check_${n}`).join("");

/** At most this many NCES ids in one `fed_ids` filter (a sync asks in batches; the query string caps it anyway). */
export const MAX_FED_IDS = 1000;

/** An NCES id: `digits` digits (7 for a district, 12 for a school), else a 400 naming `name`. */
export function checkFedId(name: string, id: string, digits: 7 | 12): string {
  if (!new RegExp(`^\\d{${digits}}$`).test(id)) {
    const what = digits === 7 ? "district" : "school";
    throw new BadRequestError(`${name}: ${JSON.stringify(id.slice(0, 40))} is not a ${digits}-digit NCES ${what} id`);
  }
  return id;
}

/** The instant of an `updated_since` value as ISO text (the scalar parsed it; PostgreSQL's range is checked here). */
export function updatedSinceValue(value: Date | string | null | undefined): string | null {
  if (value == null) return null;
  const date = value instanceof Date ? value : new Date(value);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999)
    throw new BadRequestError("updated_since must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T00:00:00Z");
  return date.toISOString();
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
  if (!/^[A-Za-z]{2}$/.test(state)) throw new BadRequestError(`state must be a two-letter abbreviation, got ${echo(state)}`);
  return state.toUpperCase();
}

export function checkText(name: string, value: string, max = 200): string {
  const trimmed = value.trim();
  if (!trimmed) throw new BadRequestError(`${name} must not be empty`);
  if (trimmed.length > max) throw new BadRequestError(`${name} must be at most ${max} characters`);
  return trimmed;
}

/** Checks a comma-separated list parameter's items and returns them trimmed, once each (empty list: 400). */
export function checkList(name: string, items: readonly string[], check: (item: string) => string): string[] {
  if (!items.length) throw new BadRequestError(`${name} must be a non-empty comma-separated list`);
  return [...new Set(items.map((item) => check(item.trim())))];
}
