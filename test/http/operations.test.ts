/**
 * Operations (docs/operations.md): structured JSON logs with request ids, Prometheus metrics on their own
 * port, readiness reflecting the database, the job queue and the worker.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { restAdapter } from "../../rest-adapter";
import { createApp } from "../../src/app";
import { loadEnv } from "../../src/config/env";
import { INSTALLED } from "../../src/graphql/features";
import { logger, withRequestContext } from "../../src/logger";
import { serve, type Started } from "../../src/server";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDataDir, createTestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { until } from "../support/wait";

/** Log lines written to stderr while `fn` runs, at LOG_LEVEL `level`. */
async function captureLogs(fn: () => Promise<unknown>, level = "info"): Promise<Record<string, unknown>[]> {
  const previous = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = level;
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
    process.env.LOG_LEVEL = previous;
  }
  return lines
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function get(port: number, urlPath: string, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, method }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The value of one Prometheus series (exact label set) in a scrape, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(",");
  for (const line of text.split("\n")) {
    const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? "")
      .split(/,(?=\w+=")/)
      .filter(Boolean)
      .sort()
      .join(",");
    if (have === wanted) return Number(m[3]);
  }
  return undefined;
}

describe("operations", () => {
  let t: TestApp;
  let districtId: string;

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send", metrics: true });
    districtId = await insertDistrict(t.db);
  });
  afterAll(() => t.close());

  describe("structured logs", () => {
    it("one JSON line per request: level, time, message, request id (echoed or generated), route pattern, status, duration", async () => {
      let generated = "";
      const lines = await captureLogs(async () => {
        await t.get(`/api/v1/districts/${districtId}`).set("X-Request-Id", "ops-test-1").expect(200);
        generated = (await t.http.get("/api/v1/districts").expect(401)).headers["x-request-id"];
      });
      const access = lines.filter((l) => l.message === "request");
      expect(access).toHaveLength(2);
      expect(access[0]).toMatchObject({
        level: "info",
        message: "request",
        requestId: "ops-test-1",
        method: "GET",
        route: "/api/v1/districts/:id",
        path: `/api/v1/districts/${districtId}`,
        status: 200,
      });
      expect(typeof access[0].duration_ms).toBe("number");
      expect(new Date(access[0].time as string).toISOString()).toBe(access[0].time);
      expect(generated).toMatch(/^[0-9a-f-]{36}$/);
      expect(access[1]).toMatchObject({ requestId: generated, status: 401 });
    });

    it("any line logged while a request is handled carries its request id; LOG_LEVEL filters", async () => {
      const lines = await captureLogs(async () => {
        withRequestContext("ctx-1", () => logger.warn("inside", { detail: 1 }));
        logger.warn("outside");
        logger.debug("hidden at info");
      });
      expect(lines).toEqual([
        expect.objectContaining({ level: "warn", message: "inside", requestId: "ctx-1", detail: 1 }),
        expect.objectContaining({ level: "warn", message: "outside" }),
      ]);
      expect(lines[1].requestId).toBeUndefined();
      expect(await captureLogs(async () => logger.error("quiet"), "silent")).toEqual([]);
      expect(await captureLogs(async () => logger.debug("shown"), "debug")).toEqual([
        expect.objectContaining({ level: "debug", message: "shown" }),
      ]);
    });

    it("a hostile X-Request-Id is replaced, never logged as sent", async () => {
      let echoed = "";
      const lines = await captureLogs(async () => {
        echoed = (
          await t
            .get("/api/v1/districts")
            .set("X-Request-Id", `bad id; ${"x".repeat(300)}`)
            .expect(200)
        ).headers["x-request-id"];
      });
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.find((l) => l.message === "request")?.requestId).toBe(echoed);
    });
  });

  describe("metrics", () => {
    it("request rate and latency by route pattern (never the raw path) and status", async () => {
      const before = await t.metrics!.registry.metrics();
      const base = sample(before, "edmarket_http_requests_total", { method: "GET", route: "/api/v1/districts/:id", status: "200" }) ?? 0;
      await t.get(`/api/v1/districts/${districtId}`).expect(200);
      await t.get(`/api/v1/districts/${districtId}`).expect(200);
      await t.get("/api/v1/districts/00000000-0000-4000-8000-000000000000").expect(404);
      await t.http.delete("/api/v1/districts").set("Authorization", `Bearer ${t.keys.pro}`).expect(405);
      await t.get("/no/such/path").expect(404);
      await t.graphql("{ districts(limit: 1) { data { id } } }");
      const text = await t.metrics!.registry.metrics();
      expect(sample(text, "edmarket_http_requests_total", { method: "GET", route: "/api/v1/districts/:id", status: "200" })).toBe(base + 2);
      expect(sample(text, "edmarket_http_requests_total", { method: "GET", route: "/api/v1/districts/:id", status: "404" })).toBe(1);
      expect(sample(text, "edmarket_http_requests_total", { method: "DELETE", route: "/api/v1/districts", status: "405" })).toBe(1);
      expect(sample(text, "edmarket_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBe(1);
      expect(sample(text, "edmarket_http_requests_total", { method: "POST", route: "/graphql", status: "200" })).toBe(1);
      expect(
        sample(text, "edmarket_http_request_duration_seconds_count", { method: "GET", route: "/api/v1/districts/:id", status: "200" }),
      ).toBe(base + 2);
      expect(
        sample(text, "edmarket_http_request_duration_seconds_bucket", {
          le: "+Inf",
          method: "GET",
          route: "/api/v1/districts/:id",
          status: "200",
        }),
      ).toBe(base + 2);
      expect(text).not.toContain(districtId);
      expect(text).not.toContain("/no/such/path");
      // Default process metrics, prefixed.
      expect(text).toMatch(/^edmarket_process_resident_memory_bytes /m);
    });

    it("job queue depth by queue and state, read at scrape time", async () => {
      const id = crypto.randomUUID();
      await t.jobs!.queue.sendNow(INSTALLED.jobs[0], {} as never, id);
      const text = await t.metrics!.registry.metrics();
      expect(sample(text, "edmarket_job_queue_jobs", { queue: INSTALLED.jobs[0].name, state: "created" })).toBeGreaterThanOrEqual(1);
    });

    it("database pool connections on PostgreSQL (none on the embedded database)", async () => {
      const text = await t.metrics!.registry.metrics();
      if (t.db.kind === "postgres") {
        expect(sample(text, "edmarket_db_pool_connections", { state: "max" })).toBe(4);
        expect(sample(text, "edmarket_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
        expect(sample(text, "edmarket_db_pool_connections", { state: "waiting" })).toBe(0);
      } else {
        expect(sample(text, "edmarket_db_pool_connections", { state: "max" })).toBeUndefined();
      }
    });
  });

  describe("readiness", () => {
    it("ready: database reachable and migrated, job queue readable; no worker in an API-only process", async () => {
      const res = await t.http.get("/readyz").expect(200);
      expect(res.body).toMatchObject({
        status: "ready",
        database: { kind: t.db.kind, reachable: true, pending_migrations: [] },
        jobs: { readable: true, ready: expect.any(Number) },
        worker: { in_process: false },
      });
      expect(res.body.jobs.ready).toBeGreaterThanOrEqual(1); // the job sent above waits for a worker
      expect(res.body.jobs.oldest_ready_seconds).toBeGreaterThanOrEqual(0);
    });

    it("a migration not applied: 503 migrations_pending, naming it", async () => {
      const [{ name }] = await t.db.query<{ name: string }>(
        `SELECT migration_name AS name FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1`,
      );
      await t.db.query(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = $1`, [name]);
      try {
        const res = await t.http.get("/readyz").expect(503);
        expect(res.body).toMatchObject({ status: "migrations_pending", database: { pending_migrations: [name] } });
      } finally {
        await t.db.query(`UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE migration_name = $1`, [name]);
      }
      await t.http.get("/readyz").expect(200);
    });

    it("an in-process worker that stopped sweeping: 503 worker_stalled; a live one: ready", async () => {
      const env = loadEnv({ LOG_LEVEL: "silent" });
      let lastSweepOkAt = new Date(Date.now() - 60_000);
      const { app, stop } = await createApp({
        db: t.db,
        env,
        rest: restAdapter,
        worker: () => ({ working: true, lastSweepOkAt, staleAfterMs: 10_000, lastError: "connection refused" }),
      });
      const server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as { port: number }).port;
      try {
        const stalled = await get(port, "/readyz");
        expect(stalled.status).toBe(503);
        expect(JSON.parse(stalled.text)).toMatchObject({
          status: "worker_stalled",
          worker: { in_process: true, alive: false, stale_after_seconds: 10, last_error: "connection refused" },
        });
        lastSweepOkAt = new Date();
        const live = await get(port, "/readyz");
        expect(live.status).toBe(200);
        expect(JSON.parse(live.text).worker).toMatchObject({ in_process: true, alive: true });
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await stop();
      }
    });

    it("a database that cannot be reached: 503 database_unreachable", async () => {
      const db = await createTestDb();
      const { app, stop } = await createApp({ db, env: loadEnv({ LOG_LEVEL: "silent" }) });
      const server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as { port: number }).port;
      try {
        await db.close();
        const res = await get(port, "/readyz");
        expect(res.status).toBe(503);
        expect(JSON.parse(res.text)).toEqual({ status: "database_unreachable", database: { kind: db.kind, reachable: false } });
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await stop();
      }
    });
  });

  describe("serve: the metrics port and the worker", () => {
    let started: Started | undefined;
    let dataDir: string | undefined;
    let serverDb: Awaited<ReturnType<typeof createTestDb>> | undefined;
    afterEach(async () => {
      await started?.stop();
      started = undefined;
      await serverDb?.close(); // drops the PostgreSQL test database
      serverDb = undefined;
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      dataDir = undefined;
    });

    async function start(extra: Record<string, string>) {
      // On PostgreSQL a test database of its own (serve opens its own pool on it); else a DATA_DIR of its own. Both are
      // copies of the migrated template: serve's migrations and a new directory's initdb are tested elsewhere.
      const db = (serverDb = process.env.DATABASE_URL ? await createTestDb() : undefined);
      dataDir = db ? undefined : await createTestDataDir("edm-ops-");
      const env = loadEnv({
        ...(db ? { DATABASE_URL: db.url! } : { DATA_DIR: dataDir! }),
        SEED_ON_EMPTY: "false",
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "silent",
        WORKER_POLL_SECONDS: "0.5",
        ...extra,
      });
      started = await serve({ role: "all", env, rest: restAdapter });
      return started;
    }

    it("METRICS_PORT set: /metrics on that port only; /readyz reports the in-process worker alive", async () => {
      const s = await start({ METRICS_PORT: "0" });
      expect(s.metricsPort).toBeGreaterThan(0);
      expect((await get(s.port, "/healthz")).status).toBe(200);
      const scrape = await get(s.metricsPort!, "/metrics");
      expect(scrape.status).toBe(200);
      expect(scrape.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(scrape.text).toMatch(/^# TYPE edmarket_http_requests_total counter$/m);
      expect(sample(scrape.text, "edmarket_http_requests_total", { method: "GET", route: "/healthz", status: "200" })).toBe(1);
      expect((await get(s.metricsPort!, "/other")).status).toBe(404);
      expect((await get(s.metricsPort!, "/metrics", "POST")).status).toBe(404);
      // Not on the API's port.
      expect((await get(s.port, "/metrics")).status).toBe(404);
      // The worker sweeps every 0.5 s: once a sweep has completed (its last_sweep_ok_at moves past the start's), it is alive.
      const readyz = async () => {
        const res = await get(s.port, "/readyz");
        return { status: res.status, body: JSON.parse(res.text) };
      };
      const startedSweep = (await readyz()).body.worker.last_sweep_ok_at;
      const ready = await until(readyz, (r) => r.body.worker?.last_sweep_ok_at !== startedSweep);
      expect(ready.body.worker.last_sweep_ok_at).not.toBe(startedSweep);
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        status: "ready",
        worker: { in_process: true, alive: true },
        jobs: { readable: true },
      });
    }, 120_000);

    it("METRICS_PORT unset: no metrics listener", async () => {
      const s = await start({});
      expect(s.metricsPort).toBeUndefined();
    }, 120_000);
  });
});
