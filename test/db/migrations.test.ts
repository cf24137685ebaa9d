import fs from "node:fs";
import path from "node:path";
import { migrate, readMigrations } from "../../src/db/migrate";
import { packageRoot } from "../../src/db/package-root";
import { parsePrismaSchema, schemaToSql } from "../../src/db/prisma-sql";
import { createTestDb, type TestDb } from "../support/db";
import { temporaryDirs } from "../support/temp-dirs";

const tmp = temporaryDirs();

/** What a database looks like, for comparing two of them: every column and every index definition. */
async function catalog(db: TestDb) {
  const columns = await db.query(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, datetime_precision
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'
      ORDER BY table_name, column_name`,
  );
  const indexes = await db.query(
    `SELECT tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'
      ORDER BY tablename, indexname`,
  );
  return { columns, indexes };
}

describe("migrations", () => {
  let migrated: TestDb;
  let fromSchema: TestDb;

  beforeAll(async () => {
    migrated = await createTestDb();
    // A second database built straight from schema.prisma, the way `prisma migrate diff --from-empty` would.
    fromSchema = await createTestDb({ migrate: false });
    const models = parsePrismaSchema(fs.readFileSync(path.join(packageRoot, "prisma/schema.prisma"), "utf8"));
    await fromSchema.exec(`CREATE EXTENSION IF NOT EXISTS pg_trgm;\n${schemaToSql(models)}`);
  });
  afterAll(async () => {
    await migrated?.close();
    await fromSchema?.close();
  });

  it("records every migration in _prisma_migrations the way Prisma does", async () => {
    const files = readMigrations();
    const rows = await migrated.query<{ migration_name: string; checksum: string; applied_steps_count: number; finished_at: Date }>(
      `SELECT migration_name, checksum, applied_steps_count, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    expect(rows.map((r) => r.checksum)).toEqual(files.map((f) => f.checksum));
    for (const row of rows) {
      expect(row.applied_steps_count).toBe(1);
      expect(row.finished_at).not.toBeNull();
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("is idempotent: a second run applies nothing", async () => {
    const second = await migrate(migrated);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toBe(readMigrations().length);
  });

  it("leaves a database identical to schema.prisma (tables, columns, types, nullability, defaults, indexes)", async () => {
    const actual = await catalog(migrated);
    const expected = await catalog(fromSchema);
    expect(actual.columns.length).toBeGreaterThan(300);
    expect(actual.indexes.length).toBeGreaterThan(100);
    expect(actual.columns).toEqual(expected.columns);
    expect(actual.indexes).toEqual(expected.indexes);
  });

  it("refuses a migration edited after it was applied", async () => {
    const dir = tmp.make("edm-mig-");
    for (const file of readMigrations()) {
      fs.mkdirSync(path.join(dir, file.name));
      fs.writeFileSync(path.join(dir, file.name, "migration.sql"), `${file.sql}\n-- edited\n`);
    }
    await expect(migrate(migrated, dir)).rejects.toThrow(/checksum differs/);
  });
});
