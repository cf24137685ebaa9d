/**
 * Headline benchmark: GET /api/v1/districts?limit=200 (full records, every block) of our service,
 * against ONE hand-written SQL statement that builds the same JSON in PostgreSQL behind a bare HTTP
 * route (bench/sql-server.ts). Target: our p50 within 1.3x of the SQL route's.
 *
 * One run: prepare the `edmarket_bench` database (bench/bench-database.ts), start both servers as
 * child processes (ours exactly as production: `node bin/edmarket.js serve --role api`), prove both
 * answer the same JSON, then measure each alone with autocannon, print one JSON summary and write it
 * to bench/results/districts-list.json and bench/README.md.
 *
 * Usage: npm run build && npm run bench:districts [-- --reuse] [--duration 20] [--warmup 5]
 *        [--connections 10] [--rounds 2] [--cpu-prof] (profiles of our server go to bench/profiles/)
 *        [--service-root DIR] (measure another checkout's build, e.g. a worktree of an older commit)
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import autocannon from "autocannon";
import { Client } from "pg";
import { packageRoot } from "../src/db/package-root";
import { prepareBenchDatabase } from "./bench-database";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const POOL_SIZE = 10;
const RESULTS_FILE = path.join(packageRoot, "bench/results/districts-list.json");
const README_FILE = path.join(packageRoot, "bench/README.md");

/** What is measured: the headline page, and the page of the largest districts (most blocks carry data there). */
const SCENARIOS = [
  { name: "headline", query: "limit=200" },
  { name: "largest_districts", query: "limit=200&order_by=student_count&order_ascending=false" },
] as const;
/** Pages whose JSON must be identical before anything is measured. */
const EQUALITY_QUERIES = [
  "limit=200",
  "limit=200&offset=200",
  "limit=200&order_by=student_count&order_ascending=false",
  "limit=7&offset=19625",
  "limit=5&offset=30000",
];

interface Args {
  reuse: boolean;
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  cpuProf: boolean;
  /** Another checkout's built service to measure instead of this one (e.g. a `git worktree` of an older commit). */
  serviceRoot: string;
}

function parseArgs(argv: string[]): Args {
  const value = (name: string, fallback: number) => {
    const i = argv.indexOf(`--${name}`);
    if (i < 0) return fallback;
    const n = Number(argv[i + 1]);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number`);
    return n;
  };
  return {
    reuse: argv.includes("--reuse"),
    duration: value("duration", 20),
    warmup: value("warmup", 5),
    connections: value("connections", 10),
    rounds: value("rounds", 2),
    cpuProf: argv.includes("--cpu-prof"),
    serviceRoot: argv.includes("--service-root") ? path.resolve(argv[argv.indexOf("--service-root") + 1]) : packageRoot,
  };
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Child {
  name: string;
  process: ChildProcess;
  base: string;
}

async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, port: number, readyPath: string): Promise<Child> {
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

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise((r) => child.process.once("exit", r));
  child.process.kill("SIGTERM");
  await exited;
}

/** The first place where two JSON values differ, as a path and both values; null when equal. */
function firstDifference(a: unknown, b: unknown, at = "$"): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  const show = (v: unknown) => (JSON.stringify(v) ?? "undefined").slice(0, 300);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) {
    return `${at}: service ${show(a)} vs SQL ${show(b)}`;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) return `${at}: service has ${a.length} items, SQL ${b.length}`;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    if (!(key in right)) return `${at}.${key}: only in the service's answer`;
    if (!(key in left)) return `${at}.${key}: only in the SQL answer`;
    const inner = firstDifference(left[key], right[key], `${at}.${key}`);
    if (inner) return inner;
  }
  return `${at}: differs`;
}

async function fetchBody(url: string, headers: Record<string, string>): Promise<{ text: string; status: number }> {
  const res = await fetch(url, { headers });
  return { text: await res.text(), status: res.status };
}

