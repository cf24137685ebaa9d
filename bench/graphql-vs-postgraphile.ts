/**
 * GraphQL benchmark: our /graphql against PostGraphile v5 on the same database and the same page,
 * 200 districts (first page by name) with directory fields and every statistics year of each.
 * Target: our requests/s at least 1.0x PostGraphile's, our p99 at most 1.5x its p99.
 *
 * One run: prepare the `edmarket_bench` database (bench/bench-database.ts), start our service exactly
 * as production runs it (`node bin/edmarket.js serve --role api`, built code in dist/) and PostGraphile
 * (bench/postgraphile-server.mjs, preset amber) as child processes, prove both answers hold the same
 * districts in the same order with the same statistics, then measure them in alternating rounds with
 * autocannon, print one JSON summary and write it to bench/results/graphql-vs-postgraphile.json and
 * bench/README.md.
 *
 * Usage: npm run build && npm run bench:graphql [-- --reuse] [--duration 15] [--warmup 5]
 *        [--connections 32] [--rounds 3]
 *        [--service-root DIR] (measure another checkout's build, e.g. a worktree of an older commit)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { packageRoot } from "../src/db/package-root";
import { prepareBenchDatabase } from "./bench-database";
import {
  parseBenchArgs,
  combine,
  firstDifference,
  freePort,
  log,
  machine,
  measure,
  rewriteReadmeBlock,
  round,
  startChild,
  stopChild,
  writeResults,
  type Child,
  type Combined,
  type Measured,
  type Target,
} from "./harness";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const POOL_SIZE = 10;
const PAGE_SIZE = 200;
const RESULTS_FILE = path.join(packageRoot, "bench/results/graphql-vs-postgraphile.json");
const README_FILE = path.join(packageRoot, "bench/README.md");
const TARGET = { rps_ratio_min: 1.0, p99_ratio_max: 1.5 };

/** Directory fields of a district (plain columns; `id` is PostGraphile's `rowId`). */
const DIRECTORY_FIELDS = [
  "fedId",
  "name",
  "state",
  "stateDistrictId",
  "districtType",
  "county",
  "physicalAddress",
  "physicalCity",
  "physicalState",
  "physicalZip",
  "phone",
  "websiteUrl",
  "gradeSpan",
  "localeType",
  "studentCount",
  "schoolCount",
  "teachersFte",
  "latitude",
  "longitude",
];
/** Every scalar field of our DistrictStatisticsEntry: the columns of district_annual_stats, same names in both schemas. */
const STAT_FIELDS = `schoolYearStart totalEnrollment operationalSchoolCount totalPopulation schoolAgePopulation
  schoolAgeChildrenInPoverty financeFiscalYear totalStaffFte teachersFte schoolCounselorsFte schoolPsychologistsFte
  studentSupportStaffFte instructionalAidesFte districtAdministratorsFte schoolAdministratorsFte totalRevenue localRevenue
  stateRevenue federalRevenue propertyTaxRevenue titleIRevenue stateSpecialEducationRevenue totalExpenditures
  currentExpenditures instructionExpenditures supportServicesExpenditures studentSupportExpenditures
  instructionalStaffSupportExpenditures generalAdministrationExpenditures schoolAdministrationExpenditures
  operationsMaintenanceExpenditures studentTransportationExpenditures capitalOutlayExpenditures interestOnDebtExpenditures
  totalSalaries instructionalSalaries specialEducationTeacherSalaries employeeBenefits longTermDebtOutstanding
  utilitiesEnergyExpenditures technologySuppliesServicesExpenditures technologyEquipmentExpenditures studentTeacherRatio
  counselorsPer1000Students psychologistsPer1000Students schoolAgePovertyPct revenuePerStudent
  currentExpendituresPerStudent federalRevenueSharePct enrollmentStatus fedDirectoryVersion fedMembershipVersion
  fedStaffVersion saipeVersion f33Version sourceUrls loadedAt`
  .split(/\s+/)
  .filter(Boolean);

const stats = STAT_FIELDS.join(" ");
const directory = DIRECTORY_FIELDS.join(" ");
/** Ours: the first page by name (the default order, ties by id); the enterprise plan's trend holds every year. */
const OUR_QUERY =
  `query BenchDistricts { districts(limit: ${PAGE_SIZE}) { data { id ${directory} ` +
  `annualStatistics { latest { ${stats} } trend { ${stats} } } } pagination { total } } }`;
