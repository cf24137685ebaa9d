/**
 * The test suite's pool of embedded databases (test/support/db-pool.ts): a database a test file closes is handed to
 * the next one only as the template again, and what the closing file left running cannot reach it. Embedded only
 * (test/support/run-once.js).
 */
import { createTestDb } from "../support/db";
import { enableEmbeddedPool, poolStats } from "../support/db-pool";
import { count } from "../ingest/helpers";

enableEmbeddedPool();
// The pool serves the embedded run only (the PostgreSQL run copies a template database per file instead).
const embedded = process.env.DATABASE_URL ? describe.skip : describe;

embedded("pooled embedded databases", () => {
  test("a closed database comes back as the template: rows, schemas, sessions and counters reset", async () => {
    const first = await createTestDb();
    await first.exec(`INSERT INTO districts (fed_id, name, state, data_source) VALUES ('P1', 'Pooled Unified', 'NE', 'test')`);
    await first.exec(`CREATE SCHEMA pgboss; CREATE TABLE pgboss.job (id int)`);
    await first.exec(`SET statement_timeout = '1234ms'; PREPARE probe AS SELECT 1; SELECT pg_advisory_lock(42)`);
    await first.exec(`CREATE TEMP TABLE scratch (x int)`);
    const { reused } = poolStats;
    await first.close();

    const second = await createTestDb();
    try {
      expect(poolStats.reused).toBe(reused + 1);
      expect(second.stats.statements).toBeLessThanOrEqual(1);
      expect(await count(second, `SELECT 1 FROM districts`)).toBe(0);
      expect(await count(second, `SELECT 1 FROM pg_namespace WHERE nspname = 'pgboss'`)).toBe(0);
      expect(await count(second, `SELECT 1 FROM pg_prepared_statements WHERE name = 'probe'`)).toBe(0);
      expect(await count(second, `SELECT 1 FROM pg_locks WHERE locktype = 'advisory'`)).toBe(0);
      expect(await count(second, `SELECT 1 FROM pg_class WHERE relname = 'scratch'`)).toBe(0);
      expect((await second.query<{ t: string }>(`SELECT current_setting('statement_timeout') AS t`))[0]!.t).toBe("0");
      expect(await count(second, `SELECT 1 FROM _prisma_migrations`)).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  test("a database whose catalogue changed is closed, not handed out again", async () => {
    const first = await createTestDb();
    await first.exec(`ALTER TABLE districts ADD COLUMN pool_probe int`);
    const { discarded } = poolStats;
    await first.close();
    expect(poolStats.discarded).toBe(discarded + 1);

    const second = await createTestDb();
    try {
      expect(await count(second, `SELECT 1 FROM information_schema.columns WHERE column_name = 'pool_probe'`)).toBe(0);
    } finally {
      await second.close();
    }
  });

  test("the planner sees the template's sizes and no statistics after a file analyzed its tables", async () => {
    const sizes = `SELECT relname, relpages, reltuples FROM pg_class WHERE relname IN ('districts', 'districts_pkey') ORDER BY 1`;
    const first = await createTestDb();
    const template = await first.query(sizes);
    await first.exec(
      `INSERT INTO districts (fed_id, name, state, data_source) SELECT 'P' || g, 'D' || g, 'NE', 'test' FROM generate_series(1, 500) g;
       ANALYZE districts`,
    );
    expect(await first.query(sizes)).not.toEqual(template);
    const { reused } = poolStats;
    await first.close();

    const second = await createTestDb();
    try {
      expect(poolStats.reused).toBe(reused + 1); // reset and handed out again, not replaced by a new boot
      expect(await second.query(sizes)).toEqual(template);
      expect(await count(second, `SELECT 1 FROM pg_statistic WHERE starelid = 'districts'::regclass`)).toBe(0);
    } finally {
      await second.close();
    }
  });

  test("an open transaction is rolled back, and the closed holder's late statements fail instead of reaching the next", async () => {
    const first = await createTestDb();
    await first.exec(`BEGIN; INSERT INTO districts (fed_id, name, state, data_source) VALUES ('P1', 'Uncommitted', 'NE', 'test')`);
    const { reused } = poolStats;
    await first.close();
    await expect(first.query(`SELECT 1`)).rejects.toThrow("PGlite is closed");
    await expect(first.prisma.district.count()).rejects.toThrow();

    const second = await createTestDb();
    try {
      expect(poolStats.reused).toBe(reused + 1);
      expect(await count(second, `SELECT 1 FROM districts`)).toBe(0);
      await expect(
        first.exec(`INSERT INTO districts (fed_id, name, state, data_source) VALUES ('P2', 'Late', 'NE', 'test')`),
      ).rejects.toThrow("PGlite is closed");
      expect(await count(second, `SELECT 1 FROM districts`)).toBe(0);
    } finally {
      await second.close();
    }
  });
});
