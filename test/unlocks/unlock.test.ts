import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";

describe("POST /unlock: instant, idempotent, pending, 402, batch, Idempotency-Key", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send" });
  });
  afterAll(() => t?.close());
  afterEach(async () => expect(await ledgerViolations(t.db)).toEqual(NO_VIOLATIONS));

  const available = async (plan: "pro" | "enterprise" | "free" = "enterprise") =>
    (await t.get("/api/v1/org", plan).expect(200)).body.credits;

  it("unlocks an extracted district instantly (200), then answers idempotent (200, 0 charged); _access follows", async () => {
    const id = await insertDistrict(t.db, { status: "completed", ai_summary: "secret" });
    const before = await t.get(`/api/v1/districts/${id}`).expect(200);
    expect(before.body.data._access).toMatchObject({ is_unlocked: false, is_unlocking: false, unlock_cost: 6, credits_spent: 0 });
    expect(before.body.data.ai_summary).toBeNull();

    const res = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id, channel: "api" }).expect(200);
    expect(res.body).toEqual({
      entity_type: "district",
      entity_id: id,
      outcome: "unlocked",
      unlocked: true,
      already_unlocked: false,
      credits_charged: 6,
      credits_held: 0,
      credits_remaining: 94,
      hold_id: null,
      operation_key: expect.any(String),
      job_id: null,
      message: expect.any(String),
    });
    const after = await t.get(`/api/v1/districts/${id}`).expect(200);
    expect(after.body.data._access).toMatchObject({ is_unlocked: true, is_unlocking: false, credits_spent: 6, unlock_cost: 6 });
    expect(after.body.data.ai_summary).toBe("secret");

    const again = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }).expect(200);
    expect(again.body).toMatchObject({
      outcome: "idempotent",
      unlocked: true,
      already_unlocked: true,
      credits_charged: 0,
      credits_remaining: 94,
    });
    expect(await available()).toEqual({ balance: 94, held: 0, available: 94 });
    const status = await t.get(`/api/v1/unlock-status/district/${id}`).expect(200);
    expect(status.body).toMatchObject({ entity_type: "district", entity_id: id, state: "unlocked", error: null });
  });

  it("holds credits for a district without extraction (202 unlock_pending, hold and job ids)", async () => {
    const id = await insertDistrict(t.db, { status: "pending" });
    const res = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "pro").expect(202);
    expect(res.body).toMatchObject({
      outcome: "unlock_pending",
      unlocked: false,
      already_unlocked: false,
      credits_charged: 0,
      credits_held: 6,
      credits_remaining: 94,
      hold_id: expect.any(String),
      job_id: expect.any(String),
    });
    expect(await available("pro")).toEqual({ balance: 100, held: 6, available: 94 });
    const detail = await t.get(`/api/v1/districts/${id}`, "pro").expect(200);
    expect(detail.body.data._access).toMatchObject({ is_unlocked: false, is_unlocking: true });
    const status = await t.get(`/api/v1/unlock-status/district/${id}`, "pro").expect(200);
    expect(status.body).toMatchObject({ state: "unlock_pending", hold_id: res.body.hold_id, job_id: res.body.job_id, finished_at: null });
    // a second unlock while pending holds nothing more
    const again = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "pro").expect(202);
    expect(again.body).toMatchObject({ outcome: "unlock_pending", credits_held: 0, hold_id: res.body.hold_id });
    expect(await available("pro")).toEqual({ balance: 100, held: 6, available: 94 });
  });

  it("refuses with 402 insufficient_credits naming balance and required", async () => {
    const org = t.orgs.free;
    await t.db.prisma.$transaction(async (tx) => {
      const { grant } = await import("../../src/features/account/credits/credits.service");
      await grant(tx, org, 1, "test"); // credits are whole numbers (issue 20 point 10)
    });
    // spend down: 101 - 6*16 = 5 available, then one more needs 6
    for (let i = 0; i < 16; i += 1) {
      const id = await insertDistrict(t.db, { status: "completed" });
      await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "free").expect(200);
    }
    const id = await insertDistrict(t.db, { status: "completed" });
    const res = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "free").expect(402);
    expect(res.body).toEqual({
      error: "insufficient_credits",
      message: expect.any(String),
      statusCode: 402,
      balance: 5,
      required: 6,
    });
    expect((await t.get(`/api/v1/unlock-status/district/${id}`, "free").expect(200)).body.state).toBe("locked");
  });

  it("answers a batch 200 with each item decided on its own, in order", async () => {
    const a = await insertDistrict(t.db, { status: "completed" });
    const b = await insertDistrict(t.db, { status: "pending" });
    const missing = "00000000-0000-4000-8000-00000000dead";
    const res = await t
      .post(
        "/api/v1/unlock",
        {
          entities: [
            { entity_type: "district", entity_id: a },
            { entity_type: "district", entity_id: missing },
            { entity_type: "district", entity_id: b },
            { entity_type: "district", entity_id: a },
          ],
        },
        "internal",
      )
      .expect(200);
    expect(res.body.results).toEqual([
      expect.objectContaining({ entity_id: a, outcome: "unlocked", credits_charged: 6 }),
      { error: "not_found", message: expect.stringContaining(missing), statusCode: 404 },
      expect.objectContaining({ entity_id: b, outcome: "unlock_pending", credits_held: 6 }),
      expect.objectContaining({ entity_id: a, outcome: "idempotent", credits_charged: 0 }),
    ]);
  });

  it("rejects bad bodies with 400 naming the problem and writes nothing", async () => {
    const id = await insertDistrict(t.db, { status: "completed" });
    const bad = async (body: unknown, text: string) => {
      const res = await t.post("/api/v1/unlock", body, "internal").expect(400);
      expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
      expect(res.body.message).toContain(text);
    };
    await bad({ entity_id: id }, "entity_type");
    await bad({ entity_type: "planet", entity_id: id }, "entity_type");
    await bad({ entity_type: "district", entity_id: id, channel: "fax" }, "channel");
    await bad({ entity_type: "district", entity_id: id, colour: 1 }, "colour");
    await bad({ entity_type: "contact", entity_id: id, re_extract: true }, "re_extract");
    await bad({ entity_type: "district", entity_id: id, entities: [] }, "entities");
    expect((await t.get(`/api/v1/unlock-status/district/${id}`, "internal").expect(200)).body.state).toBe("locked");
  });

  it("re_extract on an unlocked district holds and charges again (202), keeping access", async () => {
    const id = await insertDistrict(t.db, { status: "completed" });
    await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "internal").expect(200);
    const res = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id, re_extract: true }, "internal").expect(202);
    expect(res.body).toMatchObject({ outcome: "unlock_pending", unlocked: true, already_unlocked: true, credits_held: 6 });
    const detail = await t.get(`/api/v1/districts/${id}`, "internal").expect(200);
    expect(detail.body.data._access.is_unlocked).toBe(true);
    expect((await t.get(`/api/v1/unlock-status/district/${id}`, "internal").expect(200)).body.state).toBe("unlock_pending");
  });

  it("Idempotency-Key: same key and body replays the first response; another body is 409", async () => {
    const id = await insertDistrict(t.db, { status: "completed" });
    const other = await insertDistrict(t.db, { status: "completed" });
    const send = (body: unknown) => t.post("/api/v1/unlock", body, "pro").set("Idempotency-Key", "key-1");
    const first = await send({ entity_type: "district", entity_id: id }).expect(200);
    expect(first.body).toMatchObject({ outcome: "unlocked", operation_key: "key-1" });
    const replay = await send({ entity_id: id, entity_type: "district" }).expect(200);
    expect(replay.body).toEqual(first.body);
    const conflict = await send({ entity_type: "district", entity_id: other }).expect(409);
    expect(conflict.body).toMatchObject({ error: "conflict", statusCode: 409 });
    expect((await t.get(`/api/v1/unlock-status/district/${other}`, "pro").expect(200)).body.state).toBe("locked");
  });

  it("is the GraphQL mutation unlock and query unlockStatus", async () => {
    const id = await insertDistrict(t.db, { status: "completed" });
    const res = await t.graphql(
      `mutation($id: UUID!) { unlock(input: { entityType: district, entityId: $id }) { statusCode result { outcome creditsCharged } } }`,
      { id },
      "internal",
    );
    expect(res).toEqual({ data: { unlock: { statusCode: 200, result: { outcome: "unlocked", creditsCharged: 6 } } } });
    const status = await t.graphql(`query($id: UUID!) { unlockStatus(entityType: district, entityId: $id) { state } }`, { id }, "internal");
    expect(status.data.unlockStatus.state).toBe("unlocked");
  });

  it("charges once for 20 concurrent unlocks of one entity", async () => {
    const id = await insertDistrict(t.db, { status: "completed" });
    const before = (await available("enterprise")).available;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "enterprise")),
    );
    expect(results.map((r) => r.status).sort()).toEqual(Array(20).fill(200));
    expect(results.filter((r) => r.body.outcome === "unlocked")).toHaveLength(1);
    expect((await available("enterprise")).available).toBe(before - 6);
  });

  it("never overdraws: 20 concurrent unlocks of different entities with credits for 5", async () => {
    const { organizationId } = await (
      await import("../../src/features/account/organizations/organization.service")
    ).createOrganization(t.db, {
      name: "Five",
      plan: "pro",
      credits: 30,
    });
    const key = (await createApiKey(t.db, organizationId)).apiKey;
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => insertDistrict(t.db, { status: i % 2 ? "completed" : "pending" })));
    const results = await Promise.all(
      ids.map((id) => t.http.post("/api/v1/unlock").set("Authorization", `Bearer ${key}`).send({ entity_type: "district", entity_id: id })),
    );
    expect(results.filter((r) => r.status === 200 || r.status === 202)).toHaveLength(5);
    expect(results.filter((r) => r.status === 402)).toHaveLength(15);
    const org = await t.db.prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    const held = await t.db.prisma.creditHold.aggregate({
      where: { organization_id: organizationId, status: "open" },
      _sum: { amount: true },
    });
    expect(Number(org.credit_balance) - Number(held._sum.amount ?? 0)).toBe(0); // BIGINT columns read as bigint
  });
});
