/**
 * What the HTTP benchmarks share: starting and stopping the servers under test as child processes,
 * the first difference between two JSON answers, one autocannon measurement with the CPU time of the
 * server process and of its PostgreSQL backends, rounds combined into one figure, a description of the
 * machine, and rewriting a results block of bench/README.md between two markers.
 */
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { isDeepStrictEqual } from "node:util";
import autocannon from "autocannon";
import { Client } from "pg";
import { applyWasmTier } from "../src/db/wasm-tier";
import { packageRoot } from "../src/db/package-root";

export const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/**
 * BENCH_SMOKE=1 (`npm run bench:smoke`, CI): each bench runs end to end on tiny data with seconds of load
 * and writes no results (no results file, no README block). It proves the bench still runs; it measures nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === "1";
// WASM_TIER_UP for a bench that opens its database itself (servers apply it in openDatabase): bench/smoke.ts sets
// false, since a smoke run lives seconds; a measuring run keeps the default unless the caller sets it.
applyWasmTier(process.env);

/** The PostgreSQL server the benches create their databases on. */
export const BENCH_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** `--name N`: a positive number, `fallback` when absent. */
export function numberOption(name: string, fallback: number, argv: readonly string[] = process.argv): number {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(argv[i + 1]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number`);
  return n;
}

/** `--name N`: an integer of at least `min`, `fallback` when absent. */
export function integerOption(name: string, fallback: number, min = 1): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < min)
    throw new Error(min === 1 ? `--${name} must be a positive integer` : `--${name} must be an integer of at least ${min}`);
  return value;
}

/** Writes a bench's results file (JSON), except in a smoke run. */
export function writeResults(file: string, value: unknown): void {
  if (SMOKE) {
    log(`smoke run: ${path.relative(packageRoot, file)} not written`);
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The p-th percentile (nearest rank) of ascending `sorted`; 0 when empty. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * One HTTP request on `agent` (keep-alive connections of the caller's choosing), `body` sent as JSON; resolves with
 * the status and body text, a network error or a 120 s silence as status 0 with its message.
 */
export function httpRequest(
  agent: http.Agent,
  url: string,
  options: { method: "GET" | "POST"; headers?: Record<string, string>; body?: unknown },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = http.request(
      url,
      {
        method: options.method,
        agent,
        headers: {
          ...options.headers,
          ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
        timeout: 120_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (error) => resolve({ status: 0, body: error.message }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer within 120 s")));
    req.on("error", (error) => resolve({ status: 0, body: error.message }));
    req.end(payload);
  });
}

export interface Child {
  name: string;
  process: ChildProcess;
  base: string;
}

/** Starts `node <args>` and waits until GET base+readyPath answers below 500 (60 s at most). */
export async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, port: number, readyPath: string): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: packageRoot, env, stdio: ["ignore", "ignore", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${name} did not become ready`);
    const ready = await fetch(`${base}${readyPath}`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ready) return { name, process: child, base };
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise((r) => child.process.once("exit", r));
  child.process.kill("SIGTERM");
  await exited;
}

/** The first place where two JSON values differ, as a path and both values; null when equal. */
export function firstDifference(a: unknown, b: unknown, labels: [string, string] = ["service", "SQL"], at = "$"): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  const show = (v: unknown) => (JSON.stringify(v) ?? "undefined").slice(0, 300);
  const [left, right] = labels;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) {
    return `${at}: ${left} ${show(a)} vs ${right} ${show(b)}`;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) return `${at}: ${left} has ${a.length} items, ${right} ${b.length}`;
  const l = a as Record<string, unknown>;
  const r = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(l), ...Object.keys(r)])) {
    if (!(key in r)) return `${at}.${key}: only in the ${left} answer`;
    if (!(key in l)) return `${at}.${key}: only in the ${right} answer`;
    const inner = firstDifference(l[key], r[key], labels, `${at}.${key}`);
    if (inner) return inner;
  }
  return `${at}: differs`;
}

