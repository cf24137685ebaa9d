/**
 * Issue 20 point 8: one organization's re-extraction never makes an extracted entity unbuyable for the others.
 * Before the fix a re-run set the catalogue row to `processing` at its start and to `error` when the site
 * was unreachable; another organization's unlock was then 202 pending, failed and released its hold although
 * the extracted rows were still stored. Now the last good extraction keeps serving (status `completed`, instant
 * unlocks: 200, charged, data visible) while a re-run is in flight and after it failed; the run records the
 * failure (`extraction_runs`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { useExtractor } from "../../src/features/account/unlocks/unlock.jobs";
import { pipelineExtractor } from "../../src/features/research/extraction/extraction.extractor";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { until } from "../support/wait";
import { EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "./support/fixture-server";

const untilLong = <T>(fn: () => Promise<T>, ok: (v: T) => boolean) => until(fn, ok, 90_000);
const FAST = { WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "1", ...EXTRACTION_TEST_ENV };

/** A site that accepts requests and answers none until released; afterwards every connection is dropped. */
async function hangingSite() {
  const held: http.ServerResponse[] = [];
  let released = false;
  const server = http.createServer((_req, res) => {
    if (released) return void res.destroy();
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => held.length,
    release() {
      released = true;
      for (const res of held) res.destroy();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("a failed or running re-extraction leaves the last good extraction serving (issue 20 point 8)", () => {
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

  it("extract OK, re-extract against an unreachable site: others unlock instantly (200, charged, old data) while it runs and after it failed", async () => {
    const id = await insertDistrict(db, {
      name: "Cedar Ridge Public Schools",
      state: "NE",
      status: "pending",
      website_url: `${site.origin}/`,
    });
    const status = (plan: "enterprise" | "pro" | "free") => t.get(`/api/v1/unlock-status/district/${id}`, plan).then((r) => r.body);
    await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }).expect(202);
    expect(
      await untilLong(
        () => status("enterprise"),
        (s) => s.state !== "unlock_pending",
      ),
    ).toMatchObject({ state: "unlocked" });
    const extracted = (await t.get(`/api/v1/districts/${id}`).expect(200)).body.data;
    expect(extracted.ai_summary).toMatch(/^Extractive summary/);

    // The site goes away; the first organization asks for a re-extraction.
    const hang = await hangingSite();
    try {
      await db.query(`UPDATE districts SET website_url = $2 WHERE id = $1`, [id, `${hang.origin}/`]);
      const again = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id, re_extract: true }).expect(202);
      await untilLong(
        async () => hang.requests(),
        (n) => n > 0,
      );

      // In flight: the catalogue row still describes the served extraction; another organization buys it at once.
      const during = (await t.get(`/api/v1/districts/${id}`, "pro").expect(200)).body.data;
      expect(during).toMatchObject({ status: "completed", error_message: null });
      const pro = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "pro");
      expect({ status: pro.status, outcome: pro.body.outcome, charged: pro.body.credits_charged, held: pro.body.credits_held }).toEqual({
        status: 200,
        outcome: "unlocked",
        charged: 6,
        held: 0,
      });
      const proView = (await t.get(`/api/v1/districts/${id}`, "pro").expect(200)).body.data;
      expect(proView.ai_summary).toBe(extracted.ai_summary);
      expect(proView.vendors).toEqual(extracted.vendors);

      // The re-run fails (every attempt): the failure is on the runs, the requester keeps its access.
      hang.release();
      const done = await untilLong(
        () => status("enterprise"),
        (s) => s.state !== "unlock_pending",
      );
      expect(done).toMatchObject({ state: "unlocked", hold_id: again.body.hold_id, error: expect.stringContaining("extraction failed") });
      expect(await db.query(`SELECT status FROM credit_holds WHERE id = $1`, [again.body.hold_id])).toEqual([{ status: "released" }]);
    } finally {
      hang.release();
      await hang.close();
    }

    const [row] = await db.query<Record<string, unknown>>(`SELECT status, error_message, ai_summary FROM districts WHERE id = $1`, [id]);
    expect(row).toEqual({ status: "completed", error_message: null, ai_summary: extracted.ai_summary });
    const runs = await db.query<{ status: string; failed: boolean; finished: boolean }>(
      `SELECT status, error_message IS NOT NULL AS failed, finished_at IS NOT NULL AS finished FROM extraction_runs WHERE entity_id = $1 ORDER BY started_at`,
      [id],
    );
    expect(runs).toEqual([
      { status: "completed", failed: false, finished: true },
      { status: "error", failed: true, finished: true },
      { status: "error", failed: true, finished: true },
    ]);

    // After the failure: a third organization's unlock is instant too, with the old data.
    const before = (await t.get("/api/v1/org", "free").expect(200)).body.credits.available;
    const free = await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "free");
    expect({ status: free.status, outcome: free.body.outcome, charged: free.body.credits_charged }).toEqual({
      status: 200,
      outcome: "unlocked",
      charged: 6,
    });
    expect((await t.get("/api/v1/org", "free").expect(200)).body.credits.available).toBe(before - 6);
    const freeView = (await t.get(`/api/v1/districts/${id}`, "free").expect(200)).body.data;
    expect(freeView).toMatchObject({ status: "completed", ai_summary: extracted.ai_summary, _access: { is_unlocked: true } });
    expect(freeView.vendors).toEqual(extracted.vendors);
    // Its contacts stay listed for everyone.
    expect((await t.get(`/api/v1/contacts?district_id=${id}`, "free").expect(200)).body.pagination.total).toBe(8);
  });

  it("a first extraction that fails still marks the entity error (nothing was ever extracted)", async () => {
    const hang = await hangingSite();
    hang.release();
    try {
      const id = await insertDistrict(db, { state: "NE", status: "pending", website_url: `${hang.origin}/` });
      await t.post("/api/v1/unlock", { entity_type: "district", entity_id: id }, "pro").expect(202);
      const done = await untilLong(
        () => t.get(`/api/v1/unlock-status/district/${id}`, "pro").then((r) => r.body),
        (s) => s.state !== "unlock_pending",
      );
      expect(done.state).toBe("failed");
      expect(await db.query(`SELECT status FROM districts WHERE id = $1`, [id])).toEqual([{ status: "error" }]);
    } finally {
      await hang.close();
    }
  });
});
