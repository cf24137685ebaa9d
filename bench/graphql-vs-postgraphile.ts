/**
 * GraphQL benchmark: our /graphql against PostGraphile v5 on the same data, 200 districts with directory
 * fields and every statistics year of each, in two shapes (scenarios):
 * - `literal`: one query with literal arguments, the first page by name (most of those districts have one
 *   or two statistics years);
 * - `client`: as a client sends it (issue 21 point 6): a named operation with variables and fragments, the
 *   largest districts (twelve statistics years each), `pagination { total hasMore }`.
 * Target per scenario: our requests/s at least 1.0x PostGraphile's, our p99 at most 1.5x its p99.
 *
 * One run: prepare the `edmarket_bench` database (bench/bench-database.ts) and, in it, PostGraphile's plain
 * two-table schema `bench_plain` (districts and their statistics copied from ours, with a real foreign key),
 * start our service exactly as production runs it (`node bin/edmarket.js serve --role api`, built code in
 * dist/) and PostGraphile (bench/postgraphile-server.mjs, preset amber) as child processes, prove both
 * answers hold the same districts in the same order with the same statistics, then measure them in
 * alternating rounds with autocannon, print one JSON summary and write it to
 * bench/results/graphql-vs-postgraphile.json and bench/README.md.
 *
 * Usage: npm run build && npm run bench:graphql [-- --reuse] [--duration 15] [--warmup 5]
 *        [--connections N] (every scenario; default literal 32, client 8) [--rounds 3]
 *        [--scenario literal|client] (one scenario only; no README block)
 *        [--cpu-prof] (profiles of our server go to bench/profiles/)
 *        [--service-root DIR] (measure another checkout's build, e.g. a worktree of an older commit)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
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
  SMOKE,
  type Child,
  type Combined,
  type Measured,
  type Target,
  BENCH_ADMIN_URL,
} from "./harness";

const POOL_SIZE = 10;
const PAGE_SIZE = 200;
const RESULTS_FILE = path.join(packageRoot, "bench/results/graphql-vs-postgraphile.json");
const README_FILE = path.join(packageRoot, "bench/README.md");
const TARGET = { rps_ratio_min: 1.0, p99_ratio_max: 1.5 };
/** PostGraphile's schema: two plain tables (bench_plain.districts, bench_plain.district_annual_stats). */
const PLAIN_SCHEMA = "bench_plain";

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

/** One GraphQL request as a client sends it: the document, and its variables when it has any. */
interface Operation {
  query: string;
  variables?: Record<string, unknown>;
}

interface Scenario {
  name: "literal" | "client";
  description: string;
  /** Connections when --connections is not given. */
  connections: number;
  ours: Operation;
  postgraphile: Operation;
}

