/**
 * Batched idempotent upserts. One statement per batch: the rows travel as one JSON parameter, are
 * typed by json_to_recordset from the live catalogue (json, not jsonb: the payload is read once, and skipping
 * the jsonb build took a first load of data/ on the local PostgreSQL from 24.4 to 19.9 s; embedded: no change), and
 *   INSERT ... SELECT ... WHERE NOT EXISTS (<the stored row with that key and the same values>)
 *   ON CONFLICT (publisher key) DO UPDATE SET <own columns> WHERE <a value differs>
 *   RETURNING (xmax = 0)
 * tells inserted rows (xmax 0) from updated ones; rows not returned were already identical. The NOT EXISTS leaves
 * identical rows out before the insert: ON CONFLICT DO UPDATE locks (writes) every row it meets, its WHERE false or
 * not, so a re-run of a file wrote every row it read (second runs of data/ 7-17% faster without that; same counts).
 * Only the columns a source owns are named, so sources sharing a row never overwrite each other.
 */
import type { Queryable } from "../db/client";
import { readColumnTypes, type ColumnTypes } from "../db/column-types";
import { ident } from "../db/sql";
import type { TableCounts } from "./types";

export type SqlValue = string | number | boolean | null | readonly string[] | { readonly [key: string]: unknown };
export type Row = Record<string, SqlValue | undefined>;

export interface UpsertSpec {
  table: string;
  /** The conflict target: a unique index of the table. */
  key: readonly string[];
  /** Columns written when the row is new (the key included). */
  insert: readonly string[];
  /** Columns overwritten when the row exists: the source's own columns. */
  update: readonly string[];
  /** SQL replacing EXCLUDED.<column> for some update columns; `t` is the stored row (e.g. merging JSON). */
  merge?: Readonly<Record<string, string>>;
  /** Timestamp columns set to now() when the row changes. */
  touch?: readonly string[];
  /** Columns returned for new and changed rows (e.g. id and the key, to link child rows). */
  returning?: readonly string[];
}

export interface UpsertResult<R> extends TableCounts {
  /** The `returning` columns of inserted and updated rows (unchanged rows are not returned). */
  rows: R[];
}

/** Builds each spec's statement once and runs it per batch. */
export class Upserter {
  private readonly statements = new Map<UpsertSpec, string>();

  constructor(
    private readonly q: Queryable,
    private readonly types: ColumnTypes,
  ) {}

  static async create(q: Queryable, tables: readonly string[]): Promise<Upserter> {
    return new Upserter(q, await readColumnTypes(q, tables));
  }

  async write<R = Record<string, unknown>>(spec: UpsertSpec, rows: readonly Row[]): Promise<UpsertResult<R>> {
    if (rows.length === 0) return { inserted: 0, updated: 0, unchanged: 0, rows: [] };
    let sql = this.statements.get(spec);
    if (!sql) {
      sql = this.build(spec);
      this.statements.set(spec, sql);
    }
    // Every row carries every column, so an absent value is an explicit null, never a stale one. A plain loop, not
    // Object.fromEntries over [column, value] pairs: the same JSON in half the time (it was a tenth of the ingest's Node CPU).
    const payload = rows.map((row) => {
      const object: Record<string, SqlValue> = {};
      for (const column of spec.insert) object[column] = row[column] ?? null;
      return object;
    });
    // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts): one statement per batch.
    const returned = await this.q.query<{ _inserted: boolean } & R>(sql, [JSON.stringify(payload)]);
    const inserted = returned.filter((r) => r._inserted).length;
    return { inserted, updated: returned.length - inserted, unchanged: rows.length - returned.length, rows: returned };
  }

  private build(spec: UpsertSpec): string {
    const types = this.types.get(spec.table);
    if (!types) throw new Error(`upsert: unknown table ${spec.table}`);
    const definitions = spec.insert.map((column) => {
      const type = types.get(column);
      if (!type) throw new Error(`upsert: unknown column ${spec.table}.${column}`);
      return `${ident(column)} ${type}`;
    });
    const list = spec.insert.map(ident).join(", ");
    const value = (column: string) => spec.merge?.[column] ?? `EXCLUDED.${ident(column)}`;
    const sets = [...spec.update.map((c) => `${ident(c)} = ${value(c)}`), ...(spec.touch ?? []).map((c) => `${ident(c)} = now()`)];
    // A one-element row comparison would be a plain parenthesised value; both forms compare the same way.
    const current = spec.update.map((c) => `t.${ident(c)}`).join(", ");
    const incoming = spec.update.map(value).join(", ");
    const returning = ["(xmax = 0) AS _inserted", ...(spec.returning ?? []).map((c) => `t.${ident(c)}`)].join(", ");
    if (!spec.update.length) {
      return `INSERT INTO ${ident(spec.table)} AS t (${list})
SELECT ${list} FROM json_to_recordset($1::json) AS x(${definitions.join(", ")})
ON CONFLICT (${spec.key.map(ident).join(", ")}) DO NOTHING
RETURNING ${returning}`;
    }
    // The ON CONFLICT comparison, with the incoming row as x instead of EXCLUDED (no ingest table has a
    // BEFORE trigger, so the two are the same values): a row it finds identical is left out, counted unchanged.
    // OFFSET 0 keeps it a per-row probe of the key's unique index, as ON CONFLICT's own; as a join its plan would
    // follow the table statistics, which are stale while a file's transaction fills the table.
    const matches = spec.key.map((c) => `t.${ident(c)} = x.${ident(c)}`).join(" AND ");
    const incomingX = incoming.replace(/\bEXCLUDED\./g, "x.");
    return `INSERT INTO ${ident(spec.table)} AS t (${list})
SELECT ${list} FROM json_to_recordset($1::json) AS x(${definitions.join(", ")})
WHERE NOT EXISTS (SELECT 1 FROM ${ident(spec.table)} t WHERE ${matches} AND (${current}) IS NOT DISTINCT FROM (${incomingX}) OFFSET 0)
ON CONFLICT (${spec.key.map(ident).join(", ")}) DO UPDATE SET ${sets.join(", ")} WHERE (${current}) IS DISTINCT FROM (${incoming})
RETURNING ${returning}`;
  }
}

/** Reports a repeated publisher id as a value problem of the later row (a batch may not hit a row twice). */
export class SeenKeys {
  private readonly lines = new Map<string, number>();

  check(key: string, line: number, what: string): string | null {
    const first = this.lines.get(key);
    if (first !== undefined) return `${what} ${key} already appeared on line ${first}`;
    this.lines.set(key, line);
    return null;
  }
}

export const BATCH_SIZE = 500;
