/**
 * One fresh, migrated database per test file: embedded PGlite in memory by default, or, when
 * DATABASE_URL is set, a new database on that PostgreSQL server, dropped again in `close()`.
 * Both start as a copy of the run's migrated template (test/support/templates.ts) when jest's globalSetup
 * built one, else they are migrated here.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { CURRENT_MEMBER } from "./bundle-member";
import { keepWorkerWasmTiering } from "./wasm-tier";
import { embeddedPoolEnabled, pooledInstance } from "./db-pool";
import { PG_TEMPLATE_ENV, PGLITE_TEMPLATE_ENV, databaseUrl, embeddedTemplate, withAdmin } from "./templates";

export { truncateAll } from "./truncate";

// The list jest.config.js (CommonJS) reads too.
const { databaseFree, listed } = require("./run-once.js") as {
  databaseFree: string[];
  listed(list: string[], file: string): boolean;
};

export interface TestDb extends Db {
  /** The connection string of this file's own database (PostgreSQL only). */
  readonly url?: string;
}

export async function createTestDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  refuseInDatabaseFreeFile();
  keepWorkerWasmTiering();
  const serverUrl = process.env.DATABASE_URL;
  const migrated = options.migrate !== false;
  let db: Db;
  let url: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let fromTemplate: boolean;
  if (serverUrl) {
    const name = `edm_test_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
    const template = migrated ? process.env[PG_TEMPLATE_ENV] : undefined;
    fromTemplate = Boolean(template);
    await withAdmin(serverUrl, async (c) => {
      // PostgreSQL 15's default WAL_LOG strategy writes the template's every page through the WAL and leaves them dirty
      // in shared buffers: creating and dropping a file's database took 1.6 s against 0.26 s with FILE_COPY.
      const [{ server_version_num }] = (await c.query<{ server_version_num: string }>("SHOW server_version_num")).rows;
      const strategy = template && Number(server_version_num) >= 150000 ? " STRATEGY FILE_COPY" : "";
      await c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}${strategy}`);
    });
    url = databaseUrl(serverUrl, name);
    db = await createDb({ databaseUrl: url, poolSize: 4 });
    dropDatabase = () => withAdmin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  } else {
    const kind = migrated ? "migrated" : "unmigrated";
    fromTemplate = migrated && Boolean(process.env[PGLITE_TEMPLATE_ENV]);
    db =
      fromTemplate && embeddedPoolEnabled()
        ? await createDb({ embeddedInstance: await pooledInstance(() => embeddedTemplate(kind)!) })
        : await createDb({ dataDir: "memory://", loadDataDir: embeddedTemplate(kind) });
  }
  if (migrated && !fromTemplate) await migrate(db);
  const close = db.close.bind(db);
  return Object.assign(db, {
    url,
    async close() {
      await close();
      await dropDatabase?.();
    },
  });
}

/**
 * A new temporary embedded data directory for a spawned `serve` or CLI, holding a copy of the run's migrated
 * template (a fresh directory's initdb and migrations took 2.5 s of each such test's setup), else migrated here.
 * The database is returned open, for fixtures; close it before a process opens the directory (one per directory).
 */
export async function openTestDataDir(prefix: string): Promise<{ dataDir: string; db: Db }> {
  keepWorkerWasmTiering();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const loadDataDir = embeddedTemplate("migrated");
  const db = await createDb({ dataDir, loadDataDir });
  if (!loadDataDir) await migrate(db);
  return { dataDir, db };
}

/** openTestDataDir, closed at once: a migrated directory for a process to open. */
export async function createTestDataDir(prefix: string): Promise<string> {
  const { dataDir, db } = await openTestDataDir(prefix);
  await db.close();
  return dataDir;
}

/** A file the PostgreSQL run skips as database-free (run-once.js) must not open the run's database. */
function refuseInDatabaseFreeFile(): void {
  // In a folder bundle (test/support/bundle.ts) the file is the member running now, not the bundle.
  const member = (globalThis as Record<symbol, unknown>)[CURRENT_MEMBER] as string | undefined;
  const testPath = expect.getState().testPath;
  if (!member && !testPath) return;
  const file = member ?? path.relative(path.resolve(__dirname, "../.."), testPath!).split(path.sep).join("/");
  if (listed(databaseFree, file))
    throw new Error(`${file} is listed as database-free in test/support/run-once.js but opens a test database: remove it from the list`);
}
