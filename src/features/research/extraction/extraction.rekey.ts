/**
 * Issue 20 point 7 for databases written before it: extracted rows stored with the old version-5 ids (a UUIDv5 of
 * a namespace that was in the source and `<kind>/<entity id>/<table>/<natural key>`, a contact's natural key being
 * its e-mail) still answered a guessed e-mail with GET /contacts/<computed id>. This step, run at start-up after
 * the migrations (server, CLI, MCP stdio), gives every extracted row whose id is the version-5 id of its stored
 * natural key the keyed id the store computes now (extractionId: the same name under the database's key), and
 * moves every reference to it, in one transaction:
 *
 *   unlocks, credit_holds, credit_ledger (entity_id), list_items (entity_id), follows (entity_id),
 *   promoted_contacts (contact_id), bid_filings (bid_id), embeddings (entity_id, source_id),
 *   briefs.dossier people[].contact_id, idempotency_keys.response (mutation results kept for replays)
 *
 * (no foreign key refers to these tables; the ids of extracted rows are distinct per table, so a reference
 * column is matched by id alone). Contracts store no natural key (the sentence they came from): one with a
 * version-5 id gets a keyed id of its old id; nothing refers to them and the next extraction replaces them.
 *
 * Idempotent (a row re-keyed is version 8, so a second run finds nothing); concurrent starts take a
 * transaction-scoped advisory lock, so one re-keys and the others then find nothing. Memory is bounded: candidate
 * rows (version nibble 5) are read in pages of REKEY_PAGE by id, and the old-to-new map lives in a temporary table.
 */
import crypto from "node:crypto";
import type { Db, Queryable } from "../../../db/client";
import { advisoryXactLock } from "../../../db/locks";
import { extractionId, extractionIdKey } from "./extraction.store";

/** The namespace of the version-5 ids written before issue 20 point 7. */
const LEGACY_NAMESPACE = Buffer.from("3b7e9c2a5d4f4e1a8c6b0f2d9e7a1c54", "hex");
const REKEY_LOCK = "extraction:rekey-v5-ids";
export const REKEY_PAGE = 1000;

