/**
 * The `unlock.extract` job running the real pipeline: a pending unlock of a district whose website_url
 * is a fixture site ends unlocked with extracted rows and its hold committed; one whose site is dead ends
 * failed, the district in `error`, the hold released after the last retry. On both databases.
 */
import { useExtractor } from "../../src/features/account/unlocks/unlock.jobs";
import { pipelineExtractor } from "../../src/features/research/extraction/extraction.extractor";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { deadOrigin, EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "./support/fixture-server";
import { until } from "../support/wait";

const untilLong = <T>(fn: () => Promise<T>, ok: (v: T) => boolean) => until(fn, ok, 90_000);

const FAST = { WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "1", ...EXTRACTION_TEST_ENV };

describe("unlock.extract runs the extraction pipeline", () => {
  let db: TestDb;
  let site: FixtureSite;
  let t: TestApp;
  beforeAll(async () => {
    useExtractor(pipelineExtractor);
    db = await createTestDb();
    site = await serveFixtureSite("cedar-ridge");
    t = await createTestApp(FAST, { jobs: "work", db });
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
    await db?.close();
  });
  afterEach(async () => expect(await ledgerViolations(db)).toEqual(NO_VIOLATIONS));

  const status = (id: string) => t.get(`/api/v1/unlock-status/district/${id}`).then((r) => r.body);

  it("a pending unlock of a district with a fixture website ends unlocked, rows extracted, hold committed", async () => {
    const id = await insertDistrict(db, {
      name: "Cedar Ridge Public Schools",
      state: "NE",
      status: "pending",
      website_url: `${site.origin}/`,
    });
    const res = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }).expect(202);
    expect(res.body).toMatchObject({ outcome: "unlock_pending", credits_held: 6 });
    const done = await untilLong(
      () => status(id),
      (s) => s.state !== "unlock_pending",
    );
    expect(done).toMatchObject({ state: "unlocked", hold_id: res.body.hold_id, job_id: res.body.job_id, error: null });
    expect((await t.get("/api/v1/org").expect(200)).body.credits).toEqual({ balance: 94, held: 0, available: 94 });
    expect(await db.query(`SELECT status FROM credit_holds WHERE id = $1`, [res.body.hold_id])).toEqual([{ status: "committed" }]);

    const [record] = await db.query<Record<string, unknown>>(
      `SELECT status, last_analysis_job_id, retry_count, error_message, website_mapped_at IS NOT NULL AS mapped,
              content_fetched_at IS NOT NULL AS fetched, content_extracted_at IS NOT NULL AS extracted,
              summary_generated_at IS NOT NULL AS summarized, crawled_at IS NOT NULL AS crawled
         FROM districts WHERE id = $1`,
      [id],
    );
    expect(record).toEqual({
      status: "completed",
      last_analysis_job_id: res.body.job_id,
      retry_count: 0,
      error_message: null,
      mapped: true,
      fetched: true,
      extracted: true,
      summarized: true,
      crawled: true,
    });
    // The organization sees what the pipeline extracted (not demo rows).
    const detail = (await t.get(`/api/v1/districts/${id}`).expect(200)).body.data;
    expect(detail._access).toMatchObject({ is_unlocked: true, credits_spent: 6 });
    expect(detail.ai_summary).toMatch(/^Extractive summary/);
    expect(detail.strategic_priorities).toEqual([
      "Literacy for every learner",
      "Safe and supportive schools",
      "Modern learning environments",
      "Fiscal stewardship",
    ]);
    expect(detail.vendors.map((v: { name: string }) => v.name)).toContain("Infinite Campus");
    expect(detail.bids.map((b: { title: string; status: string }) => [b.title, b.status])).toEqual(
      expect.arrayContaining([["RFP 2026-14: Student Transportation Routing Software", "open"]]),
    );
    expect(await db.query(`SELECT count(*)::int AS n FROM contacts WHERE district_id = $1 AND data_source = 'extraction'`, [id])).toEqual([
      { n: 8 },
    ]);
    expect(await db.query(`SELECT job_id, status FROM extraction_runs WHERE entity_id = $1`, [id])).toEqual([
      { job_id: res.body.job_id, status: "completed" },
    ]);
    expect(site.requests.filter((p) => p.startsWith("/private/"))).toEqual([]);
  });

  it("a pending unlock of a district whose site is dead ends failed: status error, hold released after the last retry", async () => {
    const dead = await deadOrigin();
    const before = (await t.get("/api/v1/org", "pro").expect(200)).body.credits;
    const id = await insertDistrict(db, { state: "NE", status: "pending", website_url: `${dead}/` });
    const res = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "pro").expect(202);
    const done = await untilLong(
      () => t.get(`/api/v1/unlock-status/district/${id}`, "pro").then((r) => r.body),
      (s) => s.state !== "unlock_pending",
    );
    expect(done).toMatchObject({ state: "failed", error: expect.stringContaining("site unreachable: ECONNREFUSED") });
    expect((await t.get("/api/v1/org", "pro").expect(200)).body.credits).toEqual(before);
    expect(await db.query(`SELECT status FROM credit_holds WHERE id = $1`, [res.body.hold_id])).toEqual([{ status: "released" }]);
    const [record] = await db.query<Record<string, unknown>>(
      `SELECT status, retry_count, error_message, last_analysis_job_id FROM districts WHERE id = $1`,
      [id],
    );
    // Two attempts (JOB_RETRY_LIMIT 1): the second wrote retry_count 1.
    expect(record).toMatchObject({ status: "error", retry_count: 1, last_analysis_job_id: res.body.job_id });
    expect(String(record.error_message)).toMatch(/^site unreachable: ECONNREFUSED/);
    expect(await db.query(`SELECT status FROM extraction_runs WHERE entity_id = $1 ORDER BY started_at`, [id])).toEqual([
      { status: "error" },
      { status: "error" },
    ]);
  });

  it("a district without a website_url still gets the demo extraction (EXTRACTION_DEMO_FALLBACK), its rows labelled demo", async () => {
    const id = await insertDistrict(db, { state: "NE", status: "pending" });
    await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "free").expect(202);
    const done = await untilLong(
      () => t.get(`/api/v1/unlock-status/district/${id}`, "free").then((r) => r.body),
      (s) => s.state !== "unlock_pending",
    );
    expect(done.state).toBe("unlocked");
    const [record] = await db.query<{ ai_summary: string }>(`SELECT ai_summary FROM districts WHERE id = $1`, [id]);
    expect(record.ai_summary).toMatch(/^Demo summary/);
    expect(await db.query(`SELECT DISTINCT data_source FROM pain_points WHERE district_id = $1`, [id])).toEqual([{ data_source: "demo" }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM extraction_runs WHERE entity_id = $1`, [id])).toEqual([{ n: 0 }]);
  });
});
