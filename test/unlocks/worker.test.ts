import { sweepExpiredHolds } from "../../src/features/account/credits/credits.jobs";
import { unlockHoldReleased, useExtractor } from "../../src/features/account/unlocks/unlock.jobs";
import { demoExtractor } from "../../src/seed/demo/extractor";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { until } from "../support/wait";

const FAST = { WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "2" };

describe("the job worker: pending unlocks settle, fail, survive a restart; the sweeper", () => {
  let db: TestDb;
  let t: TestApp | undefined;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterEach(async () => {
    useExtractor(demoExtractor);
    await t?.close();
    t = undefined;
    expect(await ledgerViolations(db)).toEqual(NO_VIOLATIONS);
  });
  afterAll(() => db?.close());

  const status = (app: TestApp, id: string) => app.get(`/api/v1/unlock-status/district/${id}`).then((r) => r.body);

  it("commits the hold when the extraction succeeds: unlocked, charged once, intelligence revealed", async () => {
    t = await createTestApp(FAST, { jobs: "work", db });
    const id = await insertDistrict(db, { status: "pending" });
    const res = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }).expect(202);
    const done = await until(
      () => status(t!, id),
      (s) => s.state === "unlocked",
    );
    expect(done).toMatchObject({ state: "unlocked", hold_id: res.body.hold_id, job_id: res.body.job_id, error: null });
    expect(done.finished_at).not.toBeNull();
    const org = (await t.get("/api/v1/org").expect(200)).body.credits;
    expect(org).toEqual({ balance: 94, held: 0, available: 94 });
    const detail = (await t.get(`/api/v1/districts/${id}`).expect(200)).body.data;
    expect(detail._access).toMatchObject({ is_unlocked: true, is_unlocking: false, credits_spent: 6 });
    expect(detail.status).toBe("completed");
    expect(detail.ai_summary).toEqual(expect.any(String));
  });

  it("releases the hold after the last retry of a failing extraction: failed, nothing charged", async () => {
    let attempts = 0;
    useExtractor(async () => {
      attempts += 1;
      throw new Error("crawl failed");
    });
    t = await createTestApp(FAST, { jobs: "work", db });
    const id = await insertDistrict(db, { status: "pending" });
    await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }).expect(202);
    const done = await until(
      () => status(t!, id),
      (s) => s.state === "failed",
    );
    expect(done).toMatchObject({ state: "failed", error: expect.stringContaining("crawl failed") });
    expect(attempts).toBe(3); // the first attempt and JOB_RETRY_LIMIT retries
    expect((await t.get("/api/v1/org").expect(200)).body.credits).toEqual({ balance: 100, held: 0, available: 100 });
  });

  it("settles a pending unlock after every process restarted", async () => {
    // An API process without a worker accepts the unlock; then it stops.
    const api = await createTestApp(FAST, { jobs: "send", db });
    const id = await insertDistrict(db, { status: "pending" });
    await api.post("/api/v1/unlock", { entity_type: "district", entity_id: id }).expect(202);
    expect((await status(api, id)).state).toBe("unlock_pending");
    await api.close();
    // New processes on the same database (and new test organizations): the worker finds the job and settles it.
    t = await createTestApp(FAST, { jobs: "work", db });
    const state = () => db.prisma.unlock.findFirstOrThrow({ where: { entity_id: id }, select: { state: true, credits_spent: true } });
    expect(await until(state, (s) => s.state === "unlocked")).toEqual({ state: "unlocked", credits_spent: 6 });
  });

  it("the sweeper releases an expired hold exactly once", async () => {
    const api = await createTestApp({ ...FAST, HOLD_TTL_SECONDS: "1" }, { jobs: "send", db });
    const id = await insertDistrict(db, { status: "pending" });
    const res = await api.post("/api/v1/unlock", { entity_type: "district", entity_id: id }).expect(202);
    const later = new Date(Date.now() + 5_000);
    const [a, b] = await Promise.all([sweepExpiredHolds(db, unlockHoldReleased, later), sweepExpiredHolds(db, unlockHoldReleased, later)]);
    expect(a + b).toBe(1);
    expect(await sweepExpiredHolds(db, unlockHoldReleased, later)).toBe(0);
    expect(await status(api, id)).toMatchObject({ state: "failed", error: expect.stringContaining("expired") });
    const releases = await db.query(
      `SELECT count(DISTINCT transfer_id)::int AS n FROM credit_ledger WHERE hold_id = $1 AND kind = 'hold_release'`,
      [res.body.hold_id],
    );
    expect(releases).toEqual([{ n: 1 }]);
    await api.close();
  });
});
