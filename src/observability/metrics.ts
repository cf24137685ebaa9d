/**
 * Prometheus metrics (prom-client), served on their own port (METRICS_PORT; off when unset), never on the
 * API's: the scrape needs no API key, carries no customer data and stays on the operator's network, and
 * /api/v1/metrics is already the metric catalogue. docs/operations.md lists every series.
 *
 * - `edmarket_http_requests_total` / `edmarket_http_request_duration_seconds` by method, route pattern
 *   (`/api/v1/districts/:id`, never the raw path: bounded label values) and status;
 * - `edmarket_db_pool_connections` (PostgreSQL pool: total, idle, waiting; max) — the embedded database has no pool;
 * - `edmarket_job_queue_jobs` by queue and state (created, retry, active), read at scrape time;
 * - the process's default metrics (CPU, memory, event-loop lag, GC), prefixed `edmarket_`.
 */
import http from "node:http";
import type { NextFunction, Request, Response } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Db } from "../db/client";
import { logger } from "../logger";

/** pg-boss's schema (src/jobs/queue.ts JOB_SCHEMA; not imported: that module loads pg-boss, which the API face does not need here). */
const JOB_SCHEMA = "pgboss";

/** Latency buckets (seconds): list pages take tens to hundreds of milliseconds, the time budget is 15 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

export interface Metrics {
  registry: Registry;
  /** Express middleware recording each request's count and latency when it finishes. */
  record(req: Request, res: Response, next: NextFunction): void;
}

/** The route label of a finished request: the pattern it matched, not its path. */
export function routeLabel(req: Request, res: Response): string {
  if (typeof res.locals.route === "string") return res.locals.route;
  if (req.route?.path && typeof req.route.path === "string") return `${req.baseUrl}${req.route.path}`;
  // Mounted sub-apps without a route object (Apollo at /graphql): their mount path.
  if (req.baseUrl) return req.baseUrl;
  return "unmatched";
}

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "edmarket_" });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({ name: "edmarket_http_requests_total", help: "HTTP requests answered", labelNames, registers: [registry] });
  const latency = new Histogram({
    name: "edmarket_http_request_duration_seconds",
    help: "Time from a request's arrival to its response's end",
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: "edmarket_db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle, waiting clients, max); absent on the embedded database",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      if (db.driver.kind !== "postgres") return;
      const pool = db.driver.pool;
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
      this.set({ state: "max" }, (pool.options as { max?: number }).max ?? 0);
    },
  });
  new Gauge({
    name: "edmarket_job_queue_jobs",
    help: "pg-boss jobs not yet finished, by queue and state (created, retry, active)",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const rows = await db.query<{ name: string; state: string; n: number }>(
          `SELECT name, state::text AS state, count(*)::int AS n FROM ${JOB_SCHEMA}.job
            WHERE state IN ('created', 'retry', 'active') GROUP BY name, state`,
        );
        for (const row of rows) this.set({ queue: row.name, state: row.state }, row.n);
      } catch (error) {
        // No queue schema yet (a process that never started the queue): no series rather than a failed scrape.
        logger.debug("job queue depth unavailable", { error: (error as Error).message });
      }
    },
  });

  return {
    registry,
    record(req, res, next) {
      const start = process.hrtime.bigint();
      res.on("finish", () => {
        const labels = { method: req.method, route: routeLabel(req, res), status: String(res.statusCode) };
        requests.inc(labels);
        latency.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
      });
      next();
    },
  };
}

/** The metrics listener: GET /metrics in Prometheus text format; anything else 404. */
export function createMetricsServer(metrics: Metrics): http.Server {
  return http.createServer((req, res) => {
    if (req.url !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "not_found", statusCode: 404 }));
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "Content-Type": metrics.registry.contentType }).end(req.method === "HEAD" ? undefined : text),
      (error: Error) => {
        logger.error("metrics scrape failed", { error: error.message });
        res.writeHead(500, { "Content-Type": "text/plain" }).end("metrics unavailable\n");
      },
    );
  });
}
