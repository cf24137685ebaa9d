/**
 * The service under a mixed load (issue 26): two API processes and two worker processes on one PostgreSQL, CLIENTS
 * concurrent clients for DURATION seconds, then the ledger's invariants. Usage:
 *
 *   npm run build && npm run bench:load [-- --duration 300 --warmup 15 --clients 50 --orgs 25 --reuse --keep]
 *
 * 1. Data: the real demo data with profile vectors (bench/load-database.ts, `edmarket_load_seed`, kept between runs
 *    by fingerprint with --reuse), copied into `edmarket_load_bench` for this run (dropped at the end unless --keep).
 *    ORGS enterprise organizations with the `signals` module, 1,000,000 credits, a project and an API key each.
 * 2. Processes: `node bin/edmarket.js serve --role api` twice and `--role worker` twice (the built dist/), production
 *    settings (rate limits, pools, request budget) except LOG_LEVEL=warn and EMBEDDINGS_AUTO=false.
 * 3. Load: CLIENTS closed-loop clients (each one request at a time, on a keep-alive connection of its own), client i
 *    of organization i mod ORGS on API process i mod 2, so each organization's clients meet on both processes. Each
 *    picks a request by WEIGHTS: district, school and contact lists with filters and their details; GraphQL with
 *    variables and fragments; unlocks (instant ones of extracted districts and schools, and pending ones whose
 *    extraction the workers run), each entity asked twice by its organization, often at once from both processes;
 *    the signals feed; semantic search; brief requests (the workers build them) and their polls. Requests sent
 *    during the warm-up are not measured; requests in flight at the end are waited for and measured.
 * 4. Errors: a network error, a 5xx, or any status a request does not expect (every 4xx here, 429 included), and a
 *    GraphQL answer with `errors`. The target is 0.
 * 5. After: pending unlocks and briefs are given up to 2 minutes to settle, the processes stop, and the ledger's
 *    invariants (test/credits/ledger.ts) are checked by SQL, with no entity charged twice by one organization, and
 *    each organization's spent credits equal to what its answers said it was charged (+ committed holds).
 *
 * Per route: requests, errors, p50 / p99 / max latency. Results: bench/results/load.json and the README block
 * `load-results`. BENCH_SMOKE=1: the district directory and school files only (bench/load-database.ts), one API and one
 * worker process, 4 clients of 3 organizations, 1 s warm-up, 3 s of load, at most 5 s to settle, nothing written.
 */
import "reflect-metadata";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "../src/db/client";
import { packageRoot } from "../src/db/package-root";
import { createApiKey } from "../src/features/account/organizations/api-keys.service";
import { createOrganization, createProject } from "../src/features/account/organizations/organization.service";
import { LEDGER_CHECKS, violationsOf } from "../test/credits/ledger";
import {
  type Child,
  freePort,
  freshBenchDatabase,
  httpRequest,
  log,
  machine,
  percentile,
  rewriteReadmeBlock,
  round,
  SMOKE,
  startChild,
  stopChild,
  writeResults,
  BENCH_ADMIN_URL,
  numberOption,
} from "./harness";
import { LOAD_SEED_DATABASE, prepareLoadSeed } from "./load-database";

