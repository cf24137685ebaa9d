/**
 * Issue 20 point 7: extracted contacts' ids do not derive from their e-mail. Before the fix an id was the
 * version-5 UUID of a namespace in the source and `district/<id>/contacts/<email>`, so a caller who guessed an
 * address could compute the id and read GET /contacts/<id> (200 for a right guess, 404 for a wrong one). Ids
 * are now a keyed hash with a secret generated once per database; a re-extraction still gives the same person
 * the same id.
 */
import crypto from "node:crypto";
import { loadEnv } from "../../src/config/env";
import { runExtractionPipeline } from "../../src/features/research/extraction/pipeline";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "../extraction/support/fixture-server";

const env = loadEnv({ LOG_LEVEL: "silent", ...EXTRACTION_TEST_ENV });

/** The id the pipeline gave a contact before the fix (the namespace is public: it was in the source). */
function oldStyleId(name: string): string {
  const namespace = Buffer.from("3b7e9c2a5d4f4e1a8c6b0f2d9e7a1c54", "hex");
  const bytes = crypto.createHash("sha1").update(namespace).update(name).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe("extracted contact ids are not an e-mail oracle (issue 20 point 7)", () => {
  let db: TestDb;
  let site: FixtureSite;
  let t: TestApp;
  beforeAll(async () => {
    db = await createTestDb();
    site = await serveFixtureSite("cedar-ridge");
    t = await createTestApp({}, { db });
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
    await db?.close();
  });

  const contactsOf = (id: string) =>
    db.query<{ id: string; email: string | null; name: string; discovered_at: Date }>(
      `SELECT id, email, name, discovered_at FROM contacts WHERE district_id = $1 AND data_source = 'extraction' ORDER BY id`,
      [id],
    );

  it("the old-style UUIDv5 of a known extracted e-mail finds nothing (404); the contact's real id serves it", async () => {
    const id = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${site.origin}/` });
    await runExtractionPipeline(db, "district", id, { env });
    const contacts = await contactsOf(id);
    const withEmail = contacts.filter((c) => c.email);
    expect(withEmail.length).toBeGreaterThan(3);
    for (const c of withEmail) {
      const guessed = oldStyleId(`district/${id}/contacts/${c.email!.toLowerCase()}`);
      const res = await t.get(`/api/v1/contacts/${guessed}`, "free");
      expect({ email: c.email, status: res.status, isTheId: guessed === c.id }).toEqual({ email: c.email, status: 404, isTheId: false });
    }
    // The contact is served under its own id, its e-mail gated for a caller who did not unlock it.
    const one = (await t.get(`/api/v1/contacts/${withEmail[0]!.id}`, "free").expect(200)).body.data;
    expect(one).toMatchObject({ id: withEmail[0]!.id, name: withEmail[0]!.name, email: null });
    // No contact id of the run is the version-5 UUID of anything it was keyed by (name|title keys included).
    expect(contacts.every((c) => c.id[14] !== "5")).toBe(true);
  });

  it("a re-extraction keeps every contact's id (and discovered_at); the key is stored once in the database", async () => {
    const id = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${site.origin}/` });
    await runExtractionPipeline(db, "district", id, { env });
    const first = await contactsOf(id);
    expect(first.length).toBe(8);
    const [secret] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM server_secrets`);
    expect(secret).toEqual({ n: 1 });
    await runExtractionPipeline(db, "district", id, { env });
    expect(await contactsOf(id)).toEqual(first);
    // Another district's staff at the same addresses get other ids (ids are scoped to the entity).
    const other = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${site.origin}/` });
    await runExtractionPipeline(db, "district", other, { env });
    const theirs = new Set((await contactsOf(other)).map((c) => c.id));
    expect(first.filter((c) => theirs.has(c.id))).toEqual([]);
  });

  it("a contact stored under another id (a version-5 id written before the fix) keeps it when extracted again", async () => {
    const id = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${site.origin}/` });
    await runExtractionPipeline(db, "district", id, { env });
    const [one] = (await contactsOf(id)).filter((c) => c.email);
    const legacy = oldStyleId(`district/${id}/contacts/${one!.email!.toLowerCase()}`);
    await db.query(`UPDATE contacts SET id = $2 WHERE id = $1`, [one!.id, legacy]);
    await runExtractionPipeline(db, "district", id, { env });
    const after = await contactsOf(id);
    expect(after.find((c) => c.email === one!.email)?.id).toBe(legacy);
    expect(after.length).toBe(8);
  });
});
