/**
 * What the two state directory sources (ca-cde-districts, il-isbe-directory) share: a directory row names the
 * current leader of one district or school; it becomes a contact (`source` "state_directory", listed without an
 * extraction: contact.service.ts LISTED) of the district or school already in the catalogue, never a guessed one
 * (an unknown entity rejects the row).
 *
 * Identity: `directory_key` = `<source>:<district|school>:<entity code>:<role>:<name key>` (unique), so a re-run
 * of the same file changes nothing. A later file naming another person for the same entity and role (the
 * "slot", the key without the name) inserts the new person and marks the slot's earlier person former
 * (`former_at` = the newer file's date): the row stays, and is no longer listed. A file older than the slot's
 * current person (loaded after a newer one) writes its person as already former. The file's date comes from its
 * name (`..._2026-03.txt`, `..._2026-03-17.xls`) and is each contact's `discovered_at` (first file),
 * `directory_date` (latest file; what orders files) and `last_updated_at` (moved only forward: other writers, such as
 * an enrichment, set it too). docs/contacts.md "State directories".
 */
import path from "node:path";
import type { Queryable } from "../../db/client";
import { BadRequestError } from "../../graphql/errors";
import type { CsvRow } from "../csv";
import type { IngestContext } from "../types";
import { type Row, SeenKeys, Upserter, type UpsertSpec } from "../upsert";
import { RowError } from "../values";
import { batchRows } from "./common";

export const DIRECTORY_SOURCE = "state_directory";

/** A row's leader: the entity by its publisher code (already checked to be in the catalogue) and the person. */
export interface DirectoryEntry {
  kind: "district" | "school";
  /** The code the slot is keyed by (CA: CD Code; IL: NCES id). */
  code: string;
  district_id: string;
  school_id: string | null;
  title: string;
  /** The name as published. */
  original: string;
  phone: string | null;
  state: string;
  facts: Record<string, string>;
}

export interface DirectoryOptions {
  dataSource: string;
  sourceUrl: string;
  /** The row's leader; null: the row names nobody (skipped). A RowError rejects it (unknown entity included). */
  parse: (row: CsvRow, lookups: DirectoryLookups) => DirectoryEntry | null;
}

/** The catalogue's districts and schools of one state, by the codes directories use (one query each). */
export interface DirectoryLookups {
  /** districts.fed_id (NCES LEAID) -> id */
  districtByFedId: Map<string, string>;
  /** districts.state_district_id (e.g. CA-1964733) -> id */
  districtByStateId: Map<string, string>;
  /** schools.fed_id (NCESSCH) -> its id and district */
  schoolByFedId: Map<string, { id: string; district_id: string | null }>;
}

async function loadLookups(q: Queryable, state: string): Promise<DirectoryLookups> {
  // Hand-written: bulk ingestion on the file's transaction `q` (foreign keys from memory, src/ingest/lookups.ts).
  const districts = await q.query<{ id: string; fed_id: string; state_district_id: string | null }>(
    `SELECT id, fed_id, state_district_id FROM districts WHERE state = $1`,
    [state],
  );
  const schools = await q.query<{ id: string; fed_id: string; district_id: string | null }>(
    `SELECT id, fed_id, district_id FROM schools WHERE state = $1`,
    [state],
  );
  return {
    districtByFedId: new Map(districts.map((d) => [d.fed_id, d.id])),
    districtByStateId: new Map(districts.filter((d) => d.state_district_id).map((d) => [d.state_district_id!, d.id])),
    schoolByFedId: new Map(schools.map((s) => [s.fed_id, { id: s.id, district_id: s.district_id }])),
  };
}

const HONORIFIC = /^(?:(?:dr|mr|mrs|ms|miss|mx|prof|rev|sr|fr)\.?\s+)+/i;

/** A published name as a person's name: honorifics (Dr., Mr., Ms., Mrs. ...) dropped, spacing collapsed; "" when nothing is left. */
export function personName(raw: string): string {
  const spaced = raw.replace(/\s+/g, " ").trim();
  return spaced.replace(HONORIFIC, "").trim();
}

