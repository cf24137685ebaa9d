/**
 * Issue 20 point 7 for databases written before it: rows stored with the old version-5 ids (contacts keyed by
 * their e-mail, bids, events ...) kept them, so a guessed e-mail still found a contact of an existing database.
 * rekeyLegacyExtractionIds (run at start-up after the migrations) gives them keyed ids and moves every reference
 * (unlocks, credit holds and ledger entries, list items, promoted contacts, brief people, bid filings) in one
 * transaction; a second run changes nothing.
 */
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createDb } from "../../src/db/client";
import { loadEnv } from "../../src/config/env";
import { REKEY_PAGE, rekeyLegacyExtractionIds } from "../../src/features/research/extraction/extraction.rekey";
import { runExtractionPipeline } from "../../src/features/research/extraction/pipeline";
import { createTestApp, type TestApp } from "../support/app";
import { insertBidFiling, insertUnlock } from "../support/block-factories";
import { createTestDb, openTestDataDir, type TestDb } from "../support/db";
import { insert, insertDistrict } from "../support/factories";
import { EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "../extraction/support/fixture-server";

const env = loadEnv({ LOG_LEVEL: "silent", ...EXTRACTION_TEST_ENV });

/** The id the pipeline gave a row before the fix (the namespace was in the source). */
function oldStyleId(name: string): string {
  const namespace = Buffer.from("3b7e9c2a5d4f4e1a8c6b0f2d9e7a1c54", "hex");
  const bytes = crypto.createHash("sha1").update(namespace).update(name).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Every place the test put a reference to the old ids, as rows (compared before and after a second run). */
const SNAPSHOT_SQL = `
  SELECT 'contacts' AS t, id::text AS v FROM contacts
  UNION ALL SELECT 'bids', id::text FROM bids
  UNION ALL SELECT 'timeline_events', id::text FROM timeline_events
  UNION ALL SELECT 'unlocks', entity_id::text FROM unlocks
  UNION ALL SELECT 'credit_holds', entity_id::text FROM credit_holds
  UNION ALL SELECT 'credit_ledger', entity_id::text FROM credit_ledger WHERE entity_id IS NOT NULL
  UNION ALL SELECT 'list_items', entity_id::text FROM list_items
  UNION ALL SELECT 'promoted_contacts', contact_id::text FROM promoted_contacts
  UNION ALL SELECT 'bid_filings', bid_id::text FROM bid_filings
  UNION ALL SELECT 'briefs', dossier::text FROM briefs
  UNION ALL SELECT 'idempotency_keys', response::text FROM idempotency_keys
  ORDER BY 1, 2`;

describe("re-keying extracted rows' version-5 ids (issue 20 point 7)", () => {
  let db: TestDb;
  let site: FixtureSite;
  let t: TestApp;
  let district: string;
  let email: string;
  let oldContact: string;
  let oldBid: string;
  let oldEvent: string;
  let listId: string;
  let briefId: string;

  beforeAll(async () => {
    db = await createTestDb();
    site = await serveFixtureSite("cedar-ridge");
    t = await createTestApp({}, { db });
    district = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${site.origin}/` });
    expect((await runExtractionPipeline(db, "district", district, { env })).status).toBe("completed");

    // The database as an earlier version left it: the rows under their version-5 ids, referred to from elsewhere.
    const [contact] = await db.query<{ id: string; email: string; dedupe_key: string }>(
      `SELECT id, email, dedupe_key FROM contacts WHERE district_id = $1 AND email IS NOT NULL ORDER BY email LIMIT 1`,
      [district],
    );
    email = contact!.email;
    oldContact = oldStyleId(`district/${district}/contacts/${contact!.dedupe_key.toLowerCase()}`);
    await db.query(`UPDATE contacts SET id = $2 WHERE id = $1`, [contact!.id, oldContact]);
    const [bid] = await db.query<{ id: string; title: string }>(`SELECT id, title FROM bids WHERE district_id = $1 LIMIT 1`, [district]);
    oldBid = oldStyleId(`district/${district}/bids/${bid!.title.toLowerCase()}`);
    await db.query(`UPDATE bids SET id = $2 WHERE id = $1`, [bid!.id, oldBid]);
    const [event] = await db.query<{ id: string; name: string }>(
      `SELECT id, event_type || '/' || to_char(event_date, 'YYYY-MM-DD') || '/' || title AS name FROM timeline_events
        WHERE entity_id = $1 AND data_source = 'extraction' LIMIT 1`,
      [district],
    );
    oldEvent = oldStyleId(`district/${district}/timeline_events/${event!.name.toLowerCase()}`);
    await db.query(`UPDATE timeline_events SET id = $2 WHERE id = $1`, [event!.id, oldEvent]);

    const org = t.orgs.enterprise;
    await insertUnlock(db, org, "district", district);
    await insertUnlock(db, org, "contact", oldContact);
    await insert(db, "credit_holds", {
      organization_id: org,
      amount: 2,
      status: "captured",
      entity_type: "contact",
      entity_id: oldContact,
      expires_at: new Date("2026-12-01T00:00:00Z"),
    });
    await insert(db, "credit_ledger", {
      organization_id: org,
      transfer_id: crypto.randomUUID(),
      account: "spent",
      kind: "unlock",
      amount: 0,
      entity_type: "contact",
      entity_id: oldContact,
    });
    listId = await insert(db, "lists", { organization_id: org, name: "Superintendents", entity_type: "contact" });
    await insert(db, "list_items", { list_id: listId, entity_id: oldContact });
    const project = await insert(db, "projects", { organization_id: org, name: "Rekey" });
    briefId = await insert(db, "briefs", {
      organization_id: org,
      project_id: project,
      entity_type: "district",
      entity_id: district,
      status: "ready",
      dossier: { people: [{ person_key: "p_000000000000000000000001", name: "Someone", contact_id: oldContact }], events: [] },
    });
    await insert(db, "promoted_contacts", {
      organization_id: org,
      project_id: project,
      brief_id: briefId,
      person_key: "p_000000000000000000000001",
      contact_id: oldContact,
      entity_type: "district",
      entity_id: district,
      name: "Someone",
      brief_reference: { brief_id: briefId, person_key: "p_000000000000000000000001", section: "people" },
    });
    await insertBidFiling(db, org, oldBid, "save");
    await insert(db, "idempotency_keys", {
      organization_id: org,
      key: "unlock-contact-1",
      request_hash: "h",
      finished_at: new Date(),
      // The stored result of POST /unlock (src/graphql/idempotency.ts): its data as JSON text.
      response: JSON.stringify({ data: { unlock: { results: [{ result: { entity_type: "contact", entity_id: oldContact } }] } } }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
    await db?.close();
  });

  it("before the step the guessed e-mail's old-style id answers 200 (the oracle of an existing database)", async () => {
    expect((await t.get(`/api/v1/contacts/${oldContact}`, "free").expect(200)).body.data.id).toBe(oldContact);
  });

  it("the step: the old id is 404, the new id serves the same contact with its unlock, list item and every reference", async () => {
    const result = await rekeyLegacyExtractionIds(db);
    expect(result.rekeyed).toMatchObject({ contacts: 1, bids: 1, timeline_events: 1 });

    expect((await t.get(`/api/v1/contacts/${oldContact}`, "free").expect(404)).body.error).toBe("not_found");
    const [row] = await db.query<{ id: string }>(`SELECT id FROM contacts WHERE district_id = $1 AND email = $2`, [district, email]);
    const newContact = row!.id;
    expect(newContact).not.toBe(oldContact);
    expect(newContact[14]).toBe("8");
    // Unlocked for the organization that unlocked it under the old id: its e-mail is served.
    const served = (await t.get(`/api/v1/contacts/${newContact}`).expect(200)).body.data;
    expect(served).toMatchObject({ id: newContact, email });
    expect((await t.get(`/api/v1/contacts/${newContact}`, "free").expect(200)).body.data).toMatchObject({ id: newContact, email: null });
    const lists = (await t.get("/api/v1/lists").expect(200)).body.data as { id: string; entity_ids: string[] }[];
    expect(lists.find((l) => l.id === listId)?.entity_ids).toEqual([newContact]);

    const snapshot = (await db.query<{ t: string; v: string }>(SNAPSHOT_SQL)).map((r) => `${r.t} ${r.v}`).join("\n");
    for (const old of [oldContact, oldBid, oldEvent]) expect(snapshot).not.toContain(old);
    const refs = await db.query<{ t: string; v: string }>(
      `SELECT 'unlock' AS t, entity_id::text AS v FROM unlocks WHERE entity_type = 'contact'
       UNION ALL SELECT 'hold', entity_id::text FROM credit_holds
       UNION ALL SELECT 'ledger', entity_id::text FROM credit_ledger WHERE entity_id IS NOT NULL
       UNION ALL SELECT 'promoted', contact_id::text FROM promoted_contacts
       UNION ALL SELECT 'brief', dossier -> 'people' -> 0 ->> 'contact_id' FROM briefs WHERE id = $1
       UNION ALL SELECT 'replay', response::jsonb #>> '{data,unlock,results,0,result,entity_id}' FROM idempotency_keys`,
      [briefId],
    );
    expect(refs.sort((a, b) => a.t.localeCompare(b.t))).toEqual(
      ["brief", "hold", "ledger", "promoted", "replay", "unlock"].map((name) => ({ t: name, v: newContact })),
    );
    const [filing] = await db.query<{ bid_id: string; title: string }>(
      `SELECT f.bid_id, b.title FROM bid_filings f JOIN bids b ON b.id = f.bid_id`,
    );
    expect(filing!.bid_id).not.toBe(oldBid);
    expect(filing!.bid_id[14]).toBe("8");
  });

  it("a second run changes nothing; a re-extraction keeps the new ids", async () => {
    const before = await db.query(SNAPSHOT_SQL);
    expect(await rekeyLegacyExtractionIds(db)).toEqual({ rekeyed: {} });
    expect(await db.query(SNAPSHOT_SQL)).toEqual(before);
    const contactIds = await db.query(`SELECT id, email FROM contacts WHERE district_id = $1 ORDER BY id`, [district]);
    const bidIds = await db.query(`SELECT id FROM bids WHERE district_id = $1 ORDER BY id`, [district]);
    expect((await runExtractionPipeline(db, "district", district, { env })).status).toBe("completed");
    expect(await db.query(`SELECT id, email FROM contacts WHERE district_id = $1 ORDER BY id`, [district])).toEqual(contactIds);
    expect(await db.query(`SELECT id FROM bids WHERE district_id = $1 ORDER BY id`, [district])).toEqual(bidIds);
  });

  it("concurrent runs (several processes starting at once) re-key once", async () => {
    const [contact] = await db.query<{ id: string; dedupe_key: string }>(
      `SELECT id, dedupe_key FROM contacts WHERE district_id = $1 AND email IS NOT NULL AND email <> $2 ORDER BY email LIMIT 1`,
      [district, email],
    );
    const old = oldStyleId(`district/${district}/contacts/${contact!.dedupe_key.toLowerCase()}`);
    await db.query(`UPDATE contacts SET id = $2 WHERE id = $1`, [contact!.id, old]);
    await insertUnlock(db, t.orgs.pro, "contact", old);
    const results = await Promise.all([rekeyLegacyExtractionIds(db), rekeyLegacyExtractionIds(db), rekeyLegacyExtractionIds(db)]);
    expect(results.map((r) => r.rekeyed.contacts ?? 0).sort()).toEqual([0, 0, 1]);
    // The keyed id is the one the store computes: back where the extraction put it.
    const [back] = await db.query<{ id: string }>(`SELECT id FROM contacts WHERE dedupe_key = $1 AND district_id = $2`, [
      contact!.dedupe_key,
      district,
    ]);
    expect(back!.id).toBe(contact!.id);
    const [unlock] = await db.query<{ entity_id: string }>(`SELECT entity_id FROM unlocks WHERE organization_id = $1`, [t.orgs.pro]);
    expect(unlock!.entity_id).toBe(contact!.id);
  });

  it("more rows than one page (REKEY_PAGE) are all re-keyed, with their list items", async () => {
    const other = await insertDistrict(db, { name: "Many Contacts District", state: "NE" });
    const rows = Array.from({ length: REKEY_PAGE * 2 + 100 }, (_, i) => {
      const dedupe = `person${i}@many.example.org`;
      return { id: oldStyleId(`district/${other}/contacts/${dedupe}`), dedupe_key: dedupe, email: dedupe, name: `Person ${i}` };
    });
    await db.query(
      `INSERT INTO contacts (id, district_id, is_district_contact, name, email, state, source, dedupe_key, data_source)
       SELECT r.id, $2::uuid, true, r.name, r.email, 'NE', 'website', r.dedupe_key, 'extraction'
         FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, name text, email text, dedupe_key text)`,
      [JSON.stringify(rows), other],
    );
    const list = await insert(db, "lists", { organization_id: t.orgs.pro, name: "Many", entity_type: "contact" });
    await db.query(`INSERT INTO list_items (list_id, entity_id) SELECT $1::uuid, id FROM contacts WHERE district_id = $2`, [list, other]);
    expect((await rekeyLegacyExtractionIds(db)).rekeyed).toEqual({ contacts: rows.length });
    const [left] = await db.query<{ v5: number; items: number; orphans: number }>(
      `SELECT (SELECT count(*)::int FROM contacts WHERE district_id = $1 AND substr(id::text, 15, 1) = '5') AS v5,
              (SELECT count(*)::int FROM list_items WHERE list_id = $2) AS items,
              (SELECT count(*)::int FROM list_items li WHERE li.list_id = $2
                  AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = li.entity_id)) AS orphans`,
      [other, list],
    );
    expect(left).toEqual({ v5: 0, items: rows.length, orphans: 0 });
  });

  it("start-up runs the step: `edmarket db migrate` (a separate process, as every start) re-keys a stored old-style id", async () => {
    // A database of its own that the CLI process opens: PostgreSQL by URL, or an embedded data directory on disk.
    const opened = process.env.DATABASE_URL ? undefined : await openTestDataDir("edm-rekey-");
    const dataDir = opened?.dataDir;
    const own = opened?.db ?? (await createTestDb());
    try {
      const parent = await insertDistrict(own, { name: "Startup District", state: "NE" });
      const dedupe = "someone@startup.example.org";
      const old = oldStyleId(`district/${parent}/contacts/${dedupe}`);
      await insert(own, "contacts", {
        id: old,
        district_id: parent,
        is_district_contact: true,
        name: "Some One",
        email: dedupe,
        state: "NE",
        source: "website",
        dedupe_key: dedupe,
        data_source: "extraction",
      });
      if (dataDir) await own.close();
      const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent" };
      if (dataDir) {
        childEnv.DATA_DIR = dataDir;
        delete childEnv.DATABASE_URL;
      } else childEnv.DATABASE_URL = (own as TestDb).url;
      await promisify(execFile)("node", ["scripts/run-ts.js", "bin/cli.ts", "db", "migrate"], {
        cwd: path.resolve(__dirname, "../.."),
        env: childEnv,
      });
      const after = dataDir ? await createDb({ dataDir }) : own;
      try {
        const ids = await after.query<{ id: string }>(`SELECT id FROM contacts WHERE district_id = $1`, [parent]);
        expect(ids).toHaveLength(1);
        expect(ids[0]!.id).not.toBe(old);
        expect(ids[0]!.id[14]).toBe("8");
      } finally {
        if (dataDir) await after.close();
      }
    } finally {
      if (!dataDir) await own.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