/** One measured request: what autocannon sends, over and over. */
export interface Target {
  url: string;
  headers: Record<string, string>;
  method?: "GET" | "POST";
  body?: string;
}

export interface LoadSettings {
  connections: number;
  /** Seconds of load before the measured run, discarded. */
  warmup: number;
  /** Seconds measured. */
  duration: number;
}

export interface Measured {
  duration_s: number;
  requests_per_second: number;
  /** CPU time per completed request of the server process and of the PostgreSQL backends serving it. */
  cpu_ms_per_request: { server: number; postgres: number };
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_mean_ms: number;
  bytes_per_response: number;
  requests: number;
  errors: number;
  non_2xx: number;
}

const TICK_MS = 10; // /proc reports CPU time in clock ticks of 1/100 s (getconf CLK_TCK)

/** utime + stime of these processes, in ms (processes that are gone count 0). */
export function cpuMs(pids: number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      // Fields after the ")" that closes the command name: state is field 3, utime 14, stime 15.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      times.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      times.set(pid, 0);
    }
  }
  return times;
}

async function backendPids(databaseUrl: string): Promise<number[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/**
 * Warm-up (discarded), then a measured autocannon run against one server. The CPU of the PostgreSQL
 * backends connected to the database after the warm-up (the server's pool) is attributed to it, so only
 * one server may be under load at a time.
 */
export async function measure(server: Child, target: Target, settings: LoadSettings, databaseUrl: string): Promise<Measured> {
  // autocannon ends a run at its next sample tick (every second by default): a smoke run's fractions of a second
  // would each last a whole second without a shorter tick.
  const options = { ...target, connections: settings.connections, timeout: 60, ...(SMOKE ? { sampleInt: 100 } : {}) };
  if (settings.warmup > 0) await autocannon({ ...options, duration: settings.warmup });
  // The warm-up opened the pool's connections: their backends are the ones the measured run uses.
  const pids = [server.process.pid as number, ...(await backendPids(databaseUrl))];
  const before = cpuMs(pids);
  const r = await autocannon({ ...options, duration: settings.duration });
  const after = cpuMs(pids);
  const done = r.latency.totalCount;
  const spent = (pid: number) => Math.max(0, (after.get(pid) ?? 0) - (before.get(pid) ?? 0));
  const postgres = pids.slice(1).reduce((sum, pid) => sum + spent(pid), 0);
  return {
    duration_s: r.duration,
    requests_per_second: round(done / r.duration),
    cpu_ms_per_request: { server: done ? round(spent(pids[0]) / done, 1) : 0, postgres: done ? round(postgres / done, 1) : 0 },
    latency_p50_ms: r.latency.p50,
    latency_p99_ms: r.latency.p99,
    latency_mean_ms: round(r.latency.mean),
    bytes_per_response: done ? Math.round(r.throughput.total / done) : 0,
    requests: done,
    errors: r.errors + r.timeouts,
    non_2xx: r.non2xx,
  };
}

export type Combined = Measured & { rounds: Pick<Measured, "requests_per_second" | "latency_p50_ms" | "latency_p99_ms">[] };

/**
 * Rounds of one target as one figure: requests/s over the whole measured time; CPU, latency percentiles
 * and bytes as request-weighted means of the rounds (each round's own figures are kept alongside).
 */
export function combine(runs: Measured[]): Combined {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const duration = runs.reduce((sum, r) => sum + r.duration_s, 0);
  const weighted = (f: (r: Measured) => number, digits = 2) =>
    requests ? round(runs.reduce((sum, r) => sum + f(r) * r.requests, 0) / requests, digits) : 0;
  return {
    duration_s: duration,
    requests_per_second: round(requests / duration),
    cpu_ms_per_request: {
      server: weighted((r) => r.cpu_ms_per_request.server, 1),
      postgres: weighted((r) => r.cpu_ms_per_request.postgres, 1),
    },
    latency_p50_ms: weighted((r) => r.latency_p50_ms, 1),
    latency_p99_ms: weighted((r) => r.latency_p99_ms, 1),
    latency_mean_ms: weighted((r) => r.latency_mean_ms),
    bytes_per_response: Math.round(weighted((r) => r.bytes_per_response)),
    requests,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    non_2xx: runs.reduce((sum, r) => sum + r.non_2xx, 0),
    rounds: runs.map((r) => ({
      requests_per_second: r.requests_per_second,
      latency_p50_ms: r.latency_p50_ms,
      latency_p99_ms: r.latency_p99_ms,
    })),
  };
}

export async function machine(databaseUrl: string, loadAverage: number[]): Promise<Record<string, unknown>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>("SELECT version()");
    return {
      cpu: os.cpus()[0]?.model.trim(),
      cpus: os.cpus().length,
      memory_gib: round(os.totalmem() / 2 ** 30, 1),
      os: `${os.type()} ${os.release()}`,
      node: process.version,
      postgres: rows[0].version.split(" on ")[0],
      load_average_at_start: loadAverage.map((n) => round(n)),
    };
  } finally {
    await client.end();
  }
}