const SCENARIOS: Scenario[] = [
  {
    name: "literal",
    description: `first page by name: a query with literal arguments, directory fields, annualStatistics { latest trend }, pagination { total }`,
    connections: 32,
    // Ours: the default order (name, ties by id); the enterprise plan's trend holds every year.
    ours: {
      query:
        `query BenchDistricts { districts(limit: ${PAGE_SIZE}) { data { id ${directory} ` +
        `annualStatistics { latest { ${stats} } trend { ${stats} } } } pagination { total } } }`,
    },
    // PostGraphile: the same rows in the same order (name, then primary key), every statistics year ascending.
    postgraphile: {
      query:
        `query BenchDistricts { allDistricts(first: ${PAGE_SIZE}, orderBy: [NAME_ASC, PRIMARY_KEY_ASC]) { totalCount nodes { rowId ${directory} ` +
        `districtAnnualStatsByDistrictId(orderBy: SCHOOL_YEAR_START_ASC) { nodes { ${stats} } } } } }`,
    },
  },
  {
    name: "client",
    description: `largest districts (twelve statistics years each): an operation with variables and fragments, directory fields, annualStatistics { latest trend }, pagination { total hasMore }`,
    // A 4.5 MB page: with 32 connections PostGraphile's requests waited longer than a 15 s round on the
    // 2-core machine (rounds without one completed request), so it could not be measured.
    connections: 8,
    ours: {
      query: [
        `query DistrictPage($limit: Int!, $offset: Int!, $orderBy: DistrictOrderField!, $ascending: Boolean!) {`,
        `  districts(limit: $limit, offset: $offset, orderBy: $orderBy, orderAscending: $ascending) {`,
        `    data { ...DistrictDirectory annualStatistics { latest { ...YearStatistics } trend { ...YearStatistics } } }`,
        `    pagination { total hasMore }`,
        `  }`,
        `}`,
        `fragment DistrictDirectory on District { id ${directory} }`,
        `fragment YearStatistics on DistrictStatisticsEntry { ${stats} }`,
      ].join("\n"),
      variables: { limit: PAGE_SIZE, offset: 0, orderBy: "student_count", ascending: false },
    },
    // Nulls last (pgOrderByNullsLast in bench/postgraphile-server.mjs), ties by primary key: our order.
    postgraphile: {
      query: [
        `query DistrictPage($first: Int!, $offset: Int!, $orderBy: [DistrictOrderBy!]) {`,
        `  allDistricts(first: $first, offset: $offset, orderBy: $orderBy) {`,
        `    totalCount pageInfo { hasNextPage }`,
        `    nodes { ...DistrictDirectory districtAnnualStatsByDistrictId(orderBy: SCHOOL_YEAR_START_ASC) { nodes { ...YearStatistics } } }`,
        `  }`,
        `}`,
        `fragment DistrictDirectory on District { rowId ${directory} }`,
        `fragment YearStatistics on DistrictAnnualStat { ${stats} }`,
      ].join("\n"),
      variables: { first: PAGE_SIZE, offset: 0, orderBy: ["STUDENT_COUNT_DESC", "PRIMARY_KEY_ASC"] },
    },
  },
];

function parseArgs(argv: string[]) {
  const scenario = argv.includes("--scenario") ? argv[argv.indexOf("--scenario") + 1] : undefined;
  if (scenario !== undefined && !SCENARIOS.some((s) => s.name === scenario))
    throw new Error(`--scenario must be one of ${SCENARIOS.map((s) => s.name).join(", ")}`);
  return {
    ...parseBenchArgs(argv, { duration: 15, warmup: 5, connections: 32, rounds: 3 }, packageRoot),
    /** --connections given: every scenario uses it; otherwise each its own. */
    connectionsGiven: argv.includes("--connections"),
    scenario,
    cpuProf: argv.includes("--cpu-prof"),
  };
}

const graphqlRequest = (url: string, operation: Operation, headers: Record<string, string> = {}): Target => ({
  url,
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json", ...headers },
  body: JSON.stringify(operation),
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
 * Both answers as the same projection: total, whether more follow (when asked), then per district (in
 * order) its id, directory fields and every statistics entry, school years ascending. Also checks that our
 * `latest` is the last trend entry.
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
      hasMore: ourPage.pagination.hasMore ?? null,
      districts: (ourPage.data as any[]).map((d) => ({ id: d.id, ...pick(d), statistics: d.annualStatistics.trend.map(statEntry) })),
    },
    theirs: {
      total: theirPage.totalCount,
      hasMore: theirPage.pageInfo?.hasNextPage ?? null,
      districts: (theirPage.nodes as any[]).map((d) => ({
        id: d.rowId,
        ...pick(d),
        statistics: d.districtAnnualStatsByDistrictId.nodes.map(statEntry),
      })),
    },
  };
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * PostGraphile's data: a plain two-table schema, as a schema generated server is usually pointed at (the
 * independent bench of issue 21 point 6 did so): the district directory columns and every statistics
 * row copied from ours, primary keys, the foreign key from the statistics to their district (ours
 * declares none, so PostGraphile would generate no relation) and indexes for the orders measured.
 * Rebuilt on every run from the public tables, so it always holds the same data.
 */
