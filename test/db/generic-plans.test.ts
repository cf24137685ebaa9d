/**
 * Statements run with `{ plan: "generic" }` (src/db/client.ts QueryOptions): on embedded prepared once and planned
 * once for any parameters (PostgreSQL runs them as any statement). Same rows as the statement run plainly, one
 * statement counted, errors as usual, and nothing left behind on the connection (the plan setting, prepared
 * statements beyond the bound).
 */
import crypto from "node:crypto";
import { createTestDb, type TestDb } from "../support/db";
import { countStatements } from "../support/statements";

const SQL = `SELECT t.id, t.score, l.label, $3::text AS note, json_build_object('n', t.n) AS doc
  FROM unnest($1::uuid[], $2::real[]) WITH ORDINALITY AS t(id, score, n)
  CROSS JOIN LATERAL (SELECT CASE WHEN t.score > 0.5 THEN 'high' ELSE 'low' END AS label) l
 ORDER BY t.n`;

describe("statements with a generic plan", () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb({ migrate: false });
  });
  afterAll(() => db?.close());

  it("return the rows the plain statement returns, for any parameters, as one statement each", async () => {
    for (let run = 0; run < 8; run++) {
      const ids = Array.from({ length: run }, () => crypto.randomUUID());
      const scores = ids.map((_, i) => i / 7);
      const params = [ids, scores, run % 2 ? null : `run ${run}`];
      const plain = await db.query(SQL, params);
      let generic: unknown[] = [];
      expect(await countStatements(db, async () => void (generic = await db.query(SQL, params, { plan: "generic" })))).toBe(1);
      expect(generic).toEqual(plain);
      expect(generic).toHaveLength(run);
    }
  });

  it("fail as the plain statement does and leave the connection as it was", async () => {
    const bad = [["not-a-uuid"], [1], null];
    const plain = await db.query(SQL, bad).catch((e: { code?: string }) => e.code);
    const generic = await db.query(SQL, bad, { plan: "generic" }).catch((e: { code?: string }) => e.code);
    expect(generic).toBe("22P02");
    expect(generic).toBe(plain);
    const division = "SELECT 1 / $1::int AS x";
    await expect(db.query(division, [0], { plan: "generic" })).rejects.toMatchObject({ code: "22012" });
    expect(await db.query(division, [2], { plan: "generic" })).toEqual([{ x: 0 }]);
    expect(await db.query(`SHOW plan_cache_mode`)).toEqual([{ plan_cache_mode: "auto" }]);
  });

  it("run inside a transaction as any statement there", async () => {
    const rows = await db.transaction((q) => q.query(SQL, [[crypto.randomUUID()], [0.9], "tx"], { plan: "generic" }));
    expect(rows).toMatchObject([{ label: "high", note: "tx" }]);
  });

  if (process.env.DATABASE_URL) return;

  it("embedded: are planned generically, and at most 64 stay prepared", async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `SELECT $1::int + ${i} AS x`);
    for (const text of texts) expect(await db.query(text, [1], { plan: "generic" })).toEqual([{ x: 1 + texts.indexOf(text) }]);
    for (let run = 0; run < 3; run++) await db.query(SQL, [[], [], null], { plan: "generic" });
    const statements = await db.query<{ statement: string; generic_plans: number; custom_plans: number }>(
      `SELECT statement, generic_plans::int AS generic_plans, custom_plans::int AS custom_plans FROM pg_prepared_statements`,
    );
    expect(statements.length).toBeLessThanOrEqual(64);
    expect(statements.some((s) => s.statement === texts[0])).toBe(false); // the least recently used went first
    const mine = statements.find((s) => s.statement === SQL);
    expect(mine).toMatchObject({ custom_plans: 0 });
    expect(mine!.generic_plans).toBeGreaterThanOrEqual(3);
  });
});
