/**
 * kill -9 of real processes mid-work (issue 26, faults; docs/operations.md "Faults"): `serve --role api|worker`
 * processes on one PostgreSQL database, each stopped with SIGKILL at a pause point it reached
 * (EDMARKET_FAULT_PAUSE_AT, src/fault-points.ts), so every kill lands at a known place without racing a timer:
 *
 * - an API process inside an unlock's transaction (hold and extraction job written, not committed), with an
 *   Idempotency-Key, while another API process's unlock of the same organization waits on its money lock;
 * - a worker in each stage at once: the extraction's store transaction (unlock.extract), a feed poll after its first
 *   article was stored (news.poll_feed), a brief build's transaction after the brief was marked ready (briefs.build);
 * - the next worker inside the unlock job's settle transaction, after the hold was committed in it;
 * - a last worker with no pause point.
 *
 * Then: nothing of the killed transaction exists, the key's reservation is taken over once stale, every job was retried (a dead worker's job
 * comes back after JOB_HEARTBEAT_SECONDS) and finished, each hold was committed exactly once, the extraction, the
 * feed's articles and signals equal a clean run's on a fresh database, nothing stays "running" or "polling", and the
 * ledger invariants hold. A second test kills the last attempt (JOB_RETRY_LIMIT=0): the job is failed by its rule
 * (the hold released and the unlock failed, the brief failed) through the dead letter queue.
 * PostgreSQL only: several processes share the database (embedded PGlite is one process's).
 */
import { loadEnv } from "../../src/config/env";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization, createProject } from "../../src/features/account/organizations/organization.service";
import { runExtractionPipeline } from "../../src/features/research/extraction/pipeline";
import { addFeed, pollFeed } from "../../src/features/research/news/ingest/feeds.service";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "../extraction/support/fixture-server";
import { NEWS_TEST_ENV, serveNewsSite, type NewsSite } from "../news/support/news-server";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { lockWaiters, until } from "../support/wait";
import { killAll, serve, type Server } from "./support/processes";

const pg = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL)
  console.log("test/faults/process-kill.test.ts skipped: it needs PostgreSQL (DATABASE_URL); embedded PGlite serves one process only");

const CREDITS = 1000;
const COST = 6;
const ENV = {
  ...EXTRACTION_TEST_ENV,
  ...NEWS_TEST_ENV,
  WORKER_POLL_SECONDS: "0.5",
  JOB_RETRY_DELAY_SECONDS: "0",
  JOB_HEARTBEAT_SECONDS: "10",
  JOB_RETRY_LIMIT: "3",
  NEWS_FETCH_CONCURRENCY: "1",
  // An Idempotency-Key reservation whose request never finished (its process was killed) is taken over after this.
  IDEMPOTENCY_STALE_SECONDS: "10",
  LOG_LEVEL: "info",
};
/** A dead worker's job comes back after its heartbeat lapses and a supervisor notices: about two heartbeats, plus a loaded machine. */
const RETRY_MS = 120_000;

/** Rows an extraction wrote for a district, by table. */
const EXTRACTED = `SELECT (SELECT count(*) FROM contacts WHERE district_id = $1 AND school_id IS NULL)::int AS contacts,
  (SELECT count(*) FROM entity_vendors WHERE district_id = $1)::int AS vendors,
  (SELECT count(*) FROM pain_points WHERE district_id = $1)::int AS pain_points,
  (SELECT count(*) FROM funding WHERE district_id = $1)::int AS funding,
  (SELECT count(*) FROM contracts WHERE district_id = $1)::int AS contracts,
  (SELECT count(*) FROM bids WHERE district_id = $1)::int AS bids,
  (SELECT count(*) FROM timeline_events WHERE entity_id = $1)::int AS timeline_events,
  (SELECT jsonb_array_length(coalesce(strategic_priorities, '[]'::jsonb)) FROM districts WHERE id = $1)::int AS priorities`;

/** A feed's articles as a clean poll leaves them: each analysed once, with its signals. */
const FEED_ARTICLES = `SELECT a.url, a.origin, a.text_source, a.analyzed_at IS NOT NULL AS analyzed,
  (SELECT count(*) FROM signals s WHERE s.article_id = a.id)::int AS signals
  FROM articles a WHERE a.feed_id = $1 ORDER BY a.url`;