const DURATION_S = numberOption("duration", SMOKE ? 0.5 : 300);
const WARMUP_S = numberOption("warmup", SMOKE ? 0.25 : 15);
const CLIENTS = numberOption("clients", SMOKE ? 4 : 50);
const ORGS = numberOption("orgs", SMOKE ? 3 : 25);
// A smoke run starts one of each: every process runs the same code, a second one only costs start-up CPU.
const API_PROCESSES = SMOKE ? 1 : 2;
const WORKER_PROCESSES = SMOKE ? 1 : 2;
const REUSE = SMOKE || process.argv.includes("--reuse");
const KEEP = process.argv.includes("--keep");
const RUN_DATABASE = SMOKE ? "edmarket_load_bench_smoke" : "edmarket_load_bench";
const RESULTS_FILE = path.join(packageRoot, "bench/results/load.json");
const README_FILE = path.join(packageRoot, "bench/README.md");
const CREDITS = 1_000_000;
const STATES = ["CA", "FL", "MI", "WA", "TX", "NE", "IL", "NY", "OH", "IN"];
/** States with schools (the school file covers four) and contacts (the state directories and the demo layer). */
const SCHOOL_STATES = ["CA", "FL", "MI", "WA"];
const SIGNAL_TYPES = ["budget_deficit", "curriculum_adoption", "enrollment_change", "chronic_absenteeism"];
const SEARCHES: { query: string; entity_type: "district" | "school" | "contact"; state?: string }[] = [
  { query: "rural districts with high poverty", entity_type: "district", state: "NE" },
  { query: "large urban district replacing Chromebooks", entity_type: "district" },
  { query: "small town district with declining enrollment", entity_type: "district", state: "MI" },
  { query: "suburban high school", entity_type: "school", state: "CA" },
  { query: "elementary schools in Miami", entity_type: "school", state: "FL" },
  { query: "superintendent of a large district", entity_type: "contact" },
  { query: "technology director", entity_type: "contact", state: "IL" },
];

/** The GraphQL operations: variables and fragments, records with their `_access`, a relation and a gated list. */
const GRAPHQL_DISTRICTS = `
query LoadDistricts($state: String!, $limit: Int!, $id: UUID!) {
  districts(filter: { state: $state }, limit: $limit, orderBy: student_count, orderAscending: false) {
    data { ...DistrictCard }
    pagination { total hasMore }
  }
  district(id: $id) { ...DistrictCard county gradeSpan expendituresPerStudent painPoints { category description } }
}
fragment DistrictCard on District { id name state studentCount localeType _access { isUnlocked isUnlocking unlockCost } }`;
const GRAPHQL_SCHOOLS = `
query LoadSchools($filter: SchoolFilter, $limit: Int) {
  schools(filter: $filter, limit: $limit) { data { ...SchoolCard district { ...DistrictName } } pagination { total } }
}
fragment SchoolCard on School { id name state studentCount _access { isUnlocked } }
fragment DistrictName on District { id name }`;

interface Org {
  id: string;
  apiKey: string;
  projectId: string;
  /** Next position in the organization's unlock sequence (each entity asked twice). */
  unlockCursor: number;
  instant: { type: "district" | "school"; id: string }[];
  pending: string[];
  briefs: string[];
}

interface Pools {
  districts: string[];
  schools: string[];
  contacts: string[];
  briefDistricts: string[];
}

interface Sample {
  route: string;
  status: number;
  ms: number;
  measured: boolean;
  error?: string;
}

