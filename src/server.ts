/**
 * Process start-up for `serve`: open the database, migrate, seed an empty embedded database with the
 * demo dataset, then listen. `stop` (SIGTERM/SIGINT, src/cli/main.ts) drains before the database closes: the listener
 * stops accepting, the requests in flight finish (each is bounded by its REQUEST_TIMEOUT_MS budget) and the running
 * jobs finish, both for at most `drainMs(env)`; jobs still running then are released back to the queue (retried
 * elsewhere), and connections still open are cut. docs/operations.md, "Shutdown".
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createApp } from "./app";
import type { RestAdapterFactory } from "./graphql/execution";
import { loadEnv, type Env } from "./config/env";
import type { Db } from "./db/client";
import { recordLockUrl } from "./db/data-dir-lock";
import { openDatabase } from "./db/open";
import { migrate } from "./db/migrate";
import { rekeyLegacyExtractionIds } from "./features/research/extraction/extraction.rekey";
import { warmSemanticSearch } from "./features/research/semantic-search/semantic-search.service";
import { createHttpServer, type HttpServer } from "./http-server";
import { logger } from "./logger";
import { createMetrics, createMetricsServer } from "./observability/metrics";
import { checkReadiness } from "./observability/readiness";
import type { Jobs } from "./jobs/worker";
import { StartupError } from "./startup-error";

export interface Started {
  server: HttpServer;
  db: Db;
  port: number;
  /** The metrics listener's port, when METRICS_PORT is set. */
  metricsPort?: number;
  stop(): Promise<void>;
}

export async function serve(options: { role: "api" | "worker" | "all"; env?: Env; rest?: RestAdapterFactory }): Promise<Started> {
  const env = options.env ?? loadEnv();
  const t0 = Date.now();
  const db = await openDatabase(env, { serving: true });
  let server: HttpServer;
  let metricsServer: http.Server | undefined;
  let stopApp: () => Promise<void>;
  let jobs: Jobs;
  try {
    const migrated = await migrate(db);
    if (migrated.applied.length) logger.info("migrations applied", { applied: migrated.applied });
    const rekeyed = await rekeyLegacyExtractionIds(db);
    if (Object.keys(rekeyed.rekeyed).length) logger.info("extracted rows' version-5 ids re-keyed", { ...rekeyed.rekeyed });
    await seedEmptyEmbedded(db, env);

    // Every role starts the job queue (the API sends jobs); worker and all also work them (src/compose-jobs.ts).
    const { startServiceJobs } = await import("./compose-jobs");
    jobs = await startServiceJobs(db, env, { work: options.role !== "api" });
    // Metrics on their own port when asked for (docs/operations.md); every role has them.
    const metrics = env.METRICS_PORT !== undefined ? createMetrics(db) : undefined;
    if (options.role === "worker") {
      // A worker answers /healthz and /readyz only; it serves no API.
      stopApp = () => jobs.stop();
      server = createHttpServer((req, res) => {
        const send = (status: number, body: unknown) =>
          res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
        if (req.url === "/healthz") return send(200, { status: "ok", role: "worker" });
        if (req.url === "/readyz") {
          void checkReadiness({ db, jobs: true, worker: jobs.health }).then(({ httpStatus, body }) => send(httpStatus, body));
          return;
        }
        send(404, { error: "not_found", statusCode: 404 });
      });
    } else {
      const created = await createApp({ db, env, rest: options.rest, jobs: jobs.queue, worker: jobs.health, metrics });
      stopApp = async () => {
        await created.stop();
        await jobs.stop();
      };
      server = createHttpServer(created.app);
    }
    try {
      await listen(server, env.PORT, env.HOST);
      if (metrics) {
        metricsServer = createMetricsServer(metrics);
        await listen(metricsServer, env.METRICS_PORT!, env.HOST, "METRICS_PORT");
      }
    } catch (error) {
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopApp().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    // Close the database (and so release DATA_DIR's lock) before the process reports and exits.
    await db.close().catch(() => undefined);
    throw error;
  }
  const port = (server.address() as { port: number }).port;
  const metricsPort = metricsServer ? (metricsServer.address() as { port: number }).port : undefined;
  logger.info("listening", { port, metrics_port: metricsPort, database: db.kind, role: options.role, startup_ms: Date.now() - t0 });
  if (options.role !== "worker") warmSemanticSearch(db, env);
  // The embedded directory admits one process: `edmarket mcp` started beside this one finds the API here (docs/mcp.md).
  if (db.kind === "embedded" && options.role !== "worker") recordLockUrl(env.dataDir, localUrl(env.HOST, port));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const t = Date.now();
      // The listener is closed at once (the drain's first step), before the line says so.
      const drained = [server.drain(drainMs(env)), jobs.drain(drainMs(env))];
      const metricsClosed = metricsServer && new Promise<void>((resolve) => metricsServer!.close(() => resolve()));
      metricsServer?.closeAllConnections();
      logger.info("shutting down: draining requests and jobs", { drain_ms: drainMs(env) });
      await Promise.all([...drained, metricsClosed]);
      await stopApp();
      await db.close();
      logger.info("stopped", { shutdown_ms: Date.now() - t });
    })());
  return { server, db, port, metricsPort, stop };
}