async function preparePlainSchema(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${PLAIN_SCHEMA} CASCADE`);
    await client.query(`CREATE SCHEMA ${PLAIN_SCHEMA}`);
    await client.query(
      `CREATE TABLE ${PLAIN_SCHEMA}.districts AS SELECT id, ${DIRECTORY_FIELDS.map(snake).join(", ")} FROM public.districts`,
    );
    await client.query(`CREATE TABLE ${PLAIN_SCHEMA}.district_annual_stats AS SELECT * FROM public.district_annual_stats`);
    await client.query(`ALTER TABLE ${PLAIN_SCHEMA}.districts ADD PRIMARY KEY (id)`);
    await client.query(`ALTER TABLE ${PLAIN_SCHEMA}.district_annual_stats ADD PRIMARY KEY (id)`);
    await client.query(
      `ALTER TABLE ${PLAIN_SCHEMA}.district_annual_stats ADD UNIQUE (district_id, school_year_start), ` +
        `ADD FOREIGN KEY (district_id) REFERENCES ${PLAIN_SCHEMA}.districts (id)`,
    );
    await client.query(`CREATE INDEX ON ${PLAIN_SCHEMA}.districts (name, id)`);
    await client.query(`CREATE INDEX ON ${PLAIN_SCHEMA}.districts (student_count DESC NULLS LAST, id)`);
    await client.query(`VACUUM ANALYZE ${PLAIN_SCHEMA}.districts, ${PLAIN_SCHEMA}.district_annual_stats`);
  } finally {
    await client.end();
  }
}

interface ScenarioResult {
  description: string;
  connections: number;
  equality: { districts: number; statistics_entries: number; total: unknown; has_more: unknown };
  body_bytes: { graphql: number; postgraphile: number };
  operations: { graphql: Operation; postgraphile: Operation };
  meets_target: boolean;
  graphql: Combined;
  postgraphile: Combined;
  ratio: Record<string, number>;
}

/** Checks that both servers give the same data for the scenario; null (and a log line) when they do not. */
async function sameAnswer(scenario: Scenario, targets: { graphql: Target; postgraphile: Target }) {
  const ours = await post(targets.graphql);
  const theirs = await post(targets.postgraphile);
  const projected = projections(ours.json, theirs.json);
  const districts = (projected.ours.districts as Row[]).length;
  if (districts !== PAGE_SIZE) throw new Error(`${scenario.name}: /graphql answered ${districts} districts, expected ${PAGE_SIZE}`);
  const difference = firstDifference(projected.ours, projected.theirs, ["/graphql", "PostGraphile"]);
  if (difference) {
    log(`${scenario.name}: DIFFERENT DATA: ${difference}`);
    return null;
  }
  const entries = (projected.ours.districts as { statistics: Row[] }[]).reduce((n, d) => n + d.statistics.length, 0);
  log(
    `${scenario.name}: same ${districts} districts and ${entries} statistics entries (/graphql ${ours.bytes} bytes, PostGraphile ${theirs.bytes} bytes)`,
  );
  return {
    equality: { districts, statistics_entries: entries, total: projected.ours.total, has_more: projected.ours.hasMore },
    body_bytes: { graphql: ours.bytes, postgraphile: theirs.bytes },
  };
}

function writeReadme(summary: Record<string, any>): void {
  const perRound = (m: Combined) => m.rounds.map((r) => r.requests_per_second).join(" / ");
  const p99s = (m: Combined) => m.rounds.map((r) => r.latency_p99_ms).join(" / ");
  const cpu = (m: Measured) => `${m.cpu_ms_per_request.server} + ${m.cpu_ms_per_request.postgres}`;
  const row = (scenario: string, name: string, m: Combined) =>
    `| ${scenario} | ${name} | ${m.requests_per_second} (${perRound(m)}) | ${m.latency_p50_ms} | ${m.latency_p99_ms} (${p99s(m)}) | ${m.bytes_per_response} | ${cpu(m)} | ${m.errors + m.non_2xx} |`;
  const m = summary.machine;
  const s = summary.settings;
  const b = summary.service_build;
  const build = b
    ? `dist/ built ${b.dist_built_at} from the working tree; at the start of the run HEAD was ${b.commit}${b.uncommitted_paths ? ` with uncommitted edits (${b.uncommitted_paths} paths under src/, rest-adapter/, prisma/)` : " with no uncommitted edits under src/, rest-adapter/, prisma/"}`
    : "dist/ (commit unknown)";
  const scenarios = Object.entries(summary.scenarios as Record<string, ScenarioResult>);
  rewriteReadmeBlock(README_FILE, "graphql-results", [
    `Measured ${summary.measured_at}: ${scenarios.map(([name, r]) => `${name} ${r.connections} connections`).join(", ")}; ${s.rounds} rounds alternating the targets (the first target alternates too), each ${s.warmup_s} s warm-up + ${s.duration_s} s measured, one target at a time.`,
    `Machine: ${m.cpus} × ${m.cpu}, ${m.memory_gib} GiB, ${m.os}, Node ${m.node}, ${m.postgres}; load average at start ${m.load_average_at_start.join(" / ")}, at the end ${summary.load_average_at_end.join(" / ")}.`,
    `Ours: ${build}. PostGraphile ${summary.postgraphile_version} on the plain schema ${PLAIN_SCHEMA}. Same answer checked before measuring: ${scenarios
      .map(
        ([name, r]) =>
          `${name} ${r.equality.districts} districts, ${r.equality.statistics_entries} statistics entries, total ${r.equality.total}`,
      )
      .join("; ")}.`,
    "",
    "| scenario | target | requests/s (per round) | p50 ms | p99 ms (per round) | bytes/response | CPU ms/request: server + PostgreSQL | errors + non-2xx |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    ...scenarios.flatMap(([name, r]) => [
      row(name, "/graphql (ours)", r.graphql),
      row(name, "PostGraphile v5", r.postgraphile),
      `| ${name} | **ratio** | ours/PostGraphile **${r.ratio.rps_graphql_over_postgraphile}** | ours/PostGraphile ${r.ratio.p50_graphql_over_postgraphile} | ours/PostGraphile **${r.ratio.p99_graphql_over_postgraphile}** | ${r.ratio.bytes_graphql_over_postgraphile} | | |`,
    ]),
    "",
    `Target (per scenario: requests/s ratio >= ${TARGET.rps_ratio_min}, p99 ratio <= ${TARGET.p99_ratio_max}): ${scenarios
      .map(
        ([name, r]) =>
          `${name} ${r.meets_target ? "met" : "NOT met"} (requests/s ${r.ratio.rps_graphql_over_postgraphile}, p99 ${r.ratio.p99_graphql_over_postgraphile})`,
      )
      .join("; ")}.`,
  ]);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const loadAverage = os.loadavg(); // before this run adds its own load
  if (!fs.existsSync(path.join(args.serviceRoot, "dist/src/cli/main.js")))
    throw new Error("run `npm run build` first: the service runs from dist/");
  const build = serviceBuild(args.serviceRoot); // at the start: the tree may change during the run
  const bench = await prepareBenchDatabase(BENCH_ADMIN_URL, { reuse: args.reuse, log });
  log(`database ready in ${bench.loadMs} ms (${bench.loaded ? "loaded" : "reused"}): ${JSON.stringify(bench.counts)}`);
  await preparePlainSchema(bench.url);
  const scenarios = SCENARIOS.filter((s) => !args.scenario || s.name === args.scenario);

  const [servicePort, postgraphilePort] = [await freePort(), await freePort()];
  const profileDir = path.join(packageRoot, "bench/profiles");
  // Node 20 refuses --cpu-prof inside NODE_OPTIONS: it goes on the command line.
  const nodeFlags = args.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const children: Child[] = [];
  try {
    children.push(
      await startChild(
        "service",
        [...nodeFlags, path.join(args.serviceRoot, "bin/edmarket.js"), "serve", "--role", "api"],
        {
          ...process.env,
          DATABASE_URL: bench.url,
          PORT: String(servicePort),
          HOST: "127.0.0.1",
          LOG_LEVEL: "warn",
          // One key sends every request: the enterprise plan's limits (4 in flight) would answer most of the
          // 32 connections 429. PostGraphile has none; the limits are measured by bench:fairness.
          RATE_LIMIT_ENTERPRISE: "unlimited",
        },
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
          PG_SCHEMA: PLAIN_SCHEMA,
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
    const servers = { graphql: service, postgraphile };
    const results: Record<string, ScenarioResult> = {};
    for (const scenario of scenarios) {
      const settings = { ...args, connections: SMOKE || args.connectionsGiven ? args.connections : scenario.connections };
      const targets = {
        graphql: graphqlRequest(`${service.base}/graphql`, scenario.ours, { authorization: `Bearer ${bench.apiKey}` }),
        postgraphile: graphqlRequest(`${postgraphile.base}/graphql`, scenario.postgraphile),
      };
      // 1. The same districts, in the same order, with the same statistics, or nothing is measured.
      const same = await sameAnswer(scenario, targets);
      if (!same) {
        process.exitCode = 1;
        return;
      }
      // 2. Measure, one target at a time; rounds alternate the targets and which one goes first, so a
      // change in the machine's background load falls on both.
      const runs: Record<"graphql" | "postgraphile", Measured[]> = { graphql: [], postgraphile: [] };
      for (let n = 1; n <= args.rounds; n += 1) {
        const order = n % 2 === 1 ? (["graphql", "postgraphile"] as const) : (["postgraphile", "graphql"] as const);
        for (const name of order) {
          log(
            `${scenario.name} round ${n}/${args.rounds}: ${name} (${args.warmup} s warm-up, ${args.duration} s, ${settings.connections} connections)`,
          );
          const run = await measure(servers[name], targets[name], settings, bench.url);
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
      results[scenario.name] = {
        description: scenario.description,
        connections: settings.connections,
        ...same,
        operations: { graphql: scenario.ours, postgraphile: scenario.postgraphile },
        meets_target:
          graphql.errors + graphql.non_2xx === 0 &&
          ratio.rps_graphql_over_postgraphile >= TARGET.rps_ratio_min &&
          ratio.p99_graphql_over_postgraphile <= TARGET.p99_ratio_max,
        graphql,
        postgraphile: pgl,
        ratio,
      };
    }
    const summary = {
      benchmark: `POST /graphql districts(limit: ${PAGE_SIZE}) with directory fields and annualStatistics { latest trend } vs PostGraphile v5 allDistricts(first: ${PAGE_SIZE}) with every statistics year, on a plain two-table schema`,
      measured_at: new Date().toISOString(),
      target: TARGET,
      meets_target: Object.values(results).every((r) => r.meets_target),
      settings: {
        connections: Object.fromEntries(Object.entries(results).map(([name, r]) => [name, r.connections])),
        warmup_s: args.warmup,
        duration_s: args.duration,
        rounds: args.rounds,
        pool_size: POOL_SIZE,
        ...(args.serviceRoot !== packageRoot ? { service_root: args.serviceRoot } : {}),
        ...(args.cpuProf ? { cpu_prof: true } : {}),
      },
      machine: await machine(bench.url, loadAverage),
      load_average_at_end: os.loadavg().map((n) => round(n)),
      service_build: build,
      postgraphile_version: postgraphileVersion(),
      data: bench.counts,
      scenarios: results,
    };
    // Another checkout's figures (or one scenario's, or a profiled run's) are a comparison, not this code's
    // latest results: they go to their own file, and the README block stays.
    const complete = args.serviceRoot === packageRoot && !args.scenario && !args.cpuProf;
    const suffix =
      args.serviceRoot !== packageRoot ? ".service-root" : args.scenario ? `.${args.scenario}` : args.cpuProf ? ".cpu-prof" : "";
    writeResults(RESULTS_FILE.replace(/\.json$/, `${suffix}.json`), summary);
    if (complete) writeReadme(summary);
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
