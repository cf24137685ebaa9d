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
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Client } from "pg";
import { createDb, type Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { createApiKey } from "../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../src/features/account/organizations/organization.service";
import { policiesFromEnv } from "../src/features/account/rate-limits/rate-limit.policy";
import {
  type Child,
  freePort,
  log,
  machine,
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
import { smokeServerTemplate } from "./smoke-template";

const DURATION = numberOption("duration", SMOKE ? 0.5 : 20);
/** The victim's warm-ups before the unloaded phases (compiled operations, pool connections); none in a smoke run. */
const WARMUP = SMOKE ? 0 : 2;
const CONNECTIONS = integerOption("connections", SMOKE ? 4 : 32);
const DISTRICTS = integerOption("districts", SMOKE ? 500 : 30_000);
/** The victim's requests per second: a paced client, well inside its own 50/s. */
const VICTIM_RPS = numberOption("victim-rps", 25);
const BENCH_DB = SMOKE ? "edmarket_fairness_bench_smoke" : "edmarket_fairness_bench";
const RESULTS_FILE = path.join(packageRoot, "bench/results/fairness.json");
const README_FILE = path.join(packageRoot, "bench/README.md");
const CHEAP = "/api/v1/districts?state=NE&limit=1";
const EXPENSIVE = "/api/v1/districts?limit=200&order_by=student_count&order_ascending=false";

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: BENCH_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function prepare(db: Db): Promise<Record<"victim" | "flood" | "flood2" | "unlimited", string>> {
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
    flood2: await key("Fairness flood, few connections", "pro"),
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
  /** The client process's CPU time (the victim's process, shared by the keys taking turns). */
  cpu_ms: number;
  cpu_share_of_one_core: number;
}

const STEADY_AFTER_S = 5;
/** --pin: the service on CPU 0, the clients on CPU 1 (PostgreSQL and everything else unpinned). */
const PIN = process.argv.includes("--pin");
/** A second limited flood with few connections, so the flood's own client does not starve the machine's CPUs. */
const FEW_CONNECTIONS = integerOption("few-connections", SMOKE ? 2 : 4);

/**
 * Runs one client of bench/fairness-client.ts in a process of its own (the bench's own event loop never
 * delays a measured request); `started` resolves when the client sent its first requests.
 */
function client<T>(args: string[]): { started: Promise<void>; done: Promise<T> } {
  const child = spawn(
    process.execPath,
    [path.join(packageRoot, "scripts/run-ts.js"), path.join(packageRoot, "bench/fairness-client.ts"), ...args],
    {
      cwd: packageRoot,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (PIN && child.pid) spawnSync("taskset", ["-a", "-p", "-c", "1", String(child.pid)], { stdio: "ignore" });
  let out = "";
  let onStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    out += chunk;
    if (out.includes("started\n")) onStarted();
  });
  const done = new Promise<T>((resolve, reject) =>
    child.once("exit", (code) => {
      onStarted();
      if (code !== 0) return reject(new Error(`fairness client ${args[0]} exited with ${code}`));
      resolve(JSON.parse(out.trim().split("\n").at(-1)!) as T);
    }),
  );
  return { started, done };
}

/** The victim: one request at a time, started every 1/VICTIM_RPS s, each latency measured. */
async function victim(base: string, apiKey: string, seconds: number): Promise<VictimRun> {
  return (await interleaved(base, [apiKey], seconds))[0]!;
}

/** As `victim`, the keys taking turns (same clock, same machine load for each); each key's latencies apart. */
function interleaved(base: string, apiKeys: string[], seconds: number): Promise<VictimRun[]> {
  return client<VictimRun[]>(["victim", base + CHEAP, String(seconds), String(VICTIM_RPS), String(STEADY_AFTER_S), ...apiKeys]).done;
}

interface FloodRun {
  requests: number;
  ok: number;
  refused_429: number;
  other: number;
  latency_p99_ms: number;
  cpu_ms: number;
  cpu_share_of_one_core: number;
}

/** CPU time of a process so far (ms), from /proc (Linux); 0 elsewhere. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return 0;
  }
}

/** The flood and the victim at once; the flood starts first (its burst is inside the measured time). */
async function loaded(
  server: Child,
  floodKey: string,
  victimKey: string,
  connections: number,
): Promise<{ victim: VictimRun; flood: FloodRun; server_cpu_share_of_one_core: number }> {
  const cpuBefore = processCpuMs(server.process.pid);
  const wallBefore = performance.now();
  // Longer than the victim by its process's start (a smoke run's half-second phases: half a second more).
  const flood = client<FloodRun>(["flood", server.base + EXPENSIVE, floodKey, String(connections), String(DURATION + (SMOKE ? 0.5 : 1))]);
  await flood.started;
  const measured = await victim(server.base, victimKey, DURATION);
  const serverShare = round((processCpuMs(server.process.pid) - cpuBefore) / (performance.now() - wallBefore));
  return { victim: measured, flood: await flood.done, server_cpu_share_of_one_core: serverShare };
}

async function main(): Promise<void> {
  const loadAverage = os.loadavg();
  await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  const template = await smokeServerTemplate(BENCH_ADMIN_URL);
  await admin(`CREATE DATABASE ${BENCH_DB}${template ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${BENCH_DB}`;
  log(`preparing ${DISTRICTS} districts`);
  const db = await createDb({ databaseUrl: url.toString() });
  const keys = await prepare(db);
  await db.close();
  const port = await freePort();
  const server = await startChild(
    "edmarket",
    // FAIRNESS_SERVER_NODE_ARGS: node options of the service alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
    [
      ...(process.env.FAIRNESS_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      path.join(packageRoot, "scripts/run-ts.js"),
      path.join(packageRoot, "bin/cli.ts"),
      "serve",
      "--role",
      "api",
    ],
    { ...process.env, DATABASE_URL: url.toString(), PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    port,
    "/readyz",
  );
  if (PIN && server.process.pid) spawnSync("taskset", ["-a", "-p", "-c", "0", String(server.process.pid)], { stdio: "ignore" });
  let results: Record<string, unknown>;
  try {
    if (WARMUP) await victim(server.base, keys.victim, WARMUP); // warm-up: compiled operations, pool connections
    log(`unloaded: victim alone for ${DURATION} s, then a limited and an unlimited key taking turns (the limiter's overhead)`);
    const unloaded = await victim(server.base, keys.victim, DURATION);
    if (WARMUP) await victim(server.base, keys.unlimited, WARMUP);
    // The limiter's overhead: a limited and an unlimited key taking turns, so both meet the same machine load.
    const [withLimiter, withoutLimiter] = await interleaved(server.base, [keys.victim, keys.unlimited], DURATION);
    log(`limited flood: ${CONNECTIONS} connections of the pro flood key for ${DURATION} s`);
    const limited = await loaded(server, keys.flood, keys.victim, CONNECTIONS);
    log(`limited flood, few connections: ${FEW_CONNECTIONS} connections of a second pro flood key for ${DURATION} s`);
    const limitedFew = await loaded(server, keys.flood2, keys.victim, FEW_CONNECTIONS);
    log(`unlimited flood: ${CONNECTIONS} connections of the internal key for ${DURATION} s`);
    const unlimited = await loaded(server, keys.unlimited, keys.victim, CONNECTIONS);
    const ratio = (run: VictimRun) => round(run.latency_p99_ms / unloaded.latency_p99_ms);
    const steadyRatio = (run: VictimRun) => round(run.steady_latency_p99_ms / unloaded.steady_latency_p99_ms);
    results = {
      scenario: `victim: GET ${CHEAP} at ${VICTIM_RPS}/s, one at a time; flood: GET ${EXPENSIVE} on ${CONNECTIONS} (and ${FEW_CONNECTIONS}) connections, 429s ignored; each client in a process of its own`,
      settings: {
        duration_s: DURATION,
        connections: CONNECTIONS,
        few_connections: FEW_CONNECTIONS,
        pinned: PIN,
        districts: DISTRICTS,
        victim_rps: VICTIM_RPS,
        limits: policiesFromEnv(process.env),
        operation_scheduler: {
          slots: Number(process.env.EXPENSIVE_OPERATION_SLOTS ?? 1),
          threshold: Number(process.env.EXPENSIVE_OPERATION_COST ?? 10_000),
        },
        refusal_hold: { ms: Number(process.env.RATE_LIMIT_HOLD_MS ?? 1000), per_key: Number(process.env.RATE_LIMIT_HOLD_MAX ?? 64) },
      },
      machine: await machine(BENCH_ADMIN_URL, loadAverage),
      unloaded,
      limiter_overhead: {
        limited_key: withLimiter!,
        unlimited_key: withoutLimiter!,
        p50_ms: round(withLimiter!.latency_p50_ms - withoutLimiter!.latency_p50_ms),
      },
      limited_flood: { ...limited, victim_p99_ratio: ratio(limited.victim), victim_steady_p99_ratio: steadyRatio(limited.victim) },
      limited_flood_few_connections: {
        ...limitedFew,
        victim_p99_ratio: ratio(limitedFew.victim),
        victim_steady_p99_ratio: steadyRatio(limitedFew.victim),
      },
      unlimited_flood: { ...unlimited, victim_p99_ratio: ratio(unlimited.victim), victim_steady_p99_ratio: steadyRatio(unlimited.victim) },
      target: "limited_flood.victim_p99_ratio < 2",
      met: ratio(limited.victim) < 2 && ratio(limitedFew.victim) < 2,
    };
  } finally {
    await stopChild(server);
    await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  }
  writeResults(RESULTS_FILE, results);
  type Loaded = {
    victim: VictimRun;
    flood: FloodRun;
    server_cpu_share_of_one_core: number;
    victim_p99_ratio: number;
    victim_steady_p99_ratio: number;
  };
  const r = results as {
    unloaded: VictimRun;
    limiter_overhead: { limited_key: VictimRun; unlimited_key: VictimRun; p50_ms: number };
    limited_flood: Loaded;
    limited_flood_few_connections: Loaded;
    unlimited_flood: Loaded;
    machine: { load_average_at_start: number[] };
  };
  const row = (name: string, v: VictimRun, ratios: [number, number], f?: FloodRun, serverCpu?: number) =>
    `| ${name} | ${v.latency_p50_ms} | ${v.latency_p99_ms} | ${ratios[0]} | ${v.steady_latency_p99_ms} | ${ratios[1]} | ${v.non_2xx} | ${f ? `${f.ok} / ${f.refused_429} / ${f.other}` : "—"} | ${serverCpu ?? "—"} / ${f?.cpu_share_of_one_core ?? "—"} |`;
  rewriteReadmeBlock(README_FILE, "fairness-results", [
    `Measured ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, load average at start ${r.machine.load_average_at_start.join(" / ")}; ` +
      `victim ${VICTIM_RPS} requests/s for ${DURATION} s per phase, flood ${CONNECTIONS} connections (and ${FEW_CONNECTIONS}), ${DISTRICTS} districts, each client in its own process${PIN ? ", service pinned to CPU 0 and clients to CPU 1" : ""}; ` +
      `CPU is the share of one core used during the phase (bench/results/fairness.json).`,
    "",
    `| phase | victim p50 ms | victim p99 ms | p99 / unloaded | p99 after ${STEADY_AFTER_S} s | that / unloaded | victim non-2xx | flood 200 / 429 / other | CPU (cores): service / flood client |`,
    "|---|---|---|---|---|---|---|---|---|",
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
      r.limited_flood.server_cpu_share_of_one_core,
    ),
    row(
      `flood by a pro key (limited), ${FEW_CONNECTIONS} connections`,
      r.limited_flood_few_connections.victim,
      [r.limited_flood_few_connections.victim_p99_ratio, r.limited_flood_few_connections.victim_steady_p99_ratio],
      r.limited_flood_few_connections.flood,
      r.limited_flood_few_connections.server_cpu_share_of_one_core,
    ),
    row(
      "flood by an internal key (unlimited)",
      r.unlimited_flood.victim,
      [r.unlimited_flood.victim_p99_ratio, r.unlimited_flood.victim_steady_p99_ratio],
      r.unlimited_flood.flood,
      r.unlimited_flood.server_cpu_share_of_one_core,
    ),
  ]);
  log(JSON.stringify(results, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