interface Measured {
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
function cpuMs(pids: number[]): Map<number, number> {
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

async function measure(target: Child, url: string, headers: Record<string, string>, args: Args, databaseUrl: string): Promise<Measured> {
  await autocannon({ url, headers, connections: args.connections, duration: args.warmup, timeout: 60 });
  // The warm-up opened the pool's connections: their backends are the ones the measured run uses.
  const pids = [target.process.pid as number, ...(await backendPids(databaseUrl))];
  const before = cpuMs(pids);
  const r = await autocannon({ url, headers, connections: args.connections, duration: args.duration, timeout: 60 });
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

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Rounds of one target as one figure: requests/s over the whole measured time; CPU, latency percentiles
 * and bytes as request-weighted means of the rounds (each round's own figures are kept alongside).
 */
function combine(runs: Measured[]): Measured & { rounds: Pick<Measured, "requests_per_second" | "latency_p50_ms" | "latency_p99_ms">[] } {
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

async function machine(databaseUrl: string, loadAverage: number[]): Promise<Record<string, unknown>> {
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

function writeReadme(summary: Record<string, any>): void {
  const start = "<!-- results:start -->";
  const end = "<!-- results:end -->";
  const readme = fs.existsSync(README_FILE) ? fs.readFileSync(README_FILE, "utf8") : `# Benchmarks\n\n${start}\n${end}\n`;
  const perRound = (m: { rounds: { requests_per_second: number }[] }) => m.rounds.map((r) => r.requests_per_second).join(" / ");
  const cpu = (m: Measured) => `${m.cpu_ms_per_request.server} + ${m.cpu_ms_per_request.postgres}`;
  const rows = (summary.scenarios as any[]).flatMap((s) => [
    `| ${s.name} | service | ${s.service.requests_per_second} (${perRound(s.service)}) | ${s.service.latency_p50_ms} | ${s.service.latency_p99_ms} | ${s.service.bytes_per_response} | ${cpu(s.service)} |`,
    `| ${s.name} | one SQL statement | ${s.sql.requests_per_second} (${perRound(s.sql)}) | ${s.sql.latency_p50_ms} | ${s.sql.latency_p99_ms} | ${s.sql.bytes_per_response} | ${cpu(s.sql)} |`,
    `| ${s.name} | **ratio** | SQL/ours **${s.ratio.rps_sql_over_service}** | ours/SQL **${s.ratio.p50_service_over_sql}** | ours/SQL ${s.ratio.p99_service_over_sql} | | |`,
  ]);
  const m = summary.machine;
  const block = [
    start,
    `Measured ${summary.measured_at}: ${summary.settings.connections} connections, ${summary.settings.rounds} rounds alternating the targets, each ${summary.settings.warmup_s} s warm-up + ${summary.settings.duration_s} s measured, one target at a time.`,
    `Machine: ${m.cpus} × ${m.cpu}, ${m.memory_gib} GiB, ${m.os}, Node ${m.node}, ${m.postgres}; load average at start ${m.load_average_at_start.join(" / ")}.`,
    "",
    "| scenario | target | requests/s (per round) | p50 ms | p99 ms | bytes/response | CPU ms/request: server + PostgreSQL |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    `Target (p50 within ${summary.target_ratio}x): ${summary.meets_target ? "met" : "NOT met"}.`,
    end,
  ].join("\n");
  const updated =
    readme.includes(start) && readme.includes(end) ? readme.replace(new RegExp(`${start}[\\s\\S]*${end}`), block) : `${readme}\n${block}\n`;
  fs.writeFileSync(README_FILE, updated);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const loadAverage = os.loadavg(); // before this run adds its own load
  if (!fs.existsSync(path.join(packageRoot, "dist/src/cli/main.js")))
    throw new Error("run `npm run build` first: the service runs from dist/");
  const bench = await prepareBenchDatabase(ADMIN_URL, { reuse: args.reuse, log });
  log(`database ready in ${bench.loadMs} ms (${bench.loaded ? "loaded" : "reused"}): ${JSON.stringify(bench.counts)}`);

  const [servicePort, sqlPort] = [await freePort(), await freePort()];
  const profileDir = path.join(packageRoot, "bench/profiles");
  // Node 20 refuses --cpu-prof inside NODE_OPTIONS: it goes on the command line.
  const nodeFlags = args.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const children: Child[] = [];
  const stopAll = () => Promise.all(children.map(stopChild));
  try {
    children.push(
      await startChild(
        "service",
        [...nodeFlags, path.join(args.serviceRoot, "bin/edmarket.js"), "serve", "--role", "api"],
        { ...process.env, DATABASE_URL: bench.url, PORT: String(servicePort), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
        servicePort,
        "/readyz",
      ),
    );
    children.push(
      await startChild(
        "sql",
        [path.join(packageRoot, "scripts/run-ts.js"), path.join(packageRoot, "bench/sql-server.ts")],
        {
          ...process.env,
          DATABASE_URL: bench.url,
          PORT: String(sqlPort),
          BENCH_ORG_ID: bench.organizationId,
          POOL_SIZE: String(POOL_SIZE),
        },
        sqlPort,
        "/districts?limit=1",
      ),
    );
    const [service, sql] = children;
    const auth = { authorization: `Bearer ${bench.apiKey}` };

    // 1. Same JSON, or nothing is measured.
    const bodyBytes: Record<string, { service: number; sql: number }> = {};
    for (const query of EQUALITY_QUERIES) {
      const ours = await fetchBody(`${service.base}/api/v1/districts?${query}`, auth);
      const theirs = await fetchBody(`${sql.base}/districts?${query}`, {});
      if (ours.status !== 200 || theirs.status !== 200)
        throw new Error(`${query}: status ${ours.status} (service) / ${theirs.status} (SQL)`);
      const difference = firstDifference(JSON.parse(ours.text), JSON.parse(theirs.text));
      if (difference) {
        log(`DIFFERENT JSON for ?${query}: ${difference}`);
        process.exitCode = 1;
        return;
      }
      bodyBytes[query] = { service: Buffer.byteLength(ours.text), sql: Buffer.byteLength(theirs.text) };
      log(`same JSON for ?${query} (${bodyBytes[query].service} bytes)`);
    }

    // 2. Measure, one target at a time.
    const scenarios = [];
    for (const scenario of SCENARIOS) {
      // Rounds alternate the two targets, so a change in the machine's background load falls on both.
      const ourRuns: Measured[] = [];
      const theirRuns: Measured[] = [];
      for (let round = 1; round <= args.rounds; round += 1) {
        log(`${scenario.name}, round ${round}/${args.rounds}: the service (${args.warmup} s warm-up, ${args.duration} s)`);
        ourRuns.push(await measure(service, `${service.base}/api/v1/districts?${scenario.query}`, auth, args, bench.url));
        log(`${scenario.name}, round ${round}/${args.rounds}: the SQL route`);
        theirRuns.push(await measure(sql, `${sql.base}/districts?${scenario.query}`, {}, args, bench.url));
      }
      const ours = combine(ourRuns);
      const theirs = combine(theirRuns);
      scenarios.push({
        name: scenario.name,
        path: `/api/v1/districts?${scenario.query}`,
        service: ours,
        sql: theirs,
        ratio: {
          p50_service_over_sql: round(ours.latency_p50_ms / theirs.latency_p50_ms),
          p99_service_over_sql: round(ours.latency_p99_ms / theirs.latency_p99_ms),
          rps_sql_over_service: round(theirs.requests_per_second / ours.requests_per_second),
        },
      });
    }
    const targetRatio = 1.3;
    const headline = scenarios[0];
    const summary = {
      benchmark: "GET /api/v1/districts?limit=200 vs one SQL statement building the same JSON",
      measured_at: new Date().toISOString(),
      target_ratio: targetRatio,
      meets_target: headline.ratio.p50_service_over_sql <= targetRatio && headline.ratio.rps_sql_over_service <= targetRatio,
      settings: {
        connections: args.connections,
        warmup_s: args.warmup,
        duration_s: args.duration,
        rounds: args.rounds,
        pool_size: POOL_SIZE,
        ...(args.serviceRoot !== packageRoot ? { service_root: args.serviceRoot } : {}),
      },
      machine: await machine(bench.url, loadAverage),
      data: bench.counts,
      body_bytes: bodyBytes,
      scenarios,
    };
    // Another checkout's figures are a comparison, not this code's latest results: they go to their own file.
    const ownService = args.serviceRoot === packageRoot;
    const resultsFile = ownService ? RESULTS_FILE : RESULTS_FILE.replace(/\.json$/, ".service-root.json");
    fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
    fs.writeFileSync(resultsFile, `${JSON.stringify(summary, null, 2)}\n`);
    if (ownService) writeReadme(summary);
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await stopAll();
  }
}

main().catch((error: unknown) => {
  log(String((error as Error)?.stack ?? error));
  process.exit(1);
});
