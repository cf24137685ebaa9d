/**
 * Instant unlocks per second and latency at 50 concurrent callers (issue 11), on PostgreSQL and on the
 * embedded database. Usage:
 *
 *   npm run build && npm run bench:unlock [-- --duration 10 --warmup 2 --connections 50]
 *   npm run bench:unlock -- --database embedded                   # one database only
 *   npm run bench:unlock -- --service-root /tmp/edm-old           # another checkout's build (its dist/)
 *
 * Per database: a fresh database (PostgreSQL: `edmarket_unlock_bench`, dropped and created; embedded: a
 * temporary DATA_DIR, first start without the demo seed) migrated, with DISTRICTS extracted districts
 * (status `completed`, minimal rows) and one enterprise organization with credits for all of them. Then
 * the service exactly as production runs it (`node bin/edmarket.js serve --role api`, built `dist/`; the plan's
 * rate limits off, as 50 callers of one key would meet its concurrency limit) and CONNECTIONS closed-loop clients
 * POSTing /api/v1/unlock, every request for the next district (an instant unlock: 200, 6 credits charged). The
 * warm-up and the measured run each open new connections, as autocannon did; every request sent during the
 * measured run is waited for and measured (autocannon left out the requests still unanswered at its end, and so
 * the connections the server had not served yet). Warm-up requests (discarded) unlock districts too.
 * Afterwards the ledger is checked: one charge per 200, the balance what it must be. Target on embedded:
 * p99 at most 3x p50. Results: bench/results/unlock.json and the table of bench/README.md between the
 * `unlock-results` markers (a run of one database or of another build: bench/results/unlock.<which>.json only).
 */
