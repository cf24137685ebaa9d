/**
 * Fairness under a flood (issue 20 point 4): one key floods the service with many concurrent expensive
 * requests, ignoring 429s and Retry-After; a second key of another organization measures the latency of
 * a cheap request. Usage: npm run bench:fairness [-- --duration 20 --connections 32 --districts 30000]
 *
 * PostgreSQL (`edmarket_fairness_bench`, dropped and created): DISTRICTS minimal districts, three
 * organizations (the victim and the limited flood on the pro plan, an unlimited flood on the internal plan).
 * The service runs from this checkout's sources (`scripts/run-ts.js bin/cli.ts serve --role api`) with the
 * rate limits of this environment (RATE_LIMIT_PRO ..., default: the defaults), recorded with the results. The victim sends `GET /api/v1/districts?state=NE&limit=1` at a steady VICTIM_RPS (below
 * its own limit), one at a time, and records each latency; phases:
 *   1. unloaded: the victim alone;
 *   2. limited flood: CONNECTIONS connections of the pro flood key sending unfiltered 200-record pages sorted by
 *      enrollment (cost 120,000-odd each), from the flood's first request on (its burst included);
 *   3. unlimited flood: the same from the internal key, which has no limits: what one key did before them.
 * Target: the victim's loaded p99 under the limited flood below 2x its unloaded p99.
 * Results: bench/results/fairness.json and the table of bench/README.md between the `fairness-results` markers.
 */
import "reflect-metadata";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { Client } from "pg";
import { createDb, type Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { createApiKey } from "../src/features/auth/api-key.service";
import { createOrganization } from "../src/features/organizations/organization.service";
import { policiesFromEnv } from "../src/features/rate-limits/rate-limit.policy";
import { freePort, log, machine, rewriteReadmeBlock, round, SMOKE, startChild, stopChild, writeResults } from "./harness";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const DURATION = arg("duration", SMOKE ? 2 : 20);
const CONNECTIONS = arg("connections", SMOKE ? 4 : 32);
const DISTRICTS = arg("districts", SMOKE ? 2_000 : 30_000);
/** The victim's requests per second: a paced client, well inside its own 50/s. */
const VICTIM_RPS = arg("victim-rps", 25);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const BENCH_DB = SMOKE ? "edmarket_fairness_bench_smoke" : "edmarket_fairness_bench";
const RESULTS_FILE = path.join(packageRoot, "bench/results/fairness.json");
const README_FILE = path.join(packageRoot, "bench/README.md");
const CHEAP = "/api/v1/districts?state=NE&limit=1";
const EXPENSIVE = "/api/v1/districts?limit=200&order_by=student_count&order_ascending=false";

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function prepare(db: Db): Promise<Record<"victim" | "flood" | "unlimited", string>> {
  await migrate(db);
  // Hand-written: bench fixture rows in one statement.
  await db.query(
    `INSERT INTO districts (fed_id, name, state, data_source, status, student_count)
     SELECT 'FB' || lpad(i::text, 8, '0'), 'Fairness Bench District ' || i, (ARRAY['NE','IA','KS','CA','TX'])[1 + i % 5], 'bench', 'pending',
            (i * 7919) % 50000
       FROM generate_series(1, $1::int) AS i`,
    [DISTRICTS],
  );
  const key = async (name: string, plan: "pro" | "internal") =>
    (await createApiKey(db, (await createOrganization(db, { name, plan, credits: 0 })).organizationId)).apiKey;
  return {
    victim: await key("Fairness victim", "pro"),
    flood: await key("Fairness flood", "pro"),
    unlimited: await key("Fairness flood, unlimited", "internal"),
  };
}

interface VictimRun {
  requests: number;
  non_2xx: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  /** p99 of the requests sent after the first STEADY_AFTER_S seconds (a flood's burst spent by then). */
  steady_latency_p99_ms: number;
}

const STEADY_AFTER_S = 5;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** The victim: one request at a time, started every 1/VICTIM_RPS s, each latency measured. */
async function victim(base: string, apiKey: string, seconds: number): Promise<VictimRun> {
  return (await interleaved(base, [apiKey], seconds))[0]!;
}

/** As `victim`, the keys taking turns (same clock, same machine load for each); each key's latencies apart. */
async function interleaved(base: string, apiKeys: string[], seconds: number): Promise<VictimRun[]> {
  const runs = apiKeys.map(() => ({ latencies: [] as number[], steady: [] as number[], non2xx: 0 }));
  const interval = 1000 / VICTIM_RPS;
  const steadyFrom = performance.now() + STEADY_AFTER_S * 1000;
  const end = performance.now() + seconds * 1000;
  let turn = 0;
  for (let next = performance.now(); next < end; next += interval, turn += 1) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const run = runs[turn % apiKeys.length]!;
    const start = performance.now();
    const res = await fetch(base + CHEAP, { headers: { authorization: `Bearer ${apiKeys[turn % apiKeys.length]}` } });
    await res.arrayBuffer();
    run.latencies.push(performance.now() - start);
    if (start >= steadyFrom) run.steady.push(performance.now() - start);
    if (res.status !== 200) run.non2xx += 1;
  }
  return runs.map(({ latencies, steady, non2xx }) => {
    latencies.sort((a, b) => a - b);
    steady.sort((a, b) => a - b);
    return {
      requests: latencies.length,
      non_2xx: non2xx,
      latency_p50_ms: round(percentile(latencies, 50)),
      latency_p99_ms: round(percentile(latencies, 99)),
      latency_max_ms: round(latencies.at(-1) ?? 0),
      steady_latency_p99_ms: round(percentile(steady, 99)),
    };
  });
}