pg("kill -9 of API and worker processes mid-work", () => {
  let db: TestDb;
  let site: FixtureSite;
  let news: NewsSite;
  let organizationId: string;
  let apiKey: string;
  let projectId: string;

  beforeAll(async () => {
    [db, site, news] = await Promise.all([createTestDb(), serveFixtureSite("cedar-ridge"), serveNewsSite()]);
    news.setPage("atom-one", [
      "Maple Grove Public Schools will add two new elementary schools as enrollment grows, the board said. ".repeat(3),
    ]);
  });
  afterAll(async () => {
    await killAll();
    await Promise.all([site?.close(), news?.close()]);
    await db?.close();
  });

  async function organization(database: TestDb): Promise<void> {
    ({ organizationId } = await createOrganization(database, { name: "Faults", plan: "enterprise", credits: CREDITS }));
    ({ apiKey } = await createApiKey(database, organizationId));
    ({ projectId } = await createProject(database, organizationId, "Faults"));
  }

  const post = (server: Server, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }),
      (error: Error) => ({ status: 0, body: { transport: error.message } as Record<string, any> }),
    );
  const get = (server: Server, path: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } }).then((r) => r.json() as Promise<Record<string, any>>);
  const one = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params))[0]!;
  const jobOf = (id: string) =>
    one<{ state: string; retry_count: number }>(`SELECT state::text, retry_count FROM pgboss.job WHERE id = $1`, [id]);

  /** A district whose website is the fixture site, not yet extracted. */
  const siteDistrict = (database: TestDb) =>
    insertDistrict(database, { name: "Cedar Ridge Public Schools", state: "NE", status: "pending", website_url: `${site.origin}/` });

  /** The extraction of the same site and a poll of the same feed, run in this process without a kill, on a fresh database. */
  async function runCleanly(): Promise<{ extracted: unknown; articles: unknown[] }> {
    const clean = await createTestDb();
    try {
      const env = loadEnv({ ...process.env, ...ENV });
      const reference = await siteDistrict(clean);
      await runExtractionPipeline(clean, "district", reference, { env });
      const { feed } = await addFeed(clean, `${news.origin}/feeds/atom.xml`);
      await pollFeed(clean, env, feed.id);
      return { extracted: (await clean.query(EXTRACTED, [reference]))[0], articles: await clean.query(FEED_ARTICLES, [feed.id]) };
    } finally {
      await clean.close();
    }
  }

  it("an API process and three workers killed mid-transaction and mid-job: nothing lost, nothing settled twice, every job retried", async () => {
    await organization(db);
    const extracted = await siteDistrict(db);
    const instant = await insertDistrict(db, { status: "completed" });
    const keyed = await insertDistrict(db, { status: "pending" });
    const briefed = await insertDistrict(db, { name: "Brief District", state: "NE" });
    const { feed } = await addFeed(db, `${news.origin}/feeds/atom.xml`);
    const cleanRun = runCleanly();
    cleanRun.catch(() => undefined); // awaited at the end; a failure before that must not be unhandled

    // The API processes first (the first migrates nothing: the test database is migrated), then the first worker.
    const [api, doomedApi] = await Promise.all([
      serve("api", { ...ENV, DATABASE_URL: db.url }),
      serve("api", { ...ENV, DATABASE_URL: db.url, EDMARKET_FAULT_PAUSE_AT: "unlock.hold" }),
    ]);

    // 1. The API process dies inside the keyed unlock's transaction, which holds the organization's money lock.
    const KEY = "faults-keyed-unlock";
    const doomed = post(doomedApi, "/api/v1/unlock", { entity_type: "district", entity_id: keyed }, { "idempotency-key": KEY });
    await doomedApi.waitForFaultPoint("unlock.hold");
    const waiting = post(api, "/api/v1/unlock", { entity_type: "district", entity_id: instant });
    await until(
      () => lockWaiters(db),
      (n) => n >= 1,
      30_000,
    );
    await doomedApi.kill9();
    expect((await doomed).status).toBe(0); // its client saw the connection end
    expect(await waiting).toMatchObject({ status: 200, body: { outcome: "unlocked" } });
    // Nothing of the killed transaction exists: no hold, no job, no unlock; only the key's reservation.
    expect(await db.query(`SELECT 1 FROM credit_holds WHERE entity_id = $1`, [keyed])).toEqual([]);
    expect(await db.query(`SELECT 1 FROM unlocks WHERE entity_id = $1`, [keyed])).toEqual([]);
    expect(await db.query(`SELECT 1 FROM pgboss.job WHERE name = 'unlock.extract' AND data->>'entityId' = $1`, [keyed])).toEqual([]);
    expect(await db.query(`SELECT finished_at FROM idempotency_keys WHERE key = $1`, [KEY])).toEqual([{ finished_at: null }]);

    // 2. A worker paused in each stage at once, then killed.
    const first = await serve("worker", {
      ...ENV,
      DATABASE_URL: db.url,
      EDMARKET_FAULT_PAUSE_AT: "extraction.store,news.ingest,brief.ready",
    });
    const unlocked = await post(api, "/api/v1/unlock", { entity_type: "district", entity_id: extracted });
    expect(unlocked).toMatchObject({ status: 202, body: { outcome: "unlock_pending" } });
    const brief = await post(api, "/api/v1/briefs", { project_id: projectId, entity_type: "district", entity_id: briefed });
    expect(brief).toMatchObject({ status: 202, body: { status: "building" } });
    await Promise.all(["extraction.store", "news.ingest", "brief.ready"].map((point) => first.waitForFaultPoint(point)));
    const [briefJob] = await db.query<{ id: string }>(`SELECT id::text FROM pgboss.job WHERE name = 'briefs.build'`);
    const [pollJob] = await db.query<{ id: string }>(`SELECT id::text FROM pgboss.job WHERE name = 'news.poll_feed'`);
    expect(await one(`SELECT last_status, claimed_by FROM news_feeds WHERE id = $1`, [feed.id])).toEqual({
      last_status: "polling",
      claimed_by: pollJob!.id,
    });
    await first.kill9();

    // 3. The next worker takes the three jobs over once their heartbeats lapsed; it dies settling the unlock's hold.
    const second = await serve("worker", { ...ENV, DATABASE_URL: db.url, EDMARKET_FAULT_PAUSE_AT: "unlock.settle" });
    await second.waitForFaultPoint("unlock.settle", RETRY_MS);
    await until(
      () => jobOf(briefJob!.id),
      (j) => j.state === "completed",
      RETRY_MS,
    );
    await until(
      () => jobOf(pollJob!.id),
      (j) => j.state === "completed",
      RETRY_MS,
    );
    await second.kill9();

    // 4. A worker without pause points; the key's retry takes the abandoned reservation over (once it is stale).
    const last = await serve("worker", { ...ENV, DATABASE_URL: db.url });
    const retried = await until(
      () => post(api, "/api/v1/unlock", { entity_type: "district", entity_id: keyed }, { "idempotency-key": KEY }),
      (r) => r.status !== 409,
      60_000,
    );
    expect(retried).toMatchObject({ status: 202, body: { outcome: "unlock_pending" } });
    const settled = (id: string) =>
      until(
        () => get(api, `/api/v1/unlock-status/district/${id}`),
        (s) => s.state !== "unlock_pending",
        RETRY_MS,
      );
    expect(await settled(extracted)).toMatchObject({ state: "unlocked", hold_id: unlocked.body.hold_id, attempts: 3, error: null });
    expect(await settled(keyed)).toMatchObject({ state: "unlocked", hold_id: retried.body.hold_id, error: null });

    // Every job finished; the extraction's was retried twice (both kills), the others once.
    expect(await jobOf(unlocked.body.job_id)).toEqual({ state: "completed", retry_count: 2 });
    expect(await jobOf(briefJob!.id)).toEqual({ state: "completed", retry_count: 1 });
    expect(await jobOf(pollJob!.id)).toEqual({ state: "completed", retry_count: 1 });

    // Money: each hold committed exactly once (one settlement movement), the instant unlock charged once, nothing open.
    const holds = await db.query<{ entity_id: string; status: string; commits: number }>(
      `SELECT h.entity_id::text, h.status,
              (SELECT count(DISTINCT transfer_id) FROM credit_ledger l WHERE l.hold_id = h.id AND l.kind = 'hold_commit')::int AS commits
         FROM credit_holds h WHERE h.organization_id = $1 ORDER BY h.created_at`,
      [organizationId],
    );
    expect(holds).toEqual([
      { entity_id: extracted, status: "committed", commits: 1 },
      { entity_id: keyed, status: "committed", commits: 1 },
    ]);
    expect((await get(api, "/api/v1/org")).credits).toEqual({ balance: CREDITS - 3 * COST, held: 0, available: CREDITS - 3 * COST });
    expect(await ledgerViolations(db)).toEqual(NO_VIOLATIONS);

    // The extraction: the killed attempts' runs ended in error (none left running), its rows equal a clean run's.
    const runs = await db.query<{ status: string }>(`SELECT status FROM extraction_runs WHERE entity_id = $1 ORDER BY started_at`, [
      extracted,
    ]);
    expect(runs.map((r) => r.status)).toEqual(["error", "completed", "completed"]);
    // The feed: polled to the end (claim released), its articles analysed once each; the brief ready.
    expect(await one(`SELECT last_status, claimed_by FROM news_feeds WHERE id = $1`, [feed.id])).toEqual({
      last_status: "ok",
      claimed_by: null,
    });
    const articles = await db.query(FEED_ARTICLES, [feed.id]);
    expect(await one(`SELECT status, error, dossier IS NOT NULL AS built FROM briefs WHERE id = $1`, [brief.body.brief_id])).toEqual({
      status: "ready",
      error: null,
      built: true,
    });

    // The same extraction and feed poll run cleanly (no kill).
    const reference = await cleanRun;
    expect(await one(EXTRACTED, [extracted])).toEqual(reference.extracted);
    expect(articles).toEqual(reference.articles);
    await last.kill9();
    await api.kill9();
  }, 600_000);

  it("a worker killed in the last attempt: the job is failed by its rule (hold released, unlock failed; brief failed)", async () => {
    const first = db;
    const last = await createTestDb();
    try {
      db = last; // the helpers above read `db`
      await organization(db);
      const extracted = await siteDistrict(db);
      const briefed = await insertDistrict(db, { name: "Brief District", state: "NE" });
      const noRetry = { ...ENV, DATABASE_URL: db.url, JOB_RETRY_LIMIT: "0" };
      const [api, doomed] = await Promise.all([
        serve("api", noRetry),
        serve("worker", { ...noRetry, EDMARKET_FAULT_PAUSE_AT: "extraction.store,brief.ready" }),
      ]);
      const unlocked = await post(api, "/api/v1/unlock", { entity_type: "district", entity_id: extracted });
      expect(unlocked).toMatchObject({ status: 202, body: { outcome: "unlock_pending" } });
      const brief = await post(api, "/api/v1/briefs", { project_id: projectId, entity_type: "district", entity_id: briefed });
      expect(brief).toMatchObject({ status: 202 });
      await Promise.all(["extraction.store", "brief.ready"].map((point) => doomed.waitForFaultPoint(point)));
      await doomed.kill9();

      await serve("worker", noRetry);
      const status = await until(
        () => get(api, `/api/v1/unlock-status/district/${extracted}`),
        (s) => s.state !== "unlock_pending",
        RETRY_MS,
      );
      expect(status).toMatchObject({
        state: "failed",
        hold_id: unlocked.body.hold_id,
        error: expect.stringMatching(/^extraction failed: job heartbeat timeout/),
      });
      const failedBrief = await until(
        () => one<{ status: string; error: string | null }>(`SELECT status, error FROM briefs WHERE id = $1`, [brief.body.brief_id]),
        (b) => b.status !== "building",
        RETRY_MS,
      );
      expect(failedBrief).toEqual({ status: "failed", error: "build failed: job heartbeat timeout" });
      expect(await jobOf(unlocked.body.job_id)).toEqual({ state: "failed", retry_count: 0 });
      // The hold went back to available once; nothing was charged.
      expect(
        await db.query(`SELECT kind FROM credit_ledger WHERE hold_id = $1 AND amount > 0 ORDER BY created_at`, [unlocked.body.hold_id]),
      ).toEqual([{ kind: "hold" }, { kind: "hold_release" }]);
      expect((await get(api, "/api/v1/org")).credits).toEqual({ balance: CREDITS, held: 0, available: CREDITS });
      expect(await ledgerViolations(db)).toEqual(NO_VIOLATIONS);
    } finally {
      await killAll();
      db = first;
      await last.close();
    }
  }, 600_000);
});