import "reflect-metadata";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { createDb, type Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { createApiKey } from "../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../src/features/account/organizations/organization.service";
import {
  freePort,
  httpRequest,
  log,
  percentile,
  rewriteReadmeBlock,
  round,
  SMOKE,
  startChild,
  stopChild,
  writeResults,
  BENCH_ADMIN_URL,
  integerOption,
  numberOption,
} from "./harness";
import { smokeEmbeddedTemplate, smokeServerTemplate } from "./smoke-template";

// A smoke run (BENCH_SMOKE=1): a fraction of a second each, a few callers, districts enough for them.
const DURATION = numberOption("duration", SMOKE ? 0.2 : 10);
const WARMUP = numberOption("warmup", SMOKE ? 0.1 : 2);
const CONNECTIONS = integerOption("connections", SMOKE ? 4 : 50);
const DISTRICTS = integerOption("districts", SMOKE ? 500 : 30_000);
const COST = 6;
/** --database postgresql|embedded: one of them only (default both). */
const DATABASES = (() => {
  const i = process.argv.indexOf("--database");
  if (i < 0) return ["postgresql", "embedded"] as const;
  const only = process.argv[i + 1];
  if (only !== "postgresql" && only !== "embedded") throw new Error("--database must be postgresql or embedded");
  return [only] as const;
})();
/** --service-root DIR: the service of another checkout (its built dist/), e.g. a `git worktree` of an older commit. */
const SERVICE_ROOT = process.argv.includes("--service-root")
  ? path.resolve(process.argv[process.argv.indexOf("--service-root") + 1]!)
  : packageRoot;
const BENCH_DB = SMOKE ? "edmarket_unlock_bench_smoke" : "edmarket_unlock_bench";
const RESULTS_FILE = path.join(packageRoot, "bench/results/unlock.json");
const README_FILE = path.join(packageRoot, "bench/README.md");

/** Districts and the organization; returns the district ids in unlock order and the organization's key. */
async function prepare(db: Db): Promise<{ ids: string[]; apiKey: string; organizationId: string }> {
  await migrate(db);
  // Hand-written: bench fixture rows in one statement (DISTRICTS minimal extracted districts).
  const rows = await db.query<{ id: string }>(
    `INSERT INTO districts (fed_id, name, state, data_source, status)
     SELECT 'UB' || lpad(i::text, 8, '0'), 'Unlock Bench District ' || i, 'NE', 'bench', 'completed'
       FROM generate_series(1, $1::int) AS i
     RETURNING id`,
    [DISTRICTS],
  );
  const { organizationId } = await createOrganization(db, { name: "Unlock bench", plan: "enterprise", credits: DISTRICTS * COST });
  const { apiKey } = await createApiKey(db, organizationId);
  return { ids: rows.map((r) => r.id), apiKey, organizationId };
}

interface Run {
  requests: number;
  ok: number;
  non_2xx: number;
  errors: number;
  duration_s: number;
  unlocks_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  latency_mean_ms: number;
  p99_over_p50: number;
}

/** CONNECTIONS clients, one request at a time each, every request for the next district id; new connections. */
async function load(base: string, apiKey: string, ids: string[], cursor: { next: number }, duration: number): Promise<Run> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + duration * 1000;
  const client = async () => {
    while (performance.now() < end) {
      if (cursor.next >= ids.length) throw new Error("bench: out of districts (raise --districts)");
      const body = { entity_type: "district", entity_id: ids[cursor.next++] };
      const sent = performance.now();
      const { status } = await httpRequest(agent, `${base}/api/v1/unlock`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body,
      });
      latencies.push(performance.now() - sent);
      if (status === 0) errors += 1;
      else if (status >= 200 && status < 300) ok += 1;
      else non2xx += 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  return {
    requests: latencies.length,
    ok,
    non_2xx: non2xx,
    errors,
    duration_s: round(elapsed, 1),
    unlocks_per_second: round(ok / elapsed),
    latency_p50_ms: round(p50, 1),
    latency_p99_ms: round(p99, 1),
    latency_max_ms: round(latencies.at(-1) ?? 0, 1),
    latency_mean_ms: round(latencies.reduce((sum, ms) => sum + ms, 0) / (latencies.length || 1)),
    p99_over_p50: p50 ? round(p99 / p50) : 0,
  };
}

/** One charge per unlocked district, the balance what the charges leave, and one charge per 200 (every request was answered). */
async function verify(db: Db, organizationId: string, ok: number): Promise<Record<string, unknown>> {
  const [ledger] = await db.query<{ charges: number; unlocked: number; balance: number }>(
    `SELECT (SELECT count(DISTINCT transfer_id)::int FROM credit_ledger WHERE organization_id = $1::uuid AND kind = 'charge') AS charges,
            (SELECT count(*)::int FROM unlocks WHERE organization_id = $1::uuid AND state = 'unlocked') AS unlocked,
            (SELECT credit_balance FROM organizations WHERE id = $1::uuid) AS balance`,
    [organizationId],
  );
  const actual = { charges: ledger.charges, unlocked: ledger.unlocked, balance: Number(ledger.balance), ok_responses: ok };
  const consistent =
    actual.unlocked === actual.charges && actual.balance === DISTRICTS * COST - actual.charges * COST && actual.charges === ok;
  if (!consistent) throw new Error(`bench: ledger disagrees with the responses: ${JSON.stringify(actual)}`);
  return actual;
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: BENCH_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function bench(kind: "postgresql" | "embedded"): Promise<Record<string, unknown>> {
  let serverEnv: NodeJS.ProcessEnv;
  let open: () => Promise<Db>;
  /** The first opening: an embedded smoke run's starts from the migrated template (bench/smoke-template.ts). */
  let create: () => Promise<Db>;
  let cleanup = async () => {};
  if (kind === "postgresql") {
    await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
    const template = await smokeServerTemplate(BENCH_ADMIN_URL);
    await admin(`CREATE DATABASE ${BENCH_DB}${template ? ` TEMPLATE ${template}` : ""}`);
    const url = new URL(BENCH_ADMIN_URL);
    url.pathname = `/${BENCH_DB}`;
    open = () => createDb({ databaseUrl: url.toString() });
    create = open;
    serverEnv = { DATABASE_URL: url.toString() };
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-unlock-bench-"));
    open = () => createDb({ dataDir });
    create = async () => createDb({ dataDir, loadDataDir: await smokeEmbeddedTemplate() });
    serverEnv = { DATABASE_URL: "", DATA_DIR: dataDir, SEED_ON_EMPTY: "false" };
    cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    log(`${kind}: preparing ${DISTRICTS} districts`);
    let db = await create();
    const { ids, apiKey, organizationId } = await prepare(db);
    await db.close(); // embedded: releases DATA_DIR for the server
    const port = await freePort();
    const server = await startChild(
      `edmarket (${kind})`,
      [path.join(SERVICE_ROOT, "bin/edmarket.js"), "serve", "--role", "api"],
      // The limiter off: 50 callers of one key measure the unlock path, not the plan's concurrency limit (4 per key: 429s).
      { ...process.env, ...serverEnv, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", RATE_LIMIT_ENTERPRISE: "unlimited" },
      port,
      "/readyz",
    );
    const cursor = { next: 0 };
    let measured: Run;
    let warm: Run;
    try {
      log(`${kind}: warm-up ${WARMUP} s, measuring ${DURATION} s at ${CONNECTIONS} connections`);
      warm = await load(server.base, apiKey, ids, cursor, WARMUP);
      measured = await load(server.base, apiKey, ids, cursor, DURATION);
      if (measured.non_2xx || measured.errors || warm.non_2xx || warm.errors)
        throw new Error(`bench: ${kind}: non-2xx or errors: ${JSON.stringify({ warm, measured })}`);
    } finally {
      await stopChild(server);
    }
    db = await open();
    try {
      const ledger = await verify(db, organizationId, warm.ok + measured.ok);
      return { ...measured, warmup_unlocks: warm.ok, ledger_checked: ledger };
    } finally {
      await db.close();
    }
  } finally {
    await cleanup();
  }
}

async function main(): Promise<void> {
  const loadAverage = os.loadavg();
  const results: Record<string, Record<string, unknown>> = {};
  for (const kind of DATABASES) results[kind] = await bench(kind);
  await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  const summary = {
    scenario: "POST /api/v1/unlock, each request a different extracted district (instant unlock, 200, 6 credits charged)",
    settings: { connections: CONNECTIONS, warmup_s: WARMUP, duration_s: DURATION, districts: DISTRICTS },
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model.trim(),
      node: process.version,
      load_average_at_start: loadAverage.map((n) => round(n)),
    },
    results,
  };
  const full = DATABASES.length === 2 && SERVICE_ROOT === packageRoot;
  const which = [...DATABASES, ...(SERVICE_ROOT === packageRoot ? [] : ["service-root"])].join(".");
  writeResults(full ? RESULTS_FILE : RESULTS_FILE.replace(/\.json$/, `.${which}.json`), { ...summary, service_root: SERVICE_ROOT });
  const row = (name: string, r: Record<string, unknown>) =>
    `| ${name} | ${r.unlocks_per_second} | ${r.latency_p50_ms} | ${r.latency_p99_ms} | ${r.latency_max_ms} | ${r.p99_over_p50} | ${r.ok} |`;
  if (full)
    rewriteReadmeBlock(README_FILE, "unlock-results", [
      `${CONNECTIONS} connections, ${WARMUP} s warm-up, ${DURATION} s measured, ${os.cpus().length} CPUs (load average at start ${loadAverage
        .map((n) => round(n))
        .join(" ")}):`,
      "",
      "| database | instant unlocks/s | p50 ms | p99 ms | max ms | p99 / p50 | unlocks measured |",
      "|---|---|---|---|---|---|---|",
      row("PostgreSQL", results.postgresql),
      row("embedded (PGlite)", results.embedded),
    ]);
  console.log(JSON.stringify(summary, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
