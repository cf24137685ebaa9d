/**
 * Fuzzing at volume (issue 26): 100,000 requests generated from the definitions (the REST route table, the GraphQL
 * schema, the metric-query grammar: test/support/fuzz, the same generators as test/hostile/fuzz.test.ts) sent to
 * the app on PostgreSQL, counting 5xx, error bodies not in the generic shape, GraphQL errors without a code or
 * masked as internal, hangs (no answer within --timeout ms), canaries of gated records shown to an organization
 * that has not unlocked them, the slowest request and the status histogram.
 *
 * The database is its own on the local PostgreSQL: `edm_fuzz_bench` (smoke: `edm_fuzz_bench_smoke`) created from
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), migrated, seeded with the fuzz fixtures
 * and one organization per plan, dropped at the end unless --keep. The app runs in this process (createApp with the
 * REST adapter and a sending job queue, as an API process serves it) with rate limits no run meets.
 *
 *   node scripts/run-ts.js bench/fuzz.ts [--runs N] [--seed S] [--concurrency C] [--timeout MS] [--keep]
 *   BENCH_SMOKE=1 node scripts/run-ts.js bench/fuzz.ts   (100 requests: seconds)
 *
 * Exits 1 when any problem was seen (after writing the figures), printing each kept failure with its request.
 */
import "reflect-metadata";
import os from "node:os";
import path from "node:path";
import type http from "node:http";
import { restAdapter } from "../rest-adapter";
import { routes } from "../rest-adapter/routes";
import { createApp } from "../src/app";
import { startServiceJobs } from "../src/compose-jobs";
import { loadEnv } from "../src/config/env";
import { migrate } from "../src/db/migrate";
import { openDatabase } from "../src/db/open";
import { packageRoot } from "../src/db/package-root";
import { createHttpServer } from "../src/http-server";
import { hasUnlockedRecord, seedFuzzData, warmUp } from "../test/support/fuzz/fixtures";
import { requestArbitrary, runFuzz, summarize, type FuzzReport } from "../test/support/fuzz/runner";
import { createPlanOrganizations, GENEROUS_RATE_LIMITS } from "../test/support/plans";
import { freshBenchDatabase, log, machine, rewriteReadmeBlock, SMOKE, writeResults, integerOption, BENCH_ADMIN_URL } from "./harness";
import { smokeServerTemplate } from "./smoke-template";

const DATABASE = SMOKE ? "edm_fuzz_bench_smoke" : "edm_fuzz_bench";

const RUNS = integerOption("runs", SMOKE ? 100 : 100_000);
const SEED = integerOption("seed", 26_2026);
const CONCURRENCY = integerOption("concurrency", 8);
const TIMEOUT_MS = integerOption("timeout", 10_000);
const KEEP = process.argv.includes("--keep");

function readmeLines(report: FuzzReport, host: Record<string, unknown>): string[] {
  const c = report.counts;
  const statuses = Object.entries(report.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n.toLocaleString("en-US")}`)
    .join(", ");
  return [
    `${new Date().toISOString().slice(0, 10)}, seed ${report.seed}, ${report.stopped ? `stopped after ${report.requests.toLocaleString("en-US")} of ${RUNS.toLocaleString("en-US")} requests, ` : ""}${CONCURRENCY} in flight, ${host.cpus} CPUs (load average at start ${(host.load_average_at_start as number[]).join(" ")}), ${host.postgres}:`,
    "",
    "| requests | 5xx | bad error shape | internals in a message | GraphQL errors without code / internal | hangs (> 10 s) | gated leaks | connection errors | wall time |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    `| ${report.requests.toLocaleString("en-US")} | ${c["5xx"]} | ${c.shape} | ${c["internal-message"]} | ${c["graphql-code"]} / ${c["graphql-internal"]} | ${c.hang} | ${c.leak} | ${c.connection} | ${Math.round(report.elapsedMs / 1000)} s |`,
    "",
    `Slowest request: ${report.slowest ? `${report.slowest.label}, ${report.slowest.ms} ms` : "none"}. Statuses: ${statuses}. ` +
      `Canaries of gated records seen by the organization that unlocked them (the leak check at work): ${report.canariesOwned}.`,
  ];
}

async function main(): Promise<void> {
  // The access log would write a line per request (the logger reads LOG_LEVEL at each write).
  process.env.LOG_LEVEL ??= "warn";
  const loadAverage = os.loadavg();
  const bench = await freshBenchDatabase(BENCH_ADMIN_URL, DATABASE, await smokeServerTemplate(BENCH_ADMIN_URL));
  const env = loadEnv({ DATABASE_URL: bench.url, EMBEDDINGS_AUTO: "false", ...GENEROUS_RATE_LIMITS });
  // The API's pool as `serve` opens it: its size, and statements bounded by the request budget.
  const db = await openDatabase(env, { serving: true });
  let server: http.Server | undefined;
  let stop: (() => Promise<void>) | undefined;
  let report: FuzzReport | undefined;
  try {
    await migrate(db);
    const { keys, orgs } = await createPlanOrganizations(db);
    const t0 = performance.now();
    const data = await seedFuzzData(db, orgs);
    log(`fixtures seeded in ${Math.round(performance.now() - t0)} ms`);
    // A pending contact unlock sends its enrichment job, as an API process does.
    const jobs = await startServiceJobs(db, env, { work: false });
    const app = await createApp({ db, env, rest: restAdapter, jobs: jobs.queue });
    stop = async () => {
      await app.stop();
      await jobs.stop();
    };
    server = createHttpServer(app.app);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await warmUp(base, keys.internal);
    log(`${RUNS} requests, seed ${SEED}, ${CONCURRENCY} in flight, timeout ${TIMEOUT_MS} ms (SIGINT: stop and report what was sent)`);
    // Interrupted (SIGINT/SIGTERM), the run stops taking requests and reports the ones sent: a long run on a busy
    // machine still leaves its figures.
    const stopping = new AbortController();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopping.abort());
    const started = performance.now();
    report = await runFuzz(
      { base, keys, orgs, hasUnlocked: (org, id) => hasUnlockedRecord(db, org, id) },
      requestArbitrary(routes, app.engine.schema, data),
      {
        seed: SEED,
        runs: RUNS,
        concurrency: CONCURRENCY,
        timeoutMs: TIMEOUT_MS,
        keepFailures: 100,
        signal: stopping.signal,
        onProgress: (done, r) =>
          done % 5_000 === 0 &&
          log(
            `${done} requests (${Math.round(performance.now() - started) / 1000} s), ${
              Object.entries(r.counts)
                .filter(([, n]) => n)
                .map(([k, n]) => `${k} ${n}`)
                .join(", ") || "no problem"
            }`,
          ),
      },
    );
    log(summarize(report));
    const host = await machine(bench.url, loadAverage);
    writeResults(path.join(packageRoot, "bench", "results", "fuzz.json"), {
      ...report,
      concurrency: CONCURRENCY,
      timeout_ms: TIMEOUT_MS,
      machine: host,
    });
    rewriteReadmeBlock(path.join(packageRoot, "bench", "README.md"), "fuzz", readmeLines(report, host));
  } finally {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    await stop?.();
    await db.close();
    await bench.drop(KEEP);
  }
  const problems = Object.values(report.counts).reduce((a, b) => a + b, 0);
  if (problems) {
    for (const f of report.failures) process.stderr.write(`#${f.index} ${f.problem} ${f.label}: ${f.reason}\n    ${f.request}\n`);
    process.stderr.write(`replay: node scripts/run-ts.js bench/fuzz.ts --seed ${SEED} --runs ${RUNS}\n`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
