/** Emptying a test database (its own module: test/support/db.ts and its pool, db-pool.ts, both use it). */
import type { Queryable } from "../../src/db/client";

/** Empties every application table (not the migration ledger) between tests, and between a pooled database's holders. */
export async function truncateAll(db: Queryable): Promise<void> {
  const tables = await db.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`,
  );
  if (tables.length) await db.exec(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(", ")} RESTART IDENTITY CASCADE`);
}
