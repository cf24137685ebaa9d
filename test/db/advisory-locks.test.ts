/**
 * src/db/locks.ts: the one advisory-lock helper takes the very lock keys of the statements it replaced, by name
 * (hashtext) or by a fixed number (the migrations' Prisma Migrate key, the demo seed's), so an older process
 * still running those statements and a new one exclude each other; through Db.transaction and through Prisma's.
 */
import pg from "pg";
import { advisoryXactLock } from "../../src/db/locks";
import { migrate } from "../../src/db/migrate";
import { createTestDb, type TestDb } from "../support/db";
import { until } from "../support/wait";

const OWN_ADVISORY_LOCKS = `SELECT classid::text, objid::text, objsubid::int FROM pg_locks
  WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY classid, objid`;

/** The statements the helper replaced (src/db/migrate.ts, src/seed/demo/demo.service.ts, and the named ones). */
const BEFORE = [
  { key: 72707369, sql: `SELECT pg_advisory_xact_lock(72707369)` },
  { key: 20261101, sql: `SELECT pg_advisory_xact_lock(20261101)` },
  // hashtext of this name is negative (its bigint key has every high bit set), of the next positive.
  { key: "brief:p:district:d", sql: `SELECT pg_advisory_xact_lock(hashtext('brief:p:district:d'))` },
  { key: "a", sql: `SELECT pg_advisory_xact_lock(hashtext('a'))` },
];

describe("advisoryXactLock", () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("takes the same lock key as the statement it replaced, by name or by number", async () => {
    for (const { key, sql } of BEFORE) {
      const before = await db.transaction(async (tx) => {
        await tx.query(sql);
        return tx.query(OWN_ADVISORY_LOCKS);
      });
      const after = await db.transaction(async (tx) => {
        await advisoryXactLock(tx, key);
        return tx.query(OWN_ADVISORY_LOCKS);
      });
      const viaPrisma = await db.prisma.$transaction(async (tx) => {
        await advisoryXactLock(tx, key);
        return tx.$queryRawUnsafe<unknown[]>(OWN_ADVISORY_LOCKS);
      });
      expect(before).toHaveLength(1);
      expect([key, after]).toEqual([key, before]);
      expect([key, viaPrisma]).toEqual([key, before]);
    }
    // Released at the end of each transaction.
    expect(await db.query(OWN_ADVISORY_LOCKS)).toEqual([]);
  });

  it("refuses a number that is no lock key", async () => {
    await expect(db.transaction((tx) => advisoryXactLock(tx, 1.5))).rejects.toThrow(/not a whole number/);
  });

  (process.env.DATABASE_URL ? it : it.skip)(
    "migrate waits for an older process holding the migrations' lock by its old statement (PostgreSQL)",
    async () => {
      const older = new pg.Client({ connectionString: db.url });
      await older.connect();
      try {
        await older.query("BEGIN");
        await older.query(`SELECT pg_advisory_xact_lock(72707369)`);
        let settled = false;
        const migrating = migrate(db).finally(() => (settled = true));
        const waiting = await until(
          () => db.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 72707369 AND NOT granted`),
          (rows) => rows.length === 1,
        );
        expect(waiting).toHaveLength(1);
        expect(settled).toBe(false);
        await older.query("COMMIT");
        expect((await migrating).applied).toEqual([]);
      } finally {
        await older.end();
      }
    },
  );
});
