/**
 * Nested rows of a list page read in the list statement itself, as JSON: a correlated subquery turns
 * an entity's rows of a block into one JSON array of positional arrays (no key repeated per value, so
 * PostgreSQL writes and Node parses about as little as with plain rows), and a decoder compiled once
 * per column list turns each array back into an object with the column names, all of one shape.
 * Timestamps come formatted as the API writes them (ISO 8601 UTC with milliseconds).
 */
import type { ColumnInfo } from "../../graphql/fields";

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** SQL: a timestamptz as the API writes it (ISO 8601 UTC with milliseconds); NULL stays NULL. */
export const isoTimestampSql = (expression: string): string => `to_char(${expression} AT TIME ZONE 'UTC', ${ISO_UTC})`;

function value(alias: string, { property, kind }: ColumnInfo): string {
  if (!IDENTIFIER.test(property)) throw new Error(`json-rows: ${property} is not a column name`);
  return kind === "datetime" ? isoTimestampSql(`${alias}.${property}`) : `${alias}.${property}`;
}

function values(alias: string, columns: readonly ColumnInfo[]): string {
  return columns.map((column) => value(alias, column)).join(", ");
}

/** SQL select list of these columns of `alias`, each named by its column (timestamps as ISO text). */
export function selectColumnsSql(alias: string, columns: readonly ColumnInfo[]): string {
  return columns.map((column) => `${value(alias, column)} AS ${column.property}`).join(", ");
}

/** SQL: `source`'s rows (a FROM ... WHERE ... naming them `alias`) as a JSON array of positional arrays in `orderBy` order; NULL when none. */
export function jsonRowsSql(alias: string, columns: readonly ColumnInfo[], source: string, orderBy: string): string {
  return `(SELECT json_agg(json_build_array(${values(alias, columns)}) ORDER BY ${orderBy}) FROM ${source})`;
}

/** SQL: the first row of `source` in `orderBy` order as one positional array; NULL when none. */
export function jsonRowSql(alias: string, columns: readonly ColumnInfo[], source: string, orderBy: string): string {
  return `(SELECT json_build_array(${values(alias, columns)}) FROM ${source} ORDER BY ${orderBy} LIMIT 1)`;
}

/** Positional arrays -> objects with the column names (one compiled object literal, so every row shares a shape). */
export function rowDecoder<T>(columns: readonly ColumnInfo[]): {
  one(row: unknown[] | null | undefined): T | null;
  all(rows: unknown[][] | null | undefined): T[];
} {
  const build = new Function("r", `return { ${columns.map(({ property }, i) => `${JSON.stringify(property)}: r[${i}]`).join(", ")} };`) as (
    row: unknown[],
  ) => T;
  return {
    one: (row) => (row ? build(row) : null),
    all: (rows) => (rows ? rows.map(build) : []),
  };
}