/** How long a shutdown waits for the requests and jobs in flight: a request's whole budget, and a margin to answer it. */
export const drainMs = (env: Pick<Env, "REQUEST_TIMEOUT_MS">): number => env.REQUEST_TIMEOUT_MS + 5_000;

/** The URL a process on this machine reaches the listener at (a wildcard address answers on loopback). */
function localUrl(host: string, port: number): string {
  const address = host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
}

/** Binds the port; a port in use (or not permitted) rejects with one clear line, not an uncaught error. */
function listen(server: http.Server, port: number, host: string, setting = "PORT"): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.removeListener("listening", onListening);
      const where = `port ${port} on ${host}`;
      const [code, message] =
        error.code === "EADDRINUSE"
          ? ["port_in_use", `${where} is already in use (EADDRINUSE); stop the other process or set ${setting}`]
          : error.code === "EACCES"
            ? ["port_not_permitted", `${where} is not permitted (EACCES); choose a port above 1023 or set ${setting}`]
            : error.code === "EADDRNOTAVAIL"
              ? ["address_not_available", `${where}: no such address on this machine (EADDRNOTAVAIL); set HOST`]
              : ["listen_failed", `cannot listen on ${where}: ${error.message}`];
      reject(new StartupError(code, message));
    };
    const onListening = () => {
      server.removeListener("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/** First start of the embedded database: load the demo dataset and keep its keys in DATA_DIR. */
async function seedEmptyEmbedded(db: Db, env: Env): Promise<void> {
  if (db.kind !== "embedded" || env.SEED_ON_EMPTY === "false") return;
  const keysFile = path.join(env.dataDir, "demo-keys.json");
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organizations`);
  if (n === 0) {
    const t0 = Date.now();
    logger.info("empty embedded database: loading the demo dataset (first start only)");
    const { seedDemo } = await import("./seed");
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    const result = await seedDemo(db, {
      progress: false,
      // One line per file (what is being waited for); each table's counts at LOG_LEVEL=debug.
      onFile: (s, index, total) => logger.info(`loaded ${index}/${total} ${s.file}`, { rows: s.read, seconds: seconds(s.ms) }),
      log: (line) => logger.debug(line),
    });
    fs.writeFileSync(keysFile, `${JSON.stringify({ demo_keys: result.demo_keys }, null, 2)}\n`, { mode: 0o600 });
    const rows = result.ingest.reduce((sum: number, s) => sum + s.read, 0);
    logger.info("demo dataset loaded", { files: result.ingest.length, rows, seconds: seconds(Date.now() - t0) });
  }
  if (fs.existsSync(keysFile)) {
    // Printed on stdout so a newcomer can copy a key straight into curl.
    process.stdout.write(`${fs.readFileSync(keysFile, "utf8").trim()}\n`);
  }
}
