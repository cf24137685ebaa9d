/**
 * Headline benchmark: GET /api/v1/districts?limit=200 (full records, every block) of our service,
 * against ONE hand-written SQL statement that builds the same JSON in PostgreSQL behind a bare HTTP
 * route (bench/sql-server.ts). Target: our p50 and requests/s within 1.1x of the SQL route's (issue 10; 1.3x before).
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
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { packageRoot } from "../src/db/package-root";
import { prepareBenchDatabase } from "./bench-database";
import {
  parseBenchArgs,
  combine,
  firstDifference,
  log,
  machine,
  measure,
  rewriteReadmeBlock,
  round,
  startChild,
  stopChild,
  freePort,
  writeResults,
  type Child,
  type Measured,
  BENCH_ADMIN_URL,
} from "./harness";

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

const parseArgs = (argv: string[]) => ({
  ...parseBenchArgs(argv, { duration: 20, warmup: 5, connections: 10, rounds: 2 }, packageRoot),
  cpuProf: argv.includes("--cpu-prof"),
});

async function fetchBody(url: string, headers: Record<string, string>): Promise<{ text: string; status: number }> {
  const res = await fetch(url, { headers });
  return { text: await res.text(), status: res.status };
}

function writeReadme(summary: Record<string, any>): void {
  const perRound = (m: { rounds: { requests_per_second: number }[] }) => m.rounds.map((r) => r.requests_per_second).join(" / ");
  const cpu = (m: Measured) => `${m.cpu_ms_per_request.server} + ${m.cpu_ms_per_request.postgres}`;
  const rows = (summary.scenarios as any[]).flatMap((s) => [
    `| ${s.name} | service | ${s.service.requests_per_second} (${perRound(s.service)}) | ${s.service.latency_p50_ms} | ${s.service.latency_p99_ms} | ${s.service.bytes_per_response} | ${cpu(s.service)} |`,
    `| ${s.name} | one SQL statement | ${s.sql.requests_per_second} (${perRound(s.sql)}) | ${s.sql.latency_p50_ms} | ${s.sql.latency_p99_ms} | ${s.sql.bytes_per_response} | ${cpu(s.sql)} |`,
    `| ${s.name} | **ratio** | SQL/ours **${s.ratio.rps_sql_over_service}** | ours/SQL **${s.ratio.p50_service_over_sql}** | ours/SQL ${s.ratio.p99_service_over_sql} | | |`,
  ]);
  const m = summary.machine;
  rewriteReadmeBlock(README_FILE, "results", [
    `Measured ${summary.measured_at}: ${summary.settings.connections} connections, ${summary.settings.rounds} rounds alternating the targets, each ${summary.settings.warmup_s} s warm-up + ${summary.settings.duration_s} s measured, one target at a time.`,
    `Machine: ${m.cpus} × ${m.cpu}, ${m.memory_gib} GiB, ${m.os}, Node ${m.node}, ${m.postgres}; load average at start ${m.load_average_at_start.join(" / ")}.`,
    "",
    "| scenario | target | requests/s (per round) | p50 ms | p99 ms | bytes/response | CPU ms/request: server + PostgreSQL |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    `Target (p50 and requests/s within ${summary.target_ratio}x): ${summary.meets_target ? "met" : "NOT met"}.`,
  ]);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const loadAverage = os.loadavg(); // before this run adds its own load
  if (!fs.existsSync(path.join(packageRoot, "dist/bin/cli.js"))) throw new Error("run `npm run build` first: the service runs from dist/");
  const bench = await prepareBenchDatabase(BENCH_ADMIN_URL, { reuse: args.reuse, log });
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
        ourRuns.push(await measure(service, { url: `${service.base}/api/v1/districts?${scenario.query}`, headers: auth }, args, bench.url));
        log(`${scenario.name}, round ${round}/${args.rounds}: the SQL route`);
        theirRuns.push(await measure(sql, { url: `${sql.base}/districts?${scenario.query}`, headers: {} }, args, bench.url));
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
    const targetRatio = 1.1;
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
    writeResults(resultsFile, summary);
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
