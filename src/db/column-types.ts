import type { Queryable } from "./client";

/** Column name to SQL type (`format_type`) per table, from the live catalogue. */
export type ColumnTypes = Map<string, Map<string, string>>;

/**
 * Reads the column types of `tables` once, so bulk writers can type a JSON payload with
 * jsonb_to_recordset(...) AS x(col type, ...) without hard-coding the schema.
 */
export async function readColumnTypes(q: Queryable, tables: readonly string[]): Promise<ColumnTypes> {
  const rows = await q.query<{ table_name: string; column_name: string; sql_type: string }>(
    `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS sql_type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
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
