/**
 * Issue 20 point 11: `_access.is_unlocking` and GET /unlock-status answer from one definition of a pending
 * unlock (its hold is open), so they agree during a re-extraction; and while the job retries, unlock-status
 * shows the last attempt's error and the number of attempts instead of `error: null`.
 */
import { useExtractor } from "../../src/features/account/unlocks/unlock.jobs";
import { demoExtractor } from "../../src/seed/demo/extractor";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { until } from "../support/wait";

describe("unlock-status and _access.is_unlocking agree; retries show their error and count (issue 20 point 11)", () => {
  // A database per test: a job one test leaves queued (and the queue's retry policy) stays out of the next.
  let db: TestDb;
  let t: TestApp | undefined;
  beforeEach(async () => {
    db = await createTestDb();
  });
  afterEach(async () => {
    useExtractor(demoExtractor);
    await t?.close();
    t = undefined;
    expect(await ledgerViolations(db)).toEqual(NO_VIOLATIONS);
    await db.close();
  });

  it("during a re-extraction: unlock-status unlock_pending and is_unlocking true on the record, the list and GraphQL", async () => {
    t = await createTestApp({}, { jobs: "send", db });
    const id = await insertDistrict(db, { status: "completed", ai_summary: "kept" });
    await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "pro").expect(200);
    await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id, re_extract: true }, "pro").expect(202);

    const status = (await t.get(`/api/v1/unlock-status/district/${id}`, "pro").expect(200)).body;
    const detail = (await t.get(`/api/v1/districts/${id}`, "pro").expect(200)).body.data;
    expect({ state: status.state, ...detail._access }).toMatchObject({ state: "unlock_pending", is_unlocked: true, is_unlocking: true });
    expect(status).toMatchObject({ error: null, attempts: 0 });
    expect(detail.ai_summary).toBe("kept");
    const list = (await t.get(`/api/v1/districts?ids=${id}`, "pro").expect(200)).body.data;
    expect(list.map((d: { _access: unknown }) => d._access)).toEqual([expect.objectContaining({ is_unlocked: true, is_unlocking: true })]);
    const gql = await t.graphql(
      `query($id: UUID!) { district(id: $id) { _access { isUnlocked isUnlocking } } unlockStatus(entityType: district, entityId: $id) { state attempts error } }`,
      { id },
      "pro",
    );
    expect(gql).toEqual({
      data: {
        district: { _access: { isUnlocked: true, isUnlocking: true } },
        unlockStatus: { state: "unlock_pending", attempts: 0, error: null },
      },
    });
    // Another organization sees neither state.
    expect((await t.get(`/api/v1/districts/${id}`, "free").expect(200)).body.data._access).toMatchObject({
      is_unlocked: false,
      is_unlocking: false,
    });
  });

  it("while the job retries, unlock-status shows the last attempt's error and the attempt count; success clears the error", async () => {
    let calls = 0;
    let openGate!: (fail: boolean) => void;
    const gate = new Promise<boolean>((resolve) => (openGate = resolve));
    useExtractor(async (database, entityType, entityId, run) => {
      calls += 1;
      if (calls === 1) throw new Error("site unreachable: ECONNREFUSED (attempt 1)");
      if (calls === 2 && (await gate)) throw new Error("site root not fetched: HTTP 503 (attempt 2)");
      return demoExtractor(database, entityType, entityId, run);
    });
    t = await createTestApp({ WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "3" }, { jobs: "work", db });
    const id = await insertDistrict(db, { status: "pending" });
    const res = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "enterprise").expect(202);
    const status = () => t!.get(`/api/v1/unlock-status/district/${id}`, "enterprise").then((r) => r.body);

    // The second attempt is running (held at the gate): the first one's error and two attempts show.
    await until(
      async () => calls,
      (n) => n >= 2,
    );
    expect(await status()).toMatchObject({
      state: "unlock_pending",
      job_id: res.body.job_id,
      attempts: 2,
      error: "site unreachable: ECONNREFUSED (attempt 1)",
      finished_at: null,
    });
    expect((await t.get(`/api/v1/districts/${id}`, "enterprise").expect(200)).body.data._access).toMatchObject({
      is_unlocked: false,
      is_unlocking: true,
    });

    // The second attempt fails too; the third succeeds.
    openGate(true);
    const done = await until(status, (s) => s.state !== "unlock_pending");
    expect(done).toMatchObject({ state: "unlocked", attempts: 3, error: null });
    expect(calls).toBe(3);
    expect((await t.get(`/api/v1/districts/${id}`, "enterprise").expect(200)).body.data._access).toMatchObject({
      is_unlocked: true,
      is_unlocking: false,
    });
  });

  it("after the last retry: failed, with the final error and every attempt counted", async () => {
    useExtractor(async () => {
      throw new Error("robots.txt answered HTTP 503");
    });
    t = await createTestApp({ WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "1" }, { jobs: "work", db });
    const id = await insertDistrict(db, { status: "pending" });
    await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "pro").expect(202);
    const done = await until(
      () => t!.get(`/api/v1/unlock-status/district/${id}`, "pro").then((r) => r.body),
      (s) => s.state === "failed",
    );
    expect(done).toMatchObject({ state: "failed", attempts: 2, error: "extraction failed: robots.txt answered HTTP 503" });
  });
});
