/**
 * Multi-row writes for the demo seeder: each chunk of rows travels as one JSON parameter and is
 * expanded with jsonb_to_recordset, typed from the live catalogue. One statement per chunk, no
 * per-row round trips and no 65,535-parameter ceiling; arrays and JSON columns need no driver quirks.
 */
import type { Queryable } from "../../db/client";
import { ident } from "../../db/sql";

export type DemoValue = string | number | boolean | null | readonly string[] | DemoJson;
export type DemoJson = { readonly [key: string]: unknown } | readonly unknown[];
export type DemoRow = Record<string, DemoValue>;

const ROWS_PER_STATEMENT = 2000;

/** Column name to SQL type (`format_type`) for each table, read once per seeding run. */
export type ColumnTypes = Map<string, Map<string, string>>;

export async function readColumnTypes(q: Queryable, tables: readonly string[]): Promise<ColumnTypes> {
  const rows = await q.query<{ table_name: string; column_name: string; sql_type: string }>(
    `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS sql_type
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.oid = ANY($1::text[]::regclass[]) AND a.attnum > 0 AND NOT a.attisdropped`,
    [tables],
  );
  const types: ColumnTypes = new Map();
  for (const row of rows) {
    const table = types.get(row.table_name) ?? new Map<string, string>();
    table.set(row.column_name, row.sql_type);
    types.set(row.table_name, table);
  }
  return types;
}

/** Inserts `rows` (all with the same keys) into `table`; returns how many were written. */
export async function insertRows(q: Queryable, types: ColumnTypes, table: string, rows: readonly DemoRow[]): Promise<number> {
  const first = rows[0];
  if (!first) return 0;
  const tableTypes = types.get(table);
  if (!tableTypes) throw new Error(`demo seeder: unknown table ${table}`);
  const columns = Object.keys(first);
  const definitions = columns.map((column) => {
    const type = tableTypes.get(column);
    if (!type) throw new Error(`demo seeder: unknown column ${table}.${column}`);
    return `${ident(column)} ${type}`;
  });
  const list = columns.map(ident).join(", ");
  const sql = `INSERT INTO ${ident(table)} (${list}) SELECT ${list} FROM jsonb_to_recordset($1::jsonb) AS x(${definitions.join(", ")})`;
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    // Every row carries every column, so a missing value is an explicit null rather than a silent default.
    const chunk = rows
      .slice(start, start + ROWS_PER_STATEMENT)
      .map((row) => Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));
    await q.query(sql, [JSON.stringify(chunk)]);
  }
  return rows.length;
}
