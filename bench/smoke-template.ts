/**
 * Migrated templates for smoke runs (BENCH_SMOKE=1), as the tests have (test/support/templates.ts):
 * - embedded (bench:unlock, bench:extract, bench:news-ingest, bench:semantic): one migrated PGlite data directory instead
 *   of each database running initdb, about 5 s of CPU apiece; a tar built by the first smoke run that needs it and kept
 *   under node_modules/.cache/bench-smoke, named by the migrations and the PGlite versions;
 * - PostgreSQL (bench:unlock, bench:fairness, bench:news-ingest, bench:signals-api, bench:export, bench:fuzz, bench:signals,
 *   and the fingerprinted databases of bench:districts, bench:graphql and bench:load): the database
 *   `edmarket_smoke_migrated` on the bench server, copied by `CREATE DATABASE ... TEMPLATE` instead of each new database
 *   being migrated; its comment names the migrations it holds.
 * The benches still run their migrations on the copy (nothing left to apply). Outside a smoke run there is no template:
 * a real run's databases are created new.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { createDb } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { SMOKE } from "./harness";

const cacheDir = path.join(packageRoot, "node_modules", ".cache", "bench-smoke");

function migrationsHash(): string {
  const hash = crypto.createHash("sha256");
  for (const pkg of ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"])
    hash.update(fs.readFileSync(path.join(packageRoot, "node_modules", pkg, "package.json")));
  const migrations = path.join(packageRoot, "prisma/migrations");
  const files = fs
    .readdirSync(migrations, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(path.relative(packageRoot, file)).update(fs.readFileSync(file));
  hash.update(fs.readFileSync(path.join(packageRoot, "src/db/migrate.ts")));
  return hash.digest("hex").slice(0, 16);
}

/** In a smoke run, the migrated data directory to pass as `loadDataDir` to a new embedded database; otherwise undefined. */
export async function smokeEmbeddedTemplate(): Promise<Blob | undefined> {
  if (!SMOKE) return undefined;
  const file = path.join(cacheDir, `pglite-migrated-${migrationsHash()}.tar`);
  if (!fs.existsSync(file)) {
    const db = await createDb({ dataDir: "memory://" });
    try {
      if (db.driver.kind !== "embedded") throw new Error("expected the embedded database");
      await migrate(db);
      // Written to the data files first, so a loaded copy starts without replaying the WAL.
      await db.driver.pglite.exec("CHECKPOINT");
      const tar = await db.driver.pglite.dumpDataDir("none");
      fs.mkdirSync(cacheDir, { recursive: true });
      // Written whole under a temporary name, then renamed: a concurrent smoke run never reads half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, Buffer.from(await tar.arrayBuffer()));
      fs.renameSync(temporary, file);
    } finally {
      await db.close();
    }
  }
  return new Blob([fs.readFileSync(file)]);
}

const SERVER_TEMPLATE = "edmarket_smoke_migrated";

/**
 * In a smoke run, the name of the migrated template database on the server `adminUrl` names (created or rebuilt when its
 * migrations differ), for `CREATE DATABASE ... TEMPLATE`; otherwise undefined.
 */
export async function smokeServerTemplate(adminUrl: string): Promise<string | undefined> {
  if (!SMOKE) return undefined;
  const print = `edmarket-smoke-migrated:${migrationsHash()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [SERVER_TEMPLATE],
    );
    if (rows[0]?.comment === print) return SERVER_TEMPLATE;
    await admin.query(`DROP DATABASE IF EXISTS ${SERVER_TEMPLATE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${SERVER_TEMPLATE}`);
    const url = new URL(adminUrl);
    url.pathname = `/${SERVER_TEMPLATE}`;
    // A template must have no connection open while it is copied: closed before the comment marks it ready.
    const db = await createDb({ databaseUrl: url.toString(), poolSize: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await admin.query(`COMMENT ON DATABASE ${SERVER_TEMPLATE} IS '${print}'`);
    return SERVER_TEMPLATE;
  } finally {
    await admin.end();
  }
}
