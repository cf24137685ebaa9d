/**
 * Nested rows read as JSON: a correlated subquery turns a record's rows of a block into one JSON array
 * of positional arrays (no key repeated per value, so PostgreSQL writes and Node parses about as little
 * as with plain rows), and a decoder compiled once per column list turns each array back into an
 * object with the column names, all of one shape. Timestamps come formatted as the API writes them
 * (ISO 8601 UTC with milliseconds). Blocks read this way in a list statement and in their loaders
 * alike (src/features/kits/blocks/), so both serve the same values.
 */
import type { ColumnInfo } from "../../../graphql/fields";

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * A column of a JSON row: by default `alias.property`; `sql` reads another expression instead (a
 * joined table's column, a computed value), `decode` turns the value into what the API serves.
 */
export interface JsonColumn extends ColumnInfo {
  sql?: string;
  decode?: (value: never) => unknown;
}

/** SQL: a timestamptz as the API writes it (ISO 8601 UTC with milliseconds); NULL stays NULL. */
export const isoTimestampSql = (expression: string): string => `to_char(${expression} AT TIME ZONE 'UTC', ${ISO_UTC})`;

function value(alias: string, column: JsonColumn): string {
  if (column.sql === undefined && !IDENTIFIER.test(column.property)) throw new Error(`json-rows: ${column.property} is not a column name`);
  const expression = column.sql ?? `${alias}.${column.property}`;
  return column.kind === "datetime" ? isoTimestampSql(expression) : expression;
}

function values(alias: string, columns: readonly JsonColumn[]): string {
  return columns.map((column) => value(alias, column)).join(", ");
}

/** SQL select list of these columns of `alias`, each named by its column (timestamps as ISO text). */
export function selectColumnsSql(alias: string, columns: readonly JsonColumn[]): string {
  return columns.map((column) => `${value(alias, column)} AS ${column.property}`).join(", ");
}

/**
 * SQL: `source`'s rows (a FROM ... WHERE ... naming them `alias`) as a JSON array of positional arrays in
 * `orderBy` order; NULL when none. `limit`: the first rows only (the rest are neither sorted in full nor built).
 */
export function jsonRowsSql(alias: string, columns: readonly JsonColumn[], source: string, orderBy: string, limit?: number): string {
  if (limit === undefined) return `(SELECT json_agg(json_build_array(${values(alias, columns)}) ORDER BY ${orderBy}) FROM ${source})`;
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`json-rows: limit ${limit} is not a whole number`);
  return `(SELECT json_agg(top.r ORDER BY top.n) FROM (
      SELECT json_build_array(${values(alias, columns)}) AS r, row_number() OVER (ORDER BY ${orderBy}) AS n
        FROM ${source} ORDER BY ${orderBy} LIMIT ${limit}) top)`;
}

/** SQL: the first row of `source` in `orderBy` order as one positional array; NULL when none. */
export function jsonRowSql(alias: string, columns: readonly JsonColumn[], source: string, orderBy: string): string {
  return `(SELECT json_build_array(${values(alias, columns)}) FROM ${source} ORDER BY ${orderBy} LIMIT 1)`;
}

/** SQL: one positional array of these columns of `alias` (no subquery: `alias` is in scope). */
export function jsonArraySql(alias: string, columns: readonly JsonColumn[]): string {
  return `json_build_array(${values(alias, columns)})`;
}

export interface RowDecoder<T> {
  one(row: unknown[] | null | undefined): T | null;
  all(rows: unknown[][] | null | undefined): T[];
}

/** Positional arrays -> objects with the column names (one compiled object literal, so every row shares a shape). */
export function rowDecoder<T>(columns: readonly JsonColumn[]): RowDecoder<T> {
  const decoders = columns.map((column) => column.decode);
  const entries = columns.map(({ property, decode }, i) => `${JSON.stringify(property)}: ${decode ? `d[${i}](r[${i}])` : `r[${i}]`}`);
  const build = new Function("d", `return (r) => ({ ${entries.join(", ")} });`)(decoders) as (row: unknown[]) => T;
  return {
    one: (row) => (row ? build(row) : null),
    all: (rows) => (rows ? rows.map(build) : []),
  };
}
