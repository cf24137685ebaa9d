/**
 * Helpers of the early-childhood lists (operators, Head Start, childcare). `pagedSql` is one statement
 * for a page and its total: the filtered set is counted in a one-row subquery that the page is LEFT
 * JOINed to, so the total comes back even when the page lies past the end (no second count statement).
 * `checkList` and `countyClause` validate comma-separated list parameters.
 */
import type { SqlParams } from "../../db/sql";
import { BadRequestError } from "../../graphql/errors";
import { pagination, type Pagination } from "./common.type";
import { checkText } from "./list-query";

export interface PagedSqlParts {
  /** WITH-list entries (without WITH) that `filtered` may use, or "" for none. */
  ctes?: string;
  /** A SELECT producing the filtered rows (its columns become the record's). */
  filtered: string;
  /** ORDER BY over the given alias (must end with a unique tie-breaker). */
  order: (alias: string) => string;
  /** Placeholders of limit and offset. */
  limit: string;
  offset: string;
}

export function pagedSql(parts: PagedSqlParts): string {
  return `WITH ${parts.ctes ? `${parts.ctes},` : ""}
    filtered AS (${parts.filtered}),
    page AS (SELECT * FROM filtered x ORDER BY ${parts.order("x")} LIMIT ${parts.limit} OFFSET ${parts.offset})
    SELECT t.__total, page.*
      FROM (SELECT count(*)::int AS __total FROM filtered) t
      LEFT JOIN page ON true
     ORDER BY ${parts.order("page")}`;
}

/** Rows of `pagedSql` (one null row when the page is empty) -> records and pagination. */
export function pageOf<T>(
  rows: Record<string, unknown>[],
  limit: number,
  offset: number,
  present: (row: Record<string, unknown>) => T,
): { data: T[]; pagination: Pagination } {
  const total = rows.length ? Number(rows[0].__total) : 0;
  const data = rows
    .filter((row) => row.id != null)
    .map((row) => {
      delete row.__total;
      return present(row);
    });
  return { data, pagination: pagination(total, limit, offset) };
}

/** Checks a comma-separated list parameter's items and returns them trimmed, once each (empty list: 400). */
export function checkList(name: string, items: readonly string[], check: (item: string) => string): string[] {
  if (!items.length) throw new BadRequestError(`${name} must be a non-empty comma-separated list`);
  return [...new Set(items.map((item) => check(item.trim())))];
}

/**
 * The `county` list filter: exact names, any case, with or without a trailing "County" (rosters write
 * "Lancaster", "LANCASTER" or "Lancaster County").
 */
export function countyClause(column: string, counties: readonly string[], p: SqlParams): string {
  const names = checkList("county", counties, (c) =>
    checkText("county", c)
      .toLowerCase()
      .replace(/\s+county$/, ""),
  );
  return `regexp_replace(lower(${column}), '\\s+county$', '') = ANY(${p.add(names)}::text[])`;
}

/**
 * The list sort contract (section 1): the chosen column, nulls last in both directions, ties broken by
 * ascending id so paging is stable. `column` comes from a feature's allowlist, never from the caller.
 */
export function sortClause(alias: string, column: string, ascending: boolean | null | undefined): string {
  return `${alias}.${column} ${ascending === false ? "DESC" : "ASC"} NULLS LAST, ${alias}.id ASC`;
}