/** The name part of a directory key: lowercase letters and digits only. */
const nameKey = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** The file's date from its name (YYYY-MM or YYYY-MM-DD; a month alone is its first day), as an ISO timestamp. */
export function fileDate(file: string): string {
  const matches = [...path.basename(file).matchAll(/(\d{4})-(\d{2})(?:-(\d{2}))?/g)];
  const last = matches[matches.length - 1];
  const date = last ? new Date(`${last[1]}-${last[2]}-${last[3] ?? "01"}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime())) {
    throw new BadRequestError(
      `${file}: a state directory file is named with its download date (e.g. ca_cde_public_districts_2026-03.txt, ..._2026-03-17.xls)`,
    );
  }
  return date.toISOString();
}

// prettier-ignore
const WRITTEN = [
  "district_id", "school_id", "name", "title", "phone", "state", "is_district_contact", "key_facts", "source", "source_url",
  "dedupe_key", "data_source", "directory_date", "last_updated_at", "former_at",
];

const CONTACTS: UpsertSpec = {
  table: "contacts",
  key: ["directory_key"],
  insert: ["directory_key", ...WRITTEN, "discovered_at"],
  update: WRITTEN,
  // Other writers move last_updated_at too (an enrichment sets it to its time): a file moves it only forward.
  merge: { last_updated_at: "GREATEST(t.last_updated_at, EXCLUDED.last_updated_at)" },
};

export async function runDirectory(ctx: IngestContext, state: string, options: DirectoryOptions): Promise<void> {
  const date = fileDate(ctx.csv.name);
  const lookups = await loadLookups(ctx.q, state);
  const prefix = `${ctx.source}:`;
  // The source's contacts so far, by slot (one query): who is current, and since when.
  // Hand-written: bulk ingestion on the file's transaction `q`.
  const stored = await ctx.q.query<{ id: string; directory_key: string; directory_date: Date | string; former_at: Date | null }>(
    `SELECT id, directory_key, directory_date, former_at FROM contacts WHERE source = $1 AND starts_with(directory_key, $2)`,
    [DIRECTORY_SOURCE, prefix],
  );
  const bySlot = new Map<string, typeof stored>();
  for (const row of stored) {
    const slot = row.directory_key.slice(0, row.directory_key.lastIndexOf(":"));
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), row]);
  }
  const time = (v: Date | string) => new Date(v).getTime();
  const upserter = await Upserter.create(ctx.q, ["contacts"]);
  const seen = new SeenKeys();
  const replaced: string[] = [];
  await batchRows(
    ctx,
    (row): Row | null => {
      const entry = options.parse(row, lookups);
      if (entry === null) {
        ctx.tally.skipped += 1;
        return null;
      }
      const name = personName(entry.original);
      if (!nameKey(name)) throw new RowError(`"${entry.original}" is not a person's name`);
      const slot = `${prefix}${entry.kind}:${entry.code}:${entry.title.toLowerCase()}`;
      const duplicate = seen.check(slot, row.line, `${entry.title} of ${entry.kind}`);
      if (duplicate) throw new RowError(duplicate);
      const key = `${slot}:${nameKey(name)}`;
      // Earlier people of the slot: replaced when this file is not older than them; a newer one makes this person former.
      let formerAt: string | null = null;
      for (const other of bySlot.get(slot) ?? []) {
        if (other.directory_key === key || other.former_at !== null) continue;
        if (time(other.directory_date) <= time(date)) replaced.push(other.id);
        else formerAt = new Date(other.directory_date).toISOString();
      }
      return {
        directory_key: key,
        district_id: entry.district_id,
        school_id: entry.school_id,
        name,
        title: entry.title,
        phone: entry.phone,
        state: entry.state,
        is_district_contact: entry.kind === "district",
        key_facts: { original_name: entry.original, ...entry.facts },
        source: DIRECTORY_SOURCE,
        source_url: options.sourceUrl,
        // The extraction pipeline's key for a person without an e-mail (name|title): the same person found on
        // the district's website by extraction is one person in the deduplicated view (docs/contacts.md).
        dedupe_key: `${name.toLowerCase()}|${entry.title.toLowerCase()}`,
        data_source: options.dataSource,
        directory_date: date,
        last_updated_at: date,
        former_at: formerAt,
        discovered_at: date,
      };
    },
    async (batch) => ctx.tally.main(await upserter.write(CONTACTS, batch)),
  );
  if (replaced.length) {
    // Hand-written: one statement for the run's replaced people, on the file's transaction.
    const rows = await ctx.q.query(`UPDATE contacts SET former_at = $1 WHERE id = ANY($2::uuid[]) AND former_at IS NULL RETURNING id`, [
      date,
      replaced,
    ]);
    ctx.tally.add("contacts (earlier person marked former)", { inserted: 0, updated: rows.length, unchanged: 0 });
  }
}
