/**
 * Applies prisma/migrations/<name>/migration.sql in name order and records each in `_prisma_migrations`
 * exactly as Prisma Migrate does (sha256 checksum of the file, started/finished timestamps, one applied
 * step), so `prisma migrate status` on a machine with the schema engine agrees with us.
 * One transaction holding an advisory lock (Prisma Migrate's lock key) keeps concurrent API/worker processes from racing.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db, Queryable } from "./client";
import { advisoryXactLock } from "./locks";
import { packageRoot } from "./package-root";

export const MIGRATIONS_DIR = path.join(packageRoot, "prisma", "migrations");
/** Prisma Migrate's lock key: older releases and `prisma migrate` exclude us by it, so it never changes. */
const PRISMA_ADVISORY_LOCK = 72707369;

const LEDGER_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<MigrateResult> {
  const migrations = readMigrations(dir);
  return db.transaction(async (tx) => {
    // Migrations are not requests: no statement timeout of the API's pool applies to them.
    if (db.kind === "postgres") await tx.query("SET LOCAL statement_timeout = 0");
    // Transaction-scoped lock: released on commit, so a crashed process never leaves it held.
    await advisoryXactLock(tx, PRISMA_ADVISORY_LOCK);
    await tx.exec(LEDGER_DDL);
    const done = await tx.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const byName = new Map(done.map((row) => [row.migration_name, row]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = byName.get(migration.name);
      if (previous) {
        if (!previous.finished_at) throw new Error(`migration ${migration.name} was started but never finished`);
        if (previous.checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was changed after it was applied (checksum differs)`);
        }
        continue;
      }
      await applyOne(tx, migration);
      applied.push(migration.name);
    }
    return { applied, alreadyApplied: migrations.length - applied.length };
  });
}

async function applyOne(tx: Queryable, migration: MigrationFile): Promise<void> {
  const id = crypto.randomUUID();
  await tx.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
    [id, migration.checksum, migration.name],
  );
  await tx.exec(migration.sql);
  await tx.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
}

/** Migrations present on disk but not applied: /readyz is not ready while this is non-empty. */
export async function pendingMigrations(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS t`);
  const names = readMigrations(dir).map((m) => m.name);
  if (!exists[0]?.t) return names;
  const done = await db.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(done.map((r) => r.migration_name));
  return names.filter((n) => !applied.has(n));
}
