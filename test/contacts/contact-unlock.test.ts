import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { createTestApp, type TestApp } from "../support/app";
import { insertUnlock } from "../support/school-factories";
import { insertContactCatalogue, type ContactCatalogue } from "./fixtures";

/** POST /unlock for contacts: cost 2, PARENT_ENTITY_LOCKED, instant vs pending, re_extract refused, 404 for unlisted contacts. */
describe("contact unlock through the unlock orchestrator", () => {
  let t: TestApp;
  let k: ContactCatalogue;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send" });
    k = await insertContactCatalogue(t.db);
  });
  afterAll(() => t?.close());
  afterEach(async () => {
    expect(await ledgerViolations(t.db)).toEqual(NO_VIOLATIONS);
    await t.db.query(`DELETE FROM unlocks`);
  });

  const credits = async (plan: "pro" | "enterprise" | "internal" | "free") => (await t.get("/api/v1/org", plan).expect(200)).body.credits;
  const unlock = (body: Record<string, unknown>, plan: "pro" | "enterprise" | "internal" | "free" = "enterprise") =>
    t.post("/api/v1/unlock", body, plan);
  const contact = async (id: string, plan: "pro" | "enterprise" | "internal" | "free" = "enterprise") =>
    (await t.get(`/api/v1/contacts/${id}`, plan).expect(200)).body.data;

  it("refuses 403 PARENT_ENTITY_LOCKED with the parent's type, id and unlock cost while the parent is locked; nothing moves", async () => {
    const before = await credits("free");
    const district = await unlock({ entity_type: "contact", entity_id: k.c.gus }, "free").expect(403);
    expect(district.body).toEqual({
      error: "PARENT_ENTITY_LOCKED",
      message: expect.stringContaining(k.d.beta),
      statusCode: 403,
      parent_entity_type: "district",
      parent_entity_id: k.d.beta,
      unlock_cost: 6,
    });
    // A school-level contact's parent is its school, even when its district is unlocked.
    await insertUnlock(t.db, t.orgs.free, "district", k.d.alpha);
    const school = await unlock({ entity_type: "contact", entity_id: k.c.cara }, "free").expect(403);
    expect(school.body).toMatchObject({
      error: "PARENT_ENTITY_LOCKED",
      parent_entity_type: "school",
      parent_entity_id: k.s.adams,
      unlock_cost: 6,
    });
    // A pending parent unlock is still locked.
    await insertUnlock(t.db, t.orgs.free, "school", k.s.adams, "unlock_pending");
    await unlock({ entity_type: "contact", entity_id: k.c.cara }, "free").expect(403);
    expect(await credits("free")).toEqual(before);
    expect((await t.get(`/api/v1/unlock-status/contact/${k.c.cara}`, "free").expect(200)).body.state).toBe("locked");
  });

  it("unlocks an enriched contact instantly for 2 credits once its parent is unlocked; then idempotent; gated fields revealed", async () => {
    await unlock({ entity_type: "district", entity_id: k.d.alpha }, "pro").expect(200);
    const before = await credits("pro");
    const res = await unlock({ entity_type: "contact", entity_id: k.c.ada, channel: "api" }, "pro").expect(200);
    expect(res.body).toMatchObject({
      entity_type: "contact",
      entity_id: k.c.ada,
      outcome: "unlocked",
      unlocked: true,
      already_unlocked: false,
      credits_charged: 2,
      credits_held: 0,
      credits_remaining: before.available - 2,
      hold_id: null,
      job_id: null,
    });
    const record = await contact(k.c.ada, "pro");
    expect(record).toMatchObject({ email: "ada@alpha.example.org", phone: "(402) 555-0101" });
    expect(record._access).toMatchObject({ is_unlocked: true, is_unlocking: false, credits_spent: 2, unlock_cost: 2 });
    expect(record._access.unlocked_at).toEqual(expect.any(String));
    const again = await unlock({ entity_type: "contact", entity_id: k.c.ada }, "pro").expect(200);
    expect(again.body).toMatchObject({ outcome: "idempotent", credits_charged: 0, credits_remaining: before.available - 2 });
    expect(await credits("pro")).toEqual({ balance: before.balance - 2, held: 0, available: before.available - 2 });
    expect((await t.get(`/api/v1/unlock-status/contact/${k.c.ada}`, "pro").expect(200)).body.state).toBe("unlocked");
    // Tenant isolation: the other organizations still see Ada locked, in the list and the summary.
    expect((await contact(k.c.ada)).email).toBeNull();
    const list = (await t.get("/api/v1/contacts?search=lovelace").expect(200)).body;
    expect(list._access_summary).toMatchObject({ unlocked: 0, total_results: 1 });
    const own = (await t.get("/api/v1/contacts?search=lovelace", "pro").expect(200)).body;
    expect(own._access_summary).toEqual({ total_results: 1, unlocked: 1, locked_processed: 0, locked_unprocessed: 0, unlock_all_cost: 0 });
  });

  it("holds 2 credits for a contact whose enrichment has not completed (202 unlock_pending, is_unlocking)", async () => {
    await insertUnlock(t.db, t.orgs.enterprise, "district", k.d.alpha);
    const before = await credits("enterprise");
    const res = await unlock({ entity_type: "contact", entity_id: k.c.bob }).expect(202);
    expect(res.body).toMatchObject({
      outcome: "unlock_pending",
      unlocked: false,
      credits_charged: 0,
      credits_held: 2,
      credits_remaining: before.available - 2,
      hold_id: expect.any(String),
      job_id: expect.any(String),
    });
    expect(await credits("enterprise")).toEqual({ balance: before.balance, held: 2, available: before.available - 2 });
    const record = await contact(k.c.bob);
    expect(record._access).toMatchObject({ is_unlocked: false, is_unlocking: true });
    expect(record.email).toBeNull();
    expect((await t.get(`/api/v1/unlock-status/contact/${k.c.bob}`).expect(200)).body).toMatchObject({
      state: "unlock_pending",
      hold_id: res.body.hold_id,
    });
    // The same request again holds nothing more.
    const again = await unlock({ entity_type: "contact", entity_id: k.c.bob }).expect(202);
    expect(again.body).toMatchObject({ outcome: "unlock_pending", credits_held: 0, hold_id: res.body.hold_id });
  });

  it("refuses re_extract on a contact with 400, unlocked or not", async () => {
    await insertUnlock(t.db, t.orgs.internal, "district", k.d.alpha);
    await unlock({ entity_type: "contact", entity_id: k.c.ada }, "internal").expect(200);
    for (const id of [k.c.ada, k.c.bob]) {
      const res = await unlock({ entity_type: "contact", entity_id: id, re_extract: true }, "internal").expect(400);
      expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400, message: expect.stringContaining("re_extract") });
    }
    const batch = await unlock({ entities: [{ entity_type: "contact", entity_id: k.c.ada }], re_extract: true }, "internal").expect(400);
    expect(batch.body.message).toContain("re_extract");
  });

  it("answers 404 for a contact that is not listed (parent not extracted, no parent) or does not exist", async () => {
    for (const id of [...Object.values(k.hidden), "00000000-0000-4000-8000-000000000000"]) {
      const res = await unlock({ entity_type: "contact", entity_id: id }, "internal").expect(404);
      expect(res.body).toMatchObject({ error: "not_found", statusCode: 404 });
      await t.get(`/api/v1/unlock-status/contact/${id}`, "internal").expect(404);
    }
  });

  it("decides each contact of a batch on its own: PARENT_ENTITY_LOCKED items carry the parent's fields", async () => {
    await insertUnlock(t.db, t.orgs.internal, "district", k.d.alpha);
    const res = await unlock(
      {
        entities: [
          { entity_type: "contact", entity_id: k.c.gus },
          { entity_type: "contact", entity_id: k.c.ada },
        ],
      },
      "internal",
    ).expect(200);
    expect(res.body.results).toEqual([
      {
        error: "PARENT_ENTITY_LOCKED",
        message: expect.any(String),
        statusCode: 403,
        parent_entity_type: "district",
        parent_entity_id: k.d.beta,
        unlock_cost: 6,
      },
      expect.objectContaining({ entity_id: k.c.ada, outcome: expect.stringMatching(/^(unlocked|idempotent)$/), unlocked: true }),
    ]);
  });
});