interface FloodRun {
  requests: number;
  ok: number;
  refused_429: number;
  other: number;
  latency_p99_ms: number;
}

/** The flood and the victim at once; the flood starts first (its burst is inside the measured time). */
async function loaded(base: string, floodKey: string, victimKey: string): Promise<{ victim: VictimRun; flood: FloodRun }> {
  const flood = autocannon({
    url: base + EXPENSIVE,
    headers: { authorization: `Bearer ${floodKey}` },
    connections: CONNECTIONS,
    duration: DURATION + 1,
    timeout: 60,
  });
  const measured = await victim(base, victimKey, DURATION);
  const r = (await flood) as Awaited<typeof flood> & { statusCodeStats?: Record<string, { count: number }> };
  const statuses = new Map(Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [Number(code), count]));
  const ok = statuses.get(200) ?? 0;
  const refused = statuses.get(429) ?? 0;
  return {
    victim: measured,
    flood: {
      requests: r.latency.totalCount,
      ok,
      refused_429: refused,
      other: [...statuses].filter(([s]) => s !== 200 && s !== 429).reduce((sum, [, n]) => sum + n, 0),
      latency_p99_ms: r.latency.p99,
    },
  };
}

async function main(): Promise<void> {
  const loadAverage = os.loadavg();
  await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${BENCH_DB}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${BENCH_DB}`;
  log(`preparing ${DISTRICTS} districts`);
  const db = await createDb({ databaseUrl: url.toString() });
  const keys = await prepare(db);
  await db.close();
  const port = await freePort();
  const server = await startChild(
    "edmarket",
    [path.join(packageRoot, "scripts/run-ts.js"), path.join(packageRoot, "bin/cli.ts"), "serve", "--role", "api"],
    { ...process.env, DATABASE_URL: url.toString(), PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    port,
    "/readyz",
  );
  let results: Record<string, unknown>;
  try {
    await victim(server.base, keys.victim, 2); // warm-up: compiled operations, pool connections
    log(`unloaded: victim alone for ${DURATION} s, then a limited and an unlimited key taking turns (the limiter's overhead)`);
    const unloaded = await victim(server.base, keys.victim, DURATION);
    await victim(server.base, keys.unlimited, 2);
    // The limiter's overhead: a limited and an unlimited key taking turns, so both meet the same machine load.
    const [withLimiter, withoutLimiter] = await interleaved(server.base, [keys.victim, keys.unlimited], DURATION);
    log(`limited flood: ${CONNECTIONS} connections of the pro flood key for ${DURATION} s`);
    const limited = await loaded(server.base, keys.flood, keys.victim);
    log(`unlimited flood: ${CONNECTIONS} connections of the internal key for ${DURATION} s`);
    const unlimited = await loaded(server.base, keys.unlimited, keys.victim);
    const ratio = (run: VictimRun) => round(run.latency_p99_ms / unloaded.latency_p99_ms);
    const steadyRatio = (run: VictimRun) => round(run.steady_latency_p99_ms / unloaded.steady_latency_p99_ms);
    results = {
      scenario: `victim: GET ${CHEAP} at ${VICTIM_RPS}/s, one at a time; flood: GET ${EXPENSIVE} on ${CONNECTIONS} connections, 429s ignored`,
      settings: {
        duration_s: DURATION,
        connections: CONNECTIONS,
        districts: DISTRICTS,
        victim_rps: VICTIM_RPS,
        limits: policiesFromEnv(process.env),
      },
      machine: await machine(ADMIN_URL, loadAverage),
      unloaded,
      limiter_overhead: {
        limited_key: withLimiter!,
        unlimited_key: withoutLimiter!,
        p50_ms: round(withLimiter!.latency_p50_ms - withoutLimiter!.latency_p50_ms),
      },
      limited_flood: { ...limited, victim_p99_ratio: ratio(limited.victim), victim_steady_p99_ratio: steadyRatio(limited.victim) },
      unlimited_flood: { ...unlimited, victim_p99_ratio: ratio(unlimited.victim), victim_steady_p99_ratio: steadyRatio(unlimited.victim) },
      target: "limited_flood.victim_p99_ratio < 2",
      met: ratio(limited.victim) < 2,
    };
  } finally {
    await stopChild(server);
    await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  }
  writeResults(RESULTS_FILE, results);
  const r = results as {
    unloaded: VictimRun;
    limiter_overhead: { limited_key: VictimRun; unlimited_key: VictimRun; p50_ms: number };
    limited_flood: { victim: VictimRun; flood: FloodRun; victim_p99_ratio: number; victim_steady_p99_ratio: number };
    unlimited_flood: { victim: VictimRun; flood: FloodRun; victim_p99_ratio: number; victim_steady_p99_ratio: number };
    machine: { load_average_at_start: number[] };
  };
  const row = (name: string, v: VictimRun, ratios: [number, number], f?: FloodRun) =>
    `| ${name} | ${v.latency_p50_ms} | ${v.latency_p99_ms} | ${ratios[0]} | ${v.steady_latency_p99_ms} | ${ratios[1]} | ${v.non_2xx} | ${f ? `${f.ok} / ${f.refused_429} / ${f.other}` : "—"} |`;
  rewriteReadmeBlock(README_FILE, "fairness-results", [
    `Measured ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, load average at start ${r.machine.load_average_at_start.join(" / ")}; ` +
      `victim ${VICTIM_RPS} requests/s for ${DURATION} s per phase, flood ${CONNECTIONS} connections, ${DISTRICTS} districts (bench/results/fairness.json).`,
    "",
    `| phase | victim p50 ms | victim p99 ms | p99 / unloaded | p99 after ${STEADY_AFTER_S} s | that / unloaded | victim non-2xx | flood 200 / 429 / other |`,
    "|---|---|---|---|---|---|---|---|",
    row("unloaded", r.unloaded, [1, 1], undefined),
    row("unloaded, limited key, taking turns with the next row", r.limiter_overhead.limited_key, [
      round(r.limiter_overhead.limited_key.latency_p99_ms / r.unloaded.latency_p99_ms),
      round(r.limiter_overhead.limited_key.steady_latency_p99_ms / r.unloaded.steady_latency_p99_ms),
    ]),
    row("unloaded, internal key (no limiter statement)", r.limiter_overhead.unlimited_key, [
      round(r.limiter_overhead.unlimited_key.latency_p99_ms / r.unloaded.latency_p99_ms),
      round(r.limiter_overhead.unlimited_key.steady_latency_p99_ms / r.unloaded.steady_latency_p99_ms),
    ]),
    row(
      "flood by a pro key (limited)",
      r.limited_flood.victim,
      [r.limited_flood.victim_p99_ratio, r.limited_flood.victim_steady_p99_ratio],
      r.limited_flood.flood,
    ),
    row(
      "flood by an internal key (unlimited)",
      r.unlimited_flood.victim,
      [r.unlimited_flood.victim_p99_ratio, r.unlimited_flood.victim_steady_p99_ratio],
      r.unlimited_flood.flood,
    ),
  ]);
  log(JSON.stringify(results, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
