/**
 * The benchmark's database: `edmarket_bench` on a local PostgreSQL, migrated and loaded with the real
 * national districts and their statistics by the real ingestors, the demo layer on top (so every block
 * has data), and one enterprise organization with an API key. The organization has unlocked every
 * district with extracted intelligence, has pending unlocks on the measured pages and filed some bids,
 * so _access, the intelligence lists and bid filings are all exercised.
 *
 * A fingerprint of everything the data depends on (input files, migrations, ingest and demo code, this
 * file) is kept as the database's comment; with --reuse a database carrying the same fingerprint is
 * used as it is.
 */
// The decorated GraphQL classes the loaders below import need the metadata polyfill before they load,
// whichever bench entry imports this module (bench:districts and bench:graphql failed without it).
import "reflect-metadata";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { createDb, type Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { createApiKey } from "../src/features/account/organizations/api-keys.service";
import { seedDemoLayer } from "../src/seed/demo/demo.service";
import { createOrganization } from "../src/features/account/organizations/organization.service";
import { INGEST_SOURCES, runIngest } from "../src/ingest";
import { SMOKE } from "./harness";
import { smokeServerTemplate } from "./smoke-template";

/** A smoke run (BENCH_SMOKE=1) has its own small database and leaves the measured one alone. */
export const BENCH_DATABASE = SMOKE ? "edmarket_bench_smoke" : "edmarket_bench";
export const BENCH_ORG_NAME = "Bench Enterprise";
/** The national districts and their statistics; Head Start, child care and IRS files are not district data. */
export const BENCH_SOURCES = SMOKE
  ? (["nces-lea", "urban-f33"] as const) // the directory and one small finance file: seconds to load
  : (["nces-lea", "nces-school-search", "census-saipe", "census-county", "urban-f33"] as const);

export interface BenchDatabase {
  url: string;
  organizationId: string;
  apiKey: string;
  loaded: boolean;
  loadMs: number;
  counts: Record<string, number>;
}

/** Every file under `dir` (relative to the package), sorted: a fingerprint input. */
export function filesUnder(dir: string): string[] {
  const absolute = path.join(packageRoot, dir);
  return fs
    .readdirSync(absolute, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** sha256 over the inputs of a load: a change to any of them means the data may differ. */
function fingerprint(inputs: string[]): string {
  const hash = crypto.createHash("sha256");
  for (const file of inputs) hash.update(path.relative(packageRoot, file)).update(fs.readFileSync(file));
  return `edmarket-bench:${hash.digest("hex")}`;
}

async function withAdmin<T>(adminUrl: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The database `name` on the bench server, loaded by `load` (on a pool of 2), kept between runs: the fingerprint of
 * `inputs` (the files the data depends on) is its comment, and with `reuse` a database carrying the same fingerprint is
 * used as it is. Returns its URL and whether it was loaded now.
 */
export async function fingerprintedDatabase(
  adminUrl: string,
  name: string,
  inputs: string[],
  load: (db: Db) => Promise<void>,
  options: { reuse: boolean; log: (line: string) => void },
): Promise<{ url: string; loaded: boolean }> {
  const print = fingerprint(inputs);
  const url = databaseUrl(adminUrl, name);
  const existing = await withAdmin(adminUrl, async (c) => {
    const rows = await c.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [name],
    );
    return rows.rows[0];
  });
  if (options.reuse && existing?.comment === print) {
    options.log(`reusing ${name} (same fingerprint)`);
    return { url, loaded: false };
  }
  options.log(existing ? `recreating ${name} (${options.reuse ? "its data differs" : "no --reuse"})` : `creating ${name}`);
  await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  // A smoke run's copy of the migrated template (bench/smoke-template.ts): the load's migrate has nothing left to apply.
  const template = await smokeServerTemplate(adminUrl);
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`));
  const db = await createDb({ databaseUrl: url, poolSize: 2 });
  try {
    await load(db);
  } finally {
    await db.close();
  }
  // Written last: a load that failed half-way leaves no fingerprint, so --reuse reloads.
  await withAdmin(adminUrl, (c) => c.query(`COMMENT ON DATABASE ${name} IS '${print}'`));
  return { url, loaded: true };
}

export async function prepareBenchDatabase(
  adminUrl: string,
  options: { reuse: boolean; log: (line: string) => void },
): Promise<BenchDatabase> {
  const inputs = [
    ...BENCH_SOURCES.flatMap((source) => INGEST_SOURCES[source].files.map((f) => path.join(packageRoot, f))),
    ...filesUnder("prisma/migrations"),
    ...filesUnder("src/ingest"),
    ...filesUnder("src/seed/demo"),
    __filename,
  ];
  const t0 = Date.now();
  const { url, loaded } = await fingerprintedDatabase(adminUrl, BENCH_DATABASE, inputs, (db) => load(db, options.log), options);
  const db = await createDb({ databaseUrl: url, poolSize: 2 });
  try {
    const [org] = await db.query<{ id: string }>(`SELECT id FROM organizations WHERE name = $1`, [BENCH_ORG_NAME]);
    // A fresh key per run: keys are shown once and stored hashed.
    const { apiKey } = await createApiKey(db, org.id, "bench");
    await db.exec("VACUUM ANALYZE");
    const counts: Record<string, number> = {};
    for (const table of [
      "districts",
      "district_annual_stats",
      "district_stat_breakdowns",
      "special_education_finance",
      "assessment_summaries",
      "assessment_grade_rows",
      "assessment_state_rows",
      "pain_points",
      "entity_vendors",
      "funding",
      "contracts",
      "bids",
      "unlocks",
      "bid_filings",
    ]) {
      counts[table] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
    }
    return { url, organizationId: org.id, apiKey, loaded, loadMs: Date.now() - t0, counts };
  } finally {
    await db.close();
  }
}

async function load(db: Db, log: (line: string) => void): Promise<void> {
  await migrate(db);
  for (const source of BENCH_SOURCES) {
    for (const file of INGEST_SOURCES[source].files) {
      const summary = await runIngest(db, source, path.join(packageRoot, file), { log });
      if (summary.inserted + summary.updated + summary.unchanged === 0) throw new Error(`${source} ${file}: nothing loaded`);
    }
  }
  const demo = await seedDemoLayer(db);
  log(`demo layer: districts ${JSON.stringify(demo.districts)}`);
  const { organizationId } = await createOrganization(db, { name: BENCH_ORG_NAME, plan: "enterprise", credits: 1000 });
  await unlockForBench(db, organizationId);
}

/**
 * Unlocks (written directly: the bench needs the state, not the unlock flow): every district with
 * extracted intelligence (status completed) is unlocked; of the first two pages by name and by
 * enrollment, every fifth other district has a pending unlock; the organization files every other
 * bid it can see.
 */
async function unlockForBench(db: Db, organizationId: string): Promise<void> {
  await db.query(
    `INSERT INTO unlocks (organization_id, entity_type, entity_id, state, credits_spent, started_at, finished_at, unlocked_at)
     SELECT $1, 'district', id, 'unlocked', 6, '2026-11-02T10:00:00Z', '2026-11-02T10:00:00Z', '2026-11-02T10:00:00Z'
       FROM districts WHERE status = 'completed'`,
    [organizationId],
  );
  await db.query(
    `INSERT INTO unlocks (organization_id, entity_type, entity_id, state, credits_spent, started_at)
     SELECT $1, 'district', id, 'unlock_pending', 0, '2026-11-03T10:00:00Z'
       FROM ((SELECT id, status, row_number() OVER (ORDER BY name, id) AS n FROM districts ORDER BY name, id LIMIT 400)
             UNION
             (SELECT id, status, row_number() OVER (ORDER BY student_count DESC NULLS LAST, id) FROM districts
               ORDER BY student_count DESC NULLS LAST, id LIMIT 400)) d
      WHERE d.status <> 'completed' AND d.n % 5 = 0
     ON CONFLICT DO NOTHING`,
    [organizationId],
  );
  await db.query(
    `INSERT INTO bid_filings (organization_id, bid_id, action, reason_code, reason_note, filed_at)
     SELECT $1, b.id, 'save', 'fit', 'bench filing', '2026-11-04T10:00:00Z'
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM bids WHERE district_id IS NOT NULL) b
      WHERE b.n % 2 = 1`,
    [organizationId],
  );
}