/** What a client sends: the route label for the report, the request, the statuses it expects, and what to do with the body. */
interface Call {
  route: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  expect: number[];
  graphql?: boolean;
  onBody?: (body: Record<string, unknown>) => void;
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;

/** A small deterministic generator per client (mulberry32): the same mix on every run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Credits each organization's answers said were charged (unlocks' credits_charged, one per semantic search). */
const chargedByAnswers = new Map<string, number>();
const addCharged = (org: Org, credits: number) => chargedByAnswers.set(org.id, (chargedByAnswers.get(org.id) ?? 0) + credits);

const WEIGHTS: [number, (org: Org, pools: Pools, random: () => number) => Call][] = [
  [
    12,
    (_org, _pools, r) => ({
      route: "GET /districts (filtered list)",
      method: "GET",
      path: `/api/v1/districts?state=${pick(STATES, r)}&limit=25${r() < 0.5 ? "&order_by=student_count&order_ascending=false" : "&min_enrollment=1000"}`,
      expect: [200],
    }),
  ],
  [
    9,
    (_org, _pools, r) => ({
      route: "GET /schools (filtered list)",
      method: "GET",
      path: `/api/v1/schools?state=${pick(SCHOOL_STATES, r)}&limit=25${r() < 0.5 ? "&order_by=student_count&order_ascending=false" : "&min_enrollment=500"}`,
      expect: [200],
    }),
  ],
  [
    7,
    (_org, _pools, r) => ({
      route: "GET /contacts (filtered list)",
      method: "GET",
      path: `/api/v1/contacts?limit=25&${r() < 0.5 ? `state=${pick(["CA", "IL"], r)}` : "is_district_contact=true"}`,
      expect: [200],
    }),
  ],
  [
    10,
    (_org, pools, r) => ({
      route: "GET /districts/:id",
      method: "GET",
      path: `/api/v1/districts/${pick(pools.districts, r)}`,
      expect: [200],
    }),
  ],
  [8, (_org, pools, r) => ({ route: "GET /schools/:id", method: "GET", path: `/api/v1/schools/${pick(pools.schools, r)}`, expect: [200] })],
  [
    6,
    (_org, pools, r) => ({ route: "GET /contacts/:id", method: "GET", path: `/api/v1/contacts/${pick(pools.contacts, r)}`, expect: [200] }),
  ],
  [
    12,
    (_org, pools, r) =>
      r() < 0.6
        ? {
            route: "POST /graphql (districts + district)",
            method: "POST",
            path: "/graphql",
            body: { query: GRAPHQL_DISTRICTS, variables: { state: pick(STATES, r), limit: 20, id: pick(pools.districts, r) } },
            expect: [200],
            graphql: true,
          }
        : {
            route: "POST /graphql (schools with their district)",
            method: "POST",
            path: "/graphql",
            body: { query: GRAPHQL_SCHOOLS, variables: { filter: { state: pick(SCHOOL_STATES, r), minEnrollment: 300 }, limit: 20 } },
            expect: [200],
            graphql: true,
          },
  ],
  [10, (org, _pools, r) => unlockCall(org, r)],
  [
    8,
    (_org, _pools, r) => ({
      route: "GET /signals",
      method: "GET",
      path: `/api/v1/signals?limit=20${r() < 0.5 ? `&state=${pick(STATES, r)}` : `&signal_type=${pick(SIGNAL_TYPES, r)}`}`,
      expect: [200],
    }),
  ],
  [
    6,
    (org, _pools, r) => {
      const search = pick(SEARCHES, r);
      return {
        route: "POST /semantic-search",
        method: "POST",
        path: "/api/v1/semantic-search",
        body: { ...search, limit: 20 },
        expect: [200],
        onBody: () => addCharged(org, 1),
      };
    },
  ],
  [
    8,
    (org, pools, r) =>
      org.briefs.length && r() < 0.6
        ? { route: "GET /briefs/:id", method: "GET", path: `/api/v1/briefs/${pick(org.briefs, r)}`, expect: [200] }
        : {
            route: "POST /briefs",
            method: "POST",
            path: "/api/v1/briefs",
            body: { project_id: org.projectId, entity_type: "district", entity_id: pick(pools.briefDistricts, r) },
            expect: [200, 202],
            onBody: (body) => {
              const id = body.brief_id as string | undefined;
              if (id && !org.briefs.includes(id)) org.briefs.push(id);
            },
          },
  ],
];
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [w]) => sum + w, 0);

/**
 * The organization's next unlock: its sequence asks each entity twice in a row, so its two clients (on the two API
 * processes) often ask for the same entity at once; one in seven is a district without extracted data (202, a hold,
 * the workers' extraction).
 */
function unlockCall(org: Org, r: () => number): Call {
  const n = org.unlockCursor++;
  const pending = r() < 1 / 7 && org.pending.length > 0;
  const entity = pending
    ? { type: "district" as const, id: org.pending[Math.floor(n / 2) % org.pending.length]! }
    : org.instant[Math.floor(n / 2) % org.instant.length]!;
  return {
    route: pending ? "POST /unlock (pending)" : "POST /unlock (instant)",
    method: "POST",
    path: "/api/v1/unlock",
    body: { entity_type: entity.type, entity_id: entity.id },
    expect: [200, 202],
    onBody: (body) => addCharged(org, Number(body.credits_charged ?? 0)),
  };
}