/**
 * Replaces the text between `<!-- <marker>:start -->` and `<!-- <marker>:end -->` (markers included) of
 * a README with `lines` wrapped in the same markers; appends the block when the markers are missing.
 */
export function rewriteReadmeBlock(file: string, marker: string, lines: string[]): void {
  if (SMOKE) {
    log(`smoke run: the ${marker} block of ${path.relative(packageRoot, file)} not rewritten`);
    return;
  }
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const readme = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : `# Benchmarks\n`;
  const block = [start, ...lines, end].join("\n");
  const from = readme.indexOf(start);
  const to = readme.indexOf(end, from);
  const updated = from >= 0 && to >= 0 ? readme.slice(0, from) + block + readme.slice(to + end.length) : `${readme}\n${block}\n`;
  fs.writeFileSync(file, updated);
}

/** The command-line settings every service-vs-reference bench takes. */
export interface BenchArgs {
  reuse: boolean;
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  /** Another checkout's built service to measure instead of this one (e.g. a `git worktree` of an older commit). */
  serviceRoot: string;
}

/**
 * Reads `--reuse --duration --warmup --connections --rounds --service-root`, each bench with its own defaults (a smoke
 * run's: a tenth of a second of warm-up and a fifth measured, 2 connections, 1 round: a few requests per target; its CPU
 * is taken from the test suites CI runs beside it).
 */
export function parseBenchArgs(
  argv: string[],
  benchDefaults: Pick<BenchArgs, "duration" | "warmup" | "connections" | "rounds">,
  ownRoot: string,
): BenchArgs {
  const defaults = SMOKE ? { duration: 0.2, warmup: 0.1, connections: 2, rounds: 1 } : benchDefaults;
  const value = (name: keyof typeof defaults) => numberOption(name, defaults[name], argv);
  return {
    // A smoke run's database is fingerprinted tiny data: reusing it is always right.
    reuse: SMOKE || argv.includes("--reuse"),
    duration: value("duration"),
    warmup: value("warmup"),
    connections: value("connections"),
    rounds: value("rounds"),
    serviceRoot: argv.includes("--service-root") ? path.resolve(argv[argv.indexOf("--service-root") + 1]) : ownRoot,
  };
}

/**
 * A new database `name` on the bench server (a leftover of an interrupted run dropped first), empty or a copy of
 * `template`: its URL, and `drop` to call when done (it keeps the database when `keep`).
 */
export async function freshBenchDatabase(
  adminUrl: string,
  name: string,
  template?: string,
): Promise<{ url: string; drop: (keep: boolean) => Promise<void> }> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async (keep) => {
      if (!keep) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