/** The version-5 id the pipeline gave `name` before issue 20 point 7. */
export function legacyExtractionId(name: string): string {
  const bytes = crypto.createHash("sha1").update(LEGACY_NAMESPACE).update(name).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One table of extracted rows: `name` is the store's `<kind>/<entity id>/<table>/<key>` (null: no stored key). */
interface RekeyedTable {
  table: string;
  /** Columns read (after id), as SQL over alias `t`. */
  select: string;
  from?: string;
  name: (row: Record<string, string | null>) => string | null;
}

const owner = (row: Record<string, string | null>) => (row.kind === "school" ? row.school_id : row.district_id);
const named = (table: string, row: Record<string, string | null>, key: string | null) =>
  key === null || !owner(row) ? null : `${row.kind}/${owner(row)}/${table}/${key.toLowerCase()}`;

const TABLES: RekeyedTable[] = [
  {
    table: "contacts",
    // A school's contacts carry its district too; the store named them by the school.
    select: `CASE WHEN t.school_id IS NULL THEN 'district' ELSE 'school' END AS kind, t.district_id, t.school_id, t.dedupe_key AS key`,
    name: (r) => named("contacts", r, r.key),
  },
  {
    table: "bids",
    select: `t.entity_type AS kind, t.district_id, t.school_id, t.title AS key`,
    name: (r) => named("bids", r, r.key),
  },
  {
    table: "timeline_events",
    select: `t.entity_type AS kind, t.entity_id AS district_id, t.entity_id AS school_id,
             t.event_type || '/' || to_char(t.event_date, 'YYYY-MM-DD') || '/' || t.title AS key`,
    name: (r) => named("timeline_events", r, r.key),
  },
  {
    table: "pain_points",
    select: `t.entity_type AS kind, t.district_id, t.school_id, t.category || '/' || t.description AS key`,
    name: (r) => named("pain_points", r, r.key),
  },
  {
    table: "funding",
    select: `t.entity_type AS kind, t.district_id, t.school_id, t.source || '/' || t.description AS key`,
    name: (r) => named("funding", r, r.key),
  },
  {
    table: "entity_vendors",
    select: `t.entity_type AS kind, t.district_id, t.school_id, v.name AS key`,
    from: `LEFT JOIN vendors v ON v.id = t.vendor_id`,
    name: (r) => named("entity_vendors", r, r.key),
  },
  { table: "contracts", select: `NULL AS key`, name: () => null },
];

/** Columns holding ids of extracted rows (uuid unless `text`). */
const REFERENCES: { table: string; column: string; text?: boolean }[] = [
  { table: "unlocks", column: "entity_id" },
  { table: "credit_holds", column: "entity_id" },
  { table: "credit_ledger", column: "entity_id" },
  { table: "list_items", column: "entity_id" },
  { table: "follows", column: "entity_id" },
  { table: "promoted_contacts", column: "contact_id" },
  { table: "bid_filings", column: "bid_id" },
  { table: "embeddings", column: "entity_id" },
  { table: "embeddings", column: "source_id", text: true },
];

export interface RekeyResult {
  /** Rows given a keyed id, per table (tables with none left out). */
  rekeyed: Record<string, number>;
}

export async function rekeyLegacyExtractionIds(db: Db): Promise<RekeyResult> {
  const key = await extractionIdKey(db);
  return db.transaction(async (tx) => {
    // Bulk work at start-up, not a request: the API pool's statement timeout does not apply.
    if (db.kind === "postgres") await tx.query("SET LOCAL statement_timeout = 0");
    await advisoryXactLock(tx, REKEY_LOCK);
    await tx.exec(`CREATE TEMPORARY TABLE rekeyed_ids (old_id uuid PRIMARY KEY, new_id uuid NOT NULL) ON COMMIT DROP`);
    const rekeyed: Record<string, number> = {};
    for (const spec of TABLES) {
      const count = await mapTable(tx, spec, key);
      if (count) rekeyed[spec.table] = count;
    }
    if (!Object.keys(rekeyed).length) return { rekeyed };

    for (const spec of TABLES) await tx.query(`UPDATE ${spec.table} t SET id = m.new_id FROM rekeyed_ids m WHERE t.id = m.old_id`);
    for (const ref of REFERENCES) {
      const [old, next] = ref.text ? ["m.old_id::text", "m.new_id::text"] : ["m.old_id", "m.new_id"];
      await tx.query(`UPDATE ${ref.table} t SET ${ref.column} = ${next} FROM rekeyed_ids m WHERE t.${ref.column} = ${old}`);
    }
    // A brief's people name their catalogue contact (promote reads it).
    await tx.query(
      `UPDATE briefs b
          SET dossier = jsonb_set(b.dossier, '{people}', (
                SELECT jsonb_agg(CASE WHEN m.new_id IS NULL THEN p.person
                                      ELSE jsonb_set(p.person, '{contact_id}', to_jsonb(m.new_id::text)) END ORDER BY p.n)
                  FROM jsonb_array_elements(b.dossier -> 'people') WITH ORDINALITY AS p(person, n)
                  LEFT JOIN rekeyed_ids m ON m.old_id::text = p.person ->> 'contact_id'))
        WHERE jsonb_typeof(b.dossier -> 'people') = 'array'
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(b.dossier -> 'people') AS p(person)
                        JOIN rekeyed_ids m ON m.old_id::text = p.person ->> 'contact_id')`,
    );
    // Results kept for Idempotency-Key replays (24 hours, JSON text) name the entity: a replay names the new id.
    const replays = await tx.query<{ organization_id: string; key: string; response: string; olds: string[]; news: string[] }>(
      `SELECT k.organization_id, k.key, k.response::text AS response,
              array_agg(m.old_id::text) AS olds, array_agg(m.new_id::text) AS news
         FROM idempotency_keys k JOIN rekeyed_ids m ON strpos(k.response::text, m.old_id::text) > 0
        GROUP BY k.organization_id, k.key, k.response::text`,
    );
    for (const replay of replays) {
      const response = replay.olds.reduce((text, old, i) => text.replaceAll(old, replay.news[i]!), replay.response);
      await tx.query(`UPDATE idempotency_keys SET response = $3 WHERE organization_id = $1::uuid AND key = $2`, [
        replay.organization_id,
        replay.key,
        response,
      ]);
    }
    return { rekeyed };
  });
}

/** Adds the table's version-5 rows to rekeyed_ids, a page at a time; returns how many. */
async function mapTable(tx: Queryable, spec: RekeyedTable, key: Buffer): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let count = 0;
  for (;;) {
    const rows = await tx.query<Record<string, string | null> & { id: string }>(
      `SELECT t.id::text AS id, ${spec.select}
         FROM ${spec.table} t ${spec.from ?? ""}
        WHERE t.data_source = 'extraction' AND substr(t.id::text, 15, 1) = '5' AND t.id > $1::uuid
        ORDER BY t.id LIMIT ${REKEY_PAGE}`,
      [after],
    );
    if (!rows.length) return count;
    after = rows.at(-1)!.id;
    const pairs: { old_id: string; new_id: string }[] = [];
    for (const row of rows) {
      const name = spec.name(row);
      if (name !== null && legacyExtractionId(name) === row.id) pairs.push({ old_id: row.id, new_id: extractionId(key, name) });
      // No stored natural key: keyed by the old id (only the id is replaced; the next extraction names it anew).
      else if (name === null && spec.table === "contracts")
        pairs.push({ old_id: row.id, new_id: extractionId(key, `contracts/legacy/${row.id}`) });
    }
    if (pairs.length) {
      // A keyed id already taken (not expected: the store keeps one row per natural key) leaves the row as it is.
      const [inserted] = await tx.query<{ n: number }>(
        `WITH added AS (
           INSERT INTO rekeyed_ids (old_id, new_id)
           SELECT r.old_id, r.new_id FROM jsonb_to_recordset($1::jsonb) AS r(old_id uuid, new_id uuid)
            WHERE NOT EXISTS (SELECT 1 FROM ${spec.table} taken WHERE taken.id = r.new_id)
           ON CONFLICT (old_id) DO NOTHING RETURNING 1)
         SELECT count(*)::int AS n FROM added`,
        [JSON.stringify(pairs)],
      );
      count += inserted?.n ?? 0;
    }
    if (rows.length < REKEY_PAGE) return count;
  }
}