/** PostGraphile: the same rows in the same order (name, then primary key), every statistics year ascending. */
const POSTGRAPHILE_QUERY =
  `query BenchDistricts { allDistricts(first: ${PAGE_SIZE}, orderBy: [NAME_ASC, PRIMARY_KEY_ASC]) { totalCount nodes { rowId ${directory} ` +
  `districtAnnualStatsByDistrictId(orderBy: SCHOOL_YEAR_START_ASC) { nodes { ${stats} } } } } }`;

const parseArgs = (argv: string[]) => parseBenchArgs(argv, { duration: 15, warmup: 5, connections: 32, rounds: 3 }, packageRoot);

const graphqlRequest = (url: string, query: string, headers: Record<string, string> = {}): Target => ({
  url,
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json", ...headers },
  body: JSON.stringify({ query }),
});

async function post(target: Target): Promise<{ json: any; bytes: number }> {
  const res = await fetch(target.url, { method: "POST", headers: target.headers, body: target.body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${target.url}: status ${res.status}: ${text.slice(0, 500)}`);
  const json = JSON.parse(text);
  if (json.errors) throw new Error(`${target.url}: errors ${JSON.stringify(json.errors).slice(0, 1000)}`);
  return { json, bytes: Buffer.byteLength(text) };
}

type Row = Record<string, unknown>;

/** A statistics entry with its timestamp as an instant (the two servers format timestamptz differently). */
const statEntry = (entry: Row): Row => ({
  ...entry,
  loadedAt: entry.loadedAt == null ? null : new Date(entry.loadedAt as string).toISOString(),
});

/**
 * Both answers as the same projection: total, then per district (in order) its id, directory fields and
 * every statistics entry, school years ascending. Also checks that our `latest` is the last trend entry.
 */
function projections(ours: any, theirs: any): { ours: Row; theirs: Row } {
  const ourPage = ours.data.districts;
  const theirPage = theirs.data.allDistricts;
  const pick = (d: Row) => Object.fromEntries(DIRECTORY_FIELDS.map((f) => [f, d[f]]));
  for (const d of ourPage.data as any[]) {
    const trend = d.annualStatistics.trend as Row[];
    const difference = firstDifference(d.annualStatistics.latest, trend.length ? trend[trend.length - 1] : null, [
      "latest",
      "last trend entry",
    ]);
    if (difference) throw new Error(`district ${d.id}: our latest is not the last trend entry: ${difference}`);
  }
  return {
    ours: {
      total: ourPage.pagination.total,
      districts: (ourPage.data as any[]).map((d) => ({ id: d.id, ...pick(d), statistics: d.annualStatistics.trend.map(statEntry) })),
    },
    theirs: {
      total: theirPage.totalCount,
      districts: (theirPage.nodes as any[]).map((d) => ({
        id: d.rowId,
        ...pick(d),
        statistics: d.districtAnnualStatsByDistrictId.nodes.map(statEntry),
      })),
    },
  };
}

function writeReadme(summary: Record<string, any>): void {
  const perRound = (m: Combined) => m.rounds.map((r) => r.requests_per_second).join(" / ");
  const p99s = (m: Combined) => m.rounds.map((r) => r.latency_p99_ms).join(" / ");
  const cpu = (m: Measured) => `${m.cpu_ms_per_request.server} + ${m.cpu_ms_per_request.postgres}`;
  const row = (name: string, m: Combined) =>
    `| ${name} | ${m.requests_per_second} (${perRound(m)}) | ${m.latency_p50_ms} | ${m.latency_p99_ms} (${p99s(m)}) | ${m.bytes_per_response} | ${cpu(m)} | ${m.errors + m.non_2xx} |`;
  const m = summary.machine;
  const s = summary.settings;
  const r = summary.ratio;
  const b = summary.service_build;
  const build = b
    ? `dist/ built ${b.dist_built_at} from the working tree; at the start of the run HEAD was ${b.commit}${b.uncommitted_paths ? ` with uncommitted edits (${b.uncommitted_paths} paths under src/, rest-adapter/, prisma/)` : " with no uncommitted edits under src/, rest-adapter/, prisma/"}`
    : "dist/ (commit unknown)";
  rewriteReadmeBlock(README_FILE, "graphql-results", [
    `Measured ${summary.measured_at}: ${s.connections} connections, ${s.rounds} rounds alternating the targets (the first target alternates too), each ${s.warmup_s} s warm-up + ${s.duration_s} s measured, one target at a time.`,
    `Machine: ${m.cpus} × ${m.cpu}, ${m.memory_gib} GiB, ${m.os}, Node ${m.node}, ${m.postgres}; load average at start ${m.load_average_at_start.join(" / ")}.`,
    `Ours: ${build}. PostGraphile ${summary.postgraphile_version}. Same answer checked before measuring: ${summary.equality.districts} districts, ${summary.equality.statistics_entries} statistics entries, total ${summary.equality.total}.`,
    "",
    "| target | requests/s (per round) | p50 ms | p99 ms (per round) | bytes/response | CPU ms/request: server + PostgreSQL | errors + non-2xx |",
    "|---|---:|---:|---:|---:|---:|---:|",
    row("/graphql (ours)", summary.graphql),
    row("PostGraphile v5", summary.postgraphile),
    `| **ratio** | ours/PostGraphile **${r.rps_graphql_over_postgraphile}** | ours/PostGraphile ${r.p50_graphql_over_postgraphile} | ours/PostGraphile **${r.p99_graphql_over_postgraphile}** | ${r.bytes_graphql_over_postgraphile} | | |`,
    "",
    `Target (requests/s ratio >= ${TARGET.rps_ratio_min}, p99 ratio <= ${TARGET.p99_ratio_max}): ${summary.meets_target ? "met" : "NOT met"} (requests/s ${r.rps_graphql_over_postgraphile}, p99 ${r.p99_graphql_over_postgraphile}).`,
  ]);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const loadAverage = os.loadavg(); // before this run adds its own load
  if (!fs.existsSync(path.join(args.serviceRoot, "dist/src/cli/main.js")))
    throw new Error("run `npm run build` first: the service runs from dist/");
  const build = serviceBuild(args.serviceRoot); // at the start: the tree may change during the run
  const bench = await prepareBenchDatabase(ADMIN_URL, { reuse: args.reuse, log });
  log(`database ready in ${bench.loadMs} ms (${bench.loaded ? "loaded" : "reused"}): ${JSON.stringify(bench.counts)}`);

  const [servicePort, postgraphilePort] = [await freePort(), await freePort()];
  const children: Child[] = [];
  try {
    children.push(
      await startChild(
        "service",
        [path.join(args.serviceRoot, "bin/edmarket.js"), "serve", "--role", "api"],
        { ...process.env, DATABASE_URL: bench.url, PORT: String(servicePort), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
        servicePort,
        "/readyz",
      ),
    );
    children.push(
      await startChild(
        "postgraphile",
        [path.join(packageRoot, "bench/postgraphile-server.mjs")],
        {
          ...process.env,
          DATABASE_URL: bench.url,
          PORT: String(postgraphilePort),
          HOST: "127.0.0.1",
          POOL_SIZE: String(POOL_SIZE),
          GRAPHILE_ENV: "production",
        },
        postgraphilePort,
        "/graphql",
      ),
    );
    const [service, postgraphile] = children;
    const targets = {
      graphql: graphqlRequest(`${service.base}/graphql`, OUR_QUERY, { authorization: `Bearer ${bench.apiKey}` }),
      postgraphile: graphqlRequest(`${postgraphile.base}/graphql`, POSTGRAPHILE_QUERY),
    };

    // 1. The same districts, in the same order, with the same statistics, or nothing is measured.
    const ours = await post(targets.graphql);
    const theirs = await post(targets.postgraphile);
    const projected = projections(ours.json, theirs.json);
    const districts = (projected.ours.districts as Row[]).length;
    if (districts !== PAGE_SIZE) throw new Error(`/graphql answered ${districts} districts, expected ${PAGE_SIZE}`);
    const difference = firstDifference(projected.ours, projected.theirs, ["/graphql", "PostGraphile"]);
    if (difference) {
      log(`DIFFERENT DATA: ${difference}`);
      process.exitCode = 1;
      return;
    }
    const entries = (projected.ours.districts as { statistics: Row[] }[]).reduce((n, d) => n + d.statistics.length, 0);
    log(`same ${districts} districts and ${entries} statistics entries (/graphql ${ours.bytes} bytes, PostGraphile ${theirs.bytes} bytes)`);

    // 2. Measure, one target at a time; rounds alternate the targets and which one goes first, so a
    // change in the machine's background load falls on both.
    const runs: Record<"graphql" | "postgraphile", Measured[]> = { graphql: [], postgraphile: [] };
    const servers = { graphql: service, postgraphile };
    for (let n = 1; n <= args.rounds; n += 1) {
      const order = n % 2 === 1 ? (["graphql", "postgraphile"] as const) : (["postgraphile", "graphql"] as const);
      for (const name of order) {
        log(`round ${n}/${args.rounds}: ${name} (${args.warmup} s warm-up, ${args.duration} s, ${args.connections} connections)`);
        const run = await measure(servers[name], targets[name], args, bench.url);
        log(
          `  ${run.requests_per_second} req/s, p50 ${run.latency_p50_ms} ms, p99 ${run.latency_p99_ms} ms, ${run.errors} errors, ${run.non_2xx} non-2xx`,
        );
        runs[name].push(run);
      }
    }
    const graphql = combine(runs.graphql);
    const pgl = combine(runs.postgraphile);
    const ratio = {
      rps_graphql_over_postgraphile: round(graphql.requests_per_second / pgl.requests_per_second),
      p50_graphql_over_postgraphile: round(graphql.latency_p50_ms / pgl.latency_p50_ms),
      p99_graphql_over_postgraphile: round(graphql.latency_p99_ms / pgl.latency_p99_ms),
      bytes_graphql_over_postgraphile: round(graphql.bytes_per_response / pgl.bytes_per_response),
    };
    const summary = {
      benchmark: `POST /graphql districts(limit: ${PAGE_SIZE}) with directory fields and annualStatistics { latest trend } vs PostGraphile v5 allDistricts(first: ${PAGE_SIZE}) with every statistics year`,
      measured_at: new Date().toISOString(),
      target: TARGET,
      meets_target:
        graphql.errors + graphql.non_2xx === 0 &&
        ratio.rps_graphql_over_postgraphile >= TARGET.rps_ratio_min &&
        ratio.p99_graphql_over_postgraphile <= TARGET.p99_ratio_max,
      settings: {
        connections: args.connections,
        warmup_s: args.warmup,
        duration_s: args.duration,
        rounds: args.rounds,
        pool_size: POOL_SIZE,
        ...(args.serviceRoot !== packageRoot ? { service_root: args.serviceRoot } : {}),
      },
      machine: await machine(bench.url, loadAverage),
      service_build: build,
      postgraphile_version: postgraphileVersion(),
      data: bench.counts,
      equality: { districts, statistics_entries: entries, total: projected.ours.total },
      body_bytes: { graphql: ours.bytes, postgraphile: theirs.bytes },
      queries: { graphql: OUR_QUERY, postgraphile: POSTGRAPHILE_QUERY },
      graphql,
      postgraphile: pgl,
      ratio,
    };
    // Another checkout's figures are a comparison, not this code's latest results: they go to their own file.
    const ownService = args.serviceRoot === packageRoot;
    const resultsFile = ownService ? RESULTS_FILE : RESULTS_FILE.replace(/\.json$/, ".service-root.json");
    writeResults(resultsFile, summary);
    if (ownService) writeReadme(summary);
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await Promise.all(children.map(stopChild));
  }
}

/**
 * What was measured as "ours": dist/ is built from the working tree, which may hold uncommitted edits, so
 * a commit alone does not name it: HEAD at the start of the run, the paths under src/, rest-adapter/ and
 * prisma/ that differ from it then, and when dist/ was built.
 */
function serviceBuild(root: string): { commit: string; uncommitted_paths: number; dist_built_at: string } | null {
  const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();
  try {
    return {
      commit: git("rev-parse", "--short", "HEAD"),
      uncommitted_paths: git("status", "--porcelain", "--", "src", "rest-adapter", "prisma").split("\n").filter(Boolean).length,
      dist_built_at: fs.statSync(path.join(root, "dist/src/cli/main.js")).mtime.toISOString(),
    };
  } catch {
    return null;
  }
}

/** The installed PostGraphile's version (its package.json is not exported: read from node_modules). */
function postgraphileVersion(): string {
  const file = path.join(packageRoot, "node_modules/postgraphile/package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

main().catch((error: unknown) => {
  log(String((error as Error)?.stack ?? error));
  process.exit(1);
});
