/**
 * Multi-row writes for the demo seeder: each chunk of rows travels as one JSON parameter and is
 * expanded with jsonb_to_recordset, typed from the live catalogue. One statement per chunk, no
 * per-row round trips and no 65,535-parameter ceiling; arrays and JSON columns need no driver quirks.
 */
import type { Queryable } from "../../db/client";
import type { ColumnTypes } from "../../db/column-types";
import { ident } from "../../db/sql";

export type DemoValue = string | number | boolean | null | readonly string[] | DemoJson;
export type DemoJson = { readonly [key: string]: unknown } | readonly unknown[];
export type DemoRow = Record<string, DemoValue>;

const ROWS_PER_STATEMENT = 2000;

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
    // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start): one statement per chunk.
    // Every row carries every column, so a missing value is an explicit null rather than a silent default.
    const chunk = rows
      .slice(start, start + ROWS_PER_STATEMENT)
      .map((row) => Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));
    await q.query(sql, [JSON.stringify(chunk)]);
  }
  return rows.length;
}