function nextCall(org: Org, pools: Pools, random: () => number): Call {
  let x = random() * TOTAL_WEIGHT;
  for (const [weight, make] of WEIGHTS) {
    if ((x -= weight) < 0) return make(org, pools, random);
  }
  return WEIGHTS[0]![1](org, pools, random);
}

/** One call of a client with the organization's key. */
const send = (agent: http.Agent, base: string, apiKey: string, call: Call) =>
  httpRequest(agent, `${base}${call.path}`, { method: call.method, headers: { authorization: `Bearer ${apiKey}` }, body: call.body });

/** Whether an answer is what the call expects; the reason when not. */
function judge(call: Call, status: number, body: string): string | undefined {
  if (!call.expect.includes(status)) return `${status}: ${body.slice(0, 300)}`;
  if (!call.graphql && !call.onBody) return undefined;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return `${status}: not JSON: ${body.slice(0, 200)}`;
  }
  if (call.graphql && parsed.errors) return `GraphQL errors: ${JSON.stringify(parsed.errors).slice(0, 300)}`;
  call.onBody?.(parsed);
  return undefined;
}

/** CLIENTS closed-loop clients until `endAt`; samples of requests sent from `measureFrom` on are measured. */
async function drive(apis: Child[], orgs: Org[], pools: Pools, measureFrom: number, endAt: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const agents = apis.map(() => new http.Agent({ keepAlive: true, maxSockets: CLIENTS }));
  const client = async (i: number) => {
    const org = orgs[i % orgs.length]!;
    const api = apis[i % apis.length]!;
    const agent = agents[i % apis.length]!;
    const random = generator(20261126 + i);
    while (performance.now() < endAt) {
      const call = nextCall(org, pools, random);
      const started = performance.now();
      const { status, body } = await send(agent, api.base, org.apiKey, call);
      samples.push({
        route: call.route,
        status,
        ms: performance.now() - started,
        measured: started >= measureFrom,
        error: judge(call, status, body),
      });
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  for (const agent of agents) agent.destroy();
  return samples;
}

/** Organizations, keys, projects and the entity pools (hand-written SQL: bench fixture selection). */
async function prepare(db: Db): Promise<{ orgs: Org[]; pools: Omit<Pools, "contacts"> }> {
  const ids = async (sql: string) => (await db.query<{ id: string }>(sql)).map((r) => r.id);
  // md5 of the id: a fixed, spread-out sample.
  const districts = await ids(`SELECT id FROM districts ORDER BY md5(id::text) LIMIT 3000`);
  const schools = await ids(`SELECT id FROM schools ORDER BY md5(id::text) LIMIT 3000`);
  const extractedDistricts = await ids(`SELECT id FROM districts WHERE status = 'completed' ORDER BY md5(id::text)`);
  const extractedSchools = await ids(`SELECT id FROM schools WHERE status = 'completed' ORDER BY md5(id::text)`);
  // No website: the extraction is the demo fallback (the workers crawl nothing on the internet).
  const pendingDistricts = await ids(
    `SELECT id FROM districts WHERE status <> 'completed' AND coalesce(website_url, '') = '' ORDER BY md5(id::text) LIMIT 2000`,
  );
  if (!extractedDistricts.length || !extractedSchools.length || !pendingDistricts.length)
    throw new Error("bench: the seed has no extracted districts or schools, or no district to extract");
  const instant = [
    ...extractedDistricts.map((id) => ({ type: "district" as const, id })),
    ...extractedSchools.map((id) => ({ type: "school" as const, id })),
  ];
  const orgs: Org[] = [];
  for (let k = 0; k < ORGS; k++) {
    const { organizationId } = await createOrganization(db, {
      name: `Load bench ${k + 1}`,
      plan: "enterprise",
      credits: CREDITS,
      entitlements: ["signals"],
    });
    const { apiKey } = await createApiKey(db, organizationId, "bench");
    const { projectId } = await createProject(db, organizationId, "Load bench project");
    // Each organization walks the pools from its own offset: organizations overlap on some entities, not in step.
    const offset = Math.floor((k * instant.length) / ORGS);
    orgs.push({
      id: organizationId,
      apiKey,
      projectId,
      unlockCursor: 0,
      instant: [...instant.slice(offset), ...instant.slice(0, offset)],
      pending: [...pendingDistricts.slice(k * 40), ...pendingDistricts.slice(0, k * 40)],
      briefs: [],
    });
  }
  return { orgs, pools: { districts, schools, briefDistricts: extractedDistricts.slice(0, 30) } };
}

/** Listed contacts (the contacts' listing rule decides which have a detail page): ids from the list itself. */
async function listedContacts(api: Child, apiKey: string): Promise<string[]> {
  const agent = new http.Agent({ keepAlive: true });
  const found: string[] = [];
  for (const query of ["state=CA", "state=IL", "is_district_contact=true", "state=FL"]) {
    const { status, body } = await send(agent, api.base, apiKey, {
      route: "",
      method: "GET",
      path: `/api/v1/contacts?limit=200&${query}`,
      expect: [200],
    });
    if (status !== 200) throw new Error(`bench: GET /contacts?${query}: ${status} ${body.slice(0, 200)}`);
    found.push(...(JSON.parse(body) as { data: { id: string }[] }).data.map((c) => c.id));
  }
  agent.destroy();
  if (!found.length) throw new Error("bench: no listed contact");
  return [...new Set(found)];
}

/** Waits (up to `seconds`) until no hold is open and no brief is building: the workers' share of the load is done. */
async function settle(db: Db, seconds: number): Promise<{ open_holds: number; building_briefs: number; waited_s: number }> {
  const t0 = Date.now();
  for (;;) {
    const [row] = await db.query<{ holds: number; briefs: number }>(
      `SELECT (SELECT count(*)::int FROM credit_holds WHERE status = 'open') AS holds,
              (SELECT count(*)::int FROM briefs WHERE status = 'building') AS briefs`,
    );
    const waited = round((Date.now() - t0) / 1000, 1);
    if ((row!.holds === 0 && row!.briefs === 0) || Date.now() - t0 > seconds * 1000)
      return { open_holds: row!.holds, building_briefs: row!.briefs, waited_s: waited };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** The ledger's invariants, no double charge, and each organization's spent credits against its answers. */
async function checkLedger(db: Db, orgs: Org[]): Promise<Record<string, unknown>> {
  const checks = {
    ...LEDGER_CHECKS,
    // the workload never re-extracts: one organization pays for an entity at most once
    doubleCharges: `SELECT organization_id, entity_type, entity_id FROM credit_ledger
        WHERE account = 'spent' AND entity_id IS NOT NULL GROUP BY 1, 2, 3 HAVING count(DISTINCT transfer_id) > 1`,
  };
  const violations = await violationsOf(db, checks);
  const spent = await db.query<{ organization_id: string; spent: number; committed: number }>(
    `SELECT organization_id, sum(amount)::bigint AS spent,
            coalesce(sum(amount) FILTER (WHERE kind = 'hold_commit'), 0)::bigint AS committed
       FROM credit_ledger WHERE account = 'spent' AND organization_id = ANY($1::uuid[]) GROUP BY 1`,
    [orgs.map((o) => o.id)],
  );
  const byOrg = new Map(spent.map((r) => [r.organization_id, r]));
  const mismatches = orgs
    .map((org) => {
      const row = byOrg.get(org.id);
      const ledger = Number(row?.spent ?? 0);
      const answered = (chargedByAnswers.get(org.id) ?? 0) + Number(row?.committed ?? 0);
      return { organization_id: org.id, ledger_spent: ledger, answers_charged_plus_committed: answered };
    })
    .filter((m) => m.ledger_spent !== m.answers_charged_plus_committed);
  const [totals] = await db.query<{ charges: number; holds: number; committed: number; released: number; open: number }>(
    `SELECT (SELECT count(DISTINCT transfer_id)::int FROM credit_ledger WHERE kind = 'charge') AS charges,
            (SELECT count(*)::int FROM credit_holds) AS holds,
            (SELECT count(*)::int FROM credit_holds WHERE status = 'committed') AS committed,
            (SELECT count(*)::int FROM credit_holds WHERE status = 'released') AS released,
            (SELECT count(*)::int FROM credit_holds WHERE status = 'open') AS open`,
  );
  const broken = Object.entries(violations).filter(([, rows]) => (rows as unknown[]).length > 0);
  return {
    held: broken.length === 0 && mismatches.length === 0,
    checks: Object.fromEntries(Object.entries(violations).map(([name, rows]) => [name, (rows as unknown[]).length])),
    answers_vs_ledger_mismatches: mismatches,
    totals,
  };
}

interface RouteFigures {
  route: string;
  requests: number;
  errors: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

function figures(route: string, samples: Sample[]): RouteFigures {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    route,
    requests: samples.length,
    errors: samples.filter((s) => s.error).length,
    p50_ms: round(percentile(ms, 50), 1),
    p99_ms: round(percentile(ms, 99), 1),
    max_ms: round(ms.at(-1) ?? 0, 1),
  };
}

async function main(): Promise<void> {
  const loadAverage = os.loadavg();
  const seed = await prepareLoadSeed(BENCH_ADMIN_URL, { reuse: REUSE, log });
  const run = await freshBenchDatabase(BENCH_ADMIN_URL, RUN_DATABASE, LOAD_SEED_DATABASE);
  const children: Child[] = [];
  let results: Record<string, unknown>;
  try {
    const db = await createDb({ databaseUrl: run.url, poolSize: 2 });
    let orgs: Org[];
    let basePools: Omit<Pools, "contacts">;
    try {
      ({ orgs, pools: basePools } = await prepare(db));
    } finally {
      await db.close();
    }
    const env = { ...process.env, DATABASE_URL: run.url, HOST: "127.0.0.1", LOG_LEVEL: "warn", EMBEDDINGS_AUTO: "false" };
    const entry = path.join(packageRoot, "bin/edmarket.js");
    log(`starting ${API_PROCESSES} API and ${WORKER_PROCESSES} worker processes`);
    for (const role of [...Array<"api">(API_PROCESSES).fill("api"), ...Array<"worker">(WORKER_PROCESSES).fill("worker")]) {
      const port = await freePort();
      children.push(
        await startChild(`edmarket ${role}`, [entry, "serve", "--role", role], { ...env, PORT: String(port) }, port, "/readyz"),
      );
    }
    const apis = children.slice(0, API_PROCESSES);
    const pools: Pools = { ...basePools, contacts: await listedContacts(apis[0]!, orgs[0]!.apiKey) };
    log(`${CLIENTS} clients of ${ORGS} organizations: ${WARMUP_S} s warm-up, ${DURATION_S} s measured`);
    const start = performance.now();
    const samples = await drive(apis, orgs, pools, start + WARMUP_S * 1000, start + (WARMUP_S + DURATION_S) * 1000);
    const measuredSeconds = (performance.now() - start) / 1000 - WARMUP_S;
    const loadAverageAfter = os.loadavg();
    log("load done; waiting for the workers' unlocks and briefs");
    const checkDb = await createDb({ databaseUrl: run.url, poolSize: 2 });
    try {
      // A smoke run's one worker is still building briefs after a few seconds: the check runs on what settled by then.
      const settled = await settle(checkDb, SMOKE ? 5 : 120);
      for (const child of children.splice(0)) await stopChild(child);
      const ledger = await checkLedger(checkDb, orgs);
      const measured = samples.filter((s) => s.measured);
      const routes = [...new Set(measured.map((s) => s.route))].sort();
      const errors = samples.filter((s) => s.error);
      results = {
        scenario: `${CLIENTS} closed-loop clients of ${ORGS} enterprise organizations over ${API_PROCESSES} API processes, ${WORKER_PROCESSES} workers, one PostgreSQL`,
        settings: { duration_s: DURATION_S, warmup_s: WARMUP_S, clients: CLIENTS, orgs: ORGS, seed: seed.loaded ? "loaded now" : "reused" },
        machine: { ...(await machine(BENCH_ADMIN_URL, loadAverage)), load_average_after_load: loadAverageAfter.map((n) => round(n)) },
        total: { ...figures("all", measured), requests_per_second: round(measured.length / measuredSeconds, 1) },
        routes: routes.map((route) =>
          figures(
            route,
            measured.filter((s) => s.route === route),
          ),
        ),
        errors: {
          count: errors.length,
          warmup_included: true,
          first: errors.slice(0, 10).map((s) => ({ route: s.route, error: s.error })),
        },
        settled,
        ledger,
      };
    } finally {
      await checkDb.close();
    }
  } finally {
    for (const child of children) await stopChild(child);
    await run.drop(KEEP);
  }
  writeResults(RESULTS_FILE, results);
  writeReadme(results);
  console.log(JSON.stringify(results, null, 2));
  const errorCount = (results.errors as { count: number }).count;
  const held = (results.ledger as { held: boolean }).held;
  if (errorCount || !held) {
    log(`FAILED: ${errorCount} errors; ledger invariants ${held ? "held" : "BROKEN"}`);
    process.exit(1);
  }
}

function writeReadme(results: Record<string, unknown>): void {
  const r = results as {
    machine: { cpus: number; load_average_at_start: number[]; load_average_after_load: number[] };
    total: RouteFigures & { requests_per_second: number };
    routes: RouteFigures[];
    errors: { count: number };
    ledger: { held: boolean; checks: Record<string, number>; answers_vs_ledger_mismatches: unknown[]; totals: Record<string, number> };
    settled: { open_holds: number; building_briefs: number; waited_s: number };
  };
  const row = (f: RouteFigures) => `| ${f.route} | ${f.requests} | ${f.errors} | ${f.p50_ms} | ${f.p99_ms} | ${f.max_ms} |`;
  rewriteReadmeBlock(README_FILE, "load-results", [
    `Measured ${new Date().toISOString().slice(0, 16)}Z: ${CLIENTS} clients of ${ORGS} organizations, ${API_PROCESSES} API + ${WORKER_PROCESSES} worker processes, ` +
      `${WARMUP_S} s warm-up + ${DURATION_S} s measured; ${r.machine.cpus} CPUs, load average ${r.machine.load_average_at_start.join(" / ")} at start, ` +
      `${r.machine.load_average_after_load.join(" / ")} at the end of the load (bench/results/load.json).`,
    "",
    "| route | requests | errors | p50 ms | p99 ms | max ms |",
    "|---|---:|---:|---:|---:|---:|",
    ...r.routes.map(row),
    `| **all** (${r.total.requests_per_second} requests/s) | ${r.total.requests} | ${r.total.errors} | ${r.total.p50_ms} | ${r.total.p99_ms} | ${r.total.max_ms} |`,
    "",
    `Errors, warm-up included: ${r.errors.count}. Ledger after the run (${r.settled.waited_s} s for the workers to settle; open holds ${r.settled.open_holds}, briefs building ${r.settled.building_briefs}): ` +
      `${r.ledger.held ? "every invariant held" : "**invariants broken**"} — ` +
      Object.entries(r.ledger.checks)
        .map(([name, n]) => `${name} ${n}`)
        .join(", ") +
      `; organizations whose spent credits differ from their answers: ${r.ledger.answers_vs_ledger_mismatches.length}; ` +
      `charges ${r.ledger.totals.charges}, holds ${r.ledger.totals.holds} (committed ${r.ledger.totals.committed}, released ${r.ledger.totals.released}, open ${r.ledger.totals.open}).`,
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
