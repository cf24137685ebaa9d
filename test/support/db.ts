/**
 * One fresh, migrated database per test file: embedded PGlite in memory by default, or, when
 * DATABASE_URL is set, a new database on that PostgreSQL server, dropped again in `close()`.
 */
import crypto from "node:crypto";
import { Client } from "pg";
import { createDb, type Db } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";

export interface TestDb extends Db {
  /** The connection string of this file's own database (PostgreSQL only). */
  readonly url?: string;
}

export async function createTestDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  const serverUrl = process.env.DATABASE_URL;
  let db: Db;
  let url: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (serverUrl) {
    const name = `edm_test_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
    await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
    const parsed = new URL(serverUrl);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    db = await createDb({ databaseUrl: url, poolSize: 4 });
    dropDatabase = () => withAdmin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  } else {
    db = await createDb({ dataDir: "memory://" });
  }
  if (options.migrate !== false) await migrate(db);
  const close = db.close.bind(db);
  return Object.assign(db, {
    url,
    async close() {
      await close();
      await dropDatabase?.();
    },
  });
}

async function withAdmin(serverUrl: string, fn: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

/** Empties every application table (not the migration ledger) between tests. */
export async function truncateAll(db: Db): Promise<void> {
  const tables = await db.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`,
  );
  if (tables.length) await db.exec(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(", ")} RESTART IDENTITY CASCADE`);
}
