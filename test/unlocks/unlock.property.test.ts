/**
 * A seeded model test of the money path (issue 11): fast-check generates sequences of actions over two
 * organizations and six districts (three extracted, three not) and runs them against the real app on a real
 * database — grants, unlocks (instant, pending, idempotent, re_extract, batch, Idempotency-Key replays),
 * the extraction job's success, final failure and redelivery, hold expiry through the sweeper, and restarts
 * of the app and its job queue on the same database. After every action the ledger invariants are checked
 * by SQL (test/credits/ledger.ts plus the hold/unlock/_access ones below) and the balances and unlock rows
 * are compared with a small model; at the end of each run `_access` and unlock-status are read over HTTP.
 *
 * Jobs: the app only sends (`jobs: "send"`); the test plays the worker by calling the extraction job's own
 * handlers (`extractJob.run`, `extractJob.onFinalFailure`) and `sweepExpiredHolds`, so each step is
 * deterministic. The demo extractor runs for real (a successful job leaves the district `completed`).
 */
import fc from "fast-check";
import { loadEnv } from "../../src/config/env";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization, grantCredits } from "../../src/features/account/organizations/organization.service";
import { sweepExpiredHolds } from "../../src/features/account/credits/credits.jobs";
import { extractJob, unlockHoldReleased } from "../../src/features/account/unlocks/unlock.jobs";
import { LEDGER_CHECKS, NO_VIOLATIONS, violationsOf } from "../credits/ledger";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";

const SEED = 20261123;
const NUM_RUNS = Number(process.env.UNLOCK_PROPERTY_RUNS ?? 40);
const MIN_ACTIONS = 10;
const MAX_ACTIONS = 30;
const COST = 6;
const ENV = { HOLD_TTL_SECONDS: "600", JOB_RETRY_LIMIT: "0" };
const ORGS = 2;
const ENTITIES = 6; // even indexes extracted (instant), odd ones not (pending)

type Action =
  | { kind: "grant"; org: number; amount: number }
  | { kind: "unlock"; org: number; entity: number }
  | { kind: "reExtract"; org: number; entity: number }
  | { kind: "batch"; org: number; entities: number[] }
  | { kind: "keyed"; org: number; entity: number; key: number }
  | { kind: "jobSuccess"; pick: number }
  | { kind: "jobFailure"; pick: number }
  | { kind: "redeliver"; pick: number }
  | { kind: "expire" }
  | { kind: "restart" };

const org = fc.integer({ min: 0, max: ORGS - 1 });
const entity = fc.integer({ min: 0, max: ENTITIES - 1 });
const pick = fc.nat({ max: 20 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("grant" as const), org, amount: fc.integer({ min: 1, max: 15 }) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("unlock" as const), org, entity }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("reExtract" as const), org, entity }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("batch" as const), org, entities: fc.array(entity, { minLength: 2, maxLength: 4 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("keyed" as const), org, entity, key: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("jobSuccess" as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("jobFailure" as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("redeliver" as const), pick }) },
  { weight: 1, arbitrary: fc.constant({ kind: "expire" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "restart" as const }) },
);

interface ModelUnlock {
  state: "locked" | "unlocked" | "unlock_pending" | "failed";
  spent: number;
  openHold: string | null;
}
interface ModelHold {
  id: string;
  org: number;
  entity: number;
  reExtract: boolean;
  status: "open" | "committed" | "released";
}
interface Model {
  orgIds: string[];
  keys: string[];
  entityIds: string[];
  extracted: boolean[];
  available: number[];
  held: number[];
  unlocks: ModelUnlock[][]; // [org][entity]
  holds: ModelHold[];
  idem: Map<string, { entity: number; status: number; body: unknown }>;
  run: number;
}

/** What one unlock does to the model, and the answer it predicts. */
function decide(m: Model, o: number, e: number, reExtract: boolean): { status: number; outcome?: string; hold?: boolean } {
  const u = m.unlocks[o][e];
  if (u.state === "unlocked" && !reExtract) return { status: 200, outcome: "idempotent" };
  if (u.openHold) return { status: 202, outcome: "unlock_pending" };
  if (reExtract && u.state !== "unlocked") return { status: 400 };
  if (m.available[o] < COST) return { status: 402 };
  if (m.extracted[e] && !reExtract) {
    m.available[o] -= COST;
    u.state = "unlocked";
    u.spent += COST;
    return { status: 200, outcome: "unlocked" };
  }
  m.available[o] -= COST;
  m.held[o] += COST;
  if (!reExtract) u.state = "unlock_pending";
  return { status: 202, outcome: "unlock_pending", hold: true };
}

/** Records the hold a pending unlock created (its id comes from the response). */
function recordHold(m: Model, o: number, e: number, reExtract: boolean, holdId: string) {
  m.unlocks[o][e].openHold = holdId;
  m.holds.push({ id: holdId, org: o, entity: e, reExtract, status: "open" });
}

function settle(m: Model, h: ModelHold, outcome: "committed" | "released") {
  const u = m.unlocks[h.org][h.entity];
  h.status = outcome;
  u.openHold = null;
  m.held[h.org] -= COST;
  if (outcome === "committed") {
    u.state = "unlocked";
    u.spent += COST;
    m.extracted[h.entity] = true; // the demo extraction completed the district
  } else {
    m.available[h.org] += COST;
    if (u.state !== "unlocked") u.state = "failed";
  }
}

/** Invariants over the whole database, by SQL (every organization, every run so far). */
/** The ledger's invariants and the unlock and hold ones below, in one statement (checked after every action). */
const CHECKS = {
  ...LEDGER_CHECKS,
  // a hold is open, committed or released: never both settlements (badSettlements counts them)
  badHoldStatus: `SELECT id FROM credit_holds WHERE status NOT IN ('open', 'committed', 'released')`,
  // an open hold belongs to a running unlock (pending, or a re-extraction of an unlocked entity)
  orphanOpenHolds: `SELECT h.id FROM credit_holds h LEFT JOIN unlocks u ON u.hold_id = h.id
      WHERE h.status = 'open' AND (u.id IS NULL OR u.state NOT IN ('unlock_pending', 'unlocked') OR u.finished_at IS NOT NULL)`,
  // a pending unlock has its open hold
  pendingWithoutHold: `SELECT u.id FROM unlocks u WHERE u.state = 'unlock_pending'
        AND NOT EXISTS (SELECT 1 FROM credit_holds h WHERE h.id = u.hold_id AND h.status = 'open')`,
  // _access follows the ledger: credits_spent is what was charged or committed for the entity; unlocked iff something was
  accessVsLedger: `SELECT u.id, u.state, u.credits_spent, s.spent FROM unlocks u
       LEFT JOIN (SELECT organization_id, entity_type, entity_id, sum(amount) AS spent FROM credit_ledger
                   WHERE account = 'spent' GROUP BY 1, 2, 3) s
         ON s.organization_id = u.organization_id AND s.entity_type = u.entity_type AND s.entity_id = u.entity_id
      WHERE u.credits_spent <> coalesce(s.spent, 0) OR (u.state = 'unlocked') <> (coalesce(s.spent, 0) > 0)`,
  // every spent entry belongs to an unlock row
  spentWithoutUnlock: `SELECT l.transfer_id FROM credit_ledger l
      WHERE l.account = 'spent' AND NOT EXISTS (SELECT 1 FROM unlocks u WHERE u.organization_id = l.organization_id
            AND u.entity_type = l.entity_type AND u.entity_id = l.entity_id)`,
};
const violations = (db: TestDb) => violationsOf(db, CHECKS);
const NONE = {
  ...NO_VIOLATIONS,
  badHoldStatus: [],
  orphanOpenHolds: [],
  pendingWithoutHold: [],
  accessVsLedger: [],
  spentWithoutUnlock: [],
};

describe("unlock and ledger model (fast-check)", () => {
  let db: TestDb;
  let t: TestApp;
  const env = loadEnv({ LOG_LEVEL: "silent", ...ENV });
  const stats = { runs: 0, actions: 0, byKind: {} as Record<string, number>, restarts: 0 };

  beforeAll(async () => {
    db = await createTestDb();
    t = await createTestApp(ENV, { jobs: "send", db });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const post = (m: Model, o: number, body: unknown, key?: string) => {
    const req = t.http.post("/api/v1/unlock").set("Authorization", `Bearer ${m.keys[o]}`);
    if (key) req.set("Idempotency-Key", key);
    return req.send(body as object);
  };

  async function newModel(run: number): Promise<Model> {
    const orgIds: string[] = [];
    const keys: string[] = [];
    for (let o = 0; o < ORGS; o += 1) {
      const { organizationId } = await createOrganization(db, { name: `Model ${run}.${o}`, plan: "pro", credits: 12 });
      orgIds.push(organizationId);
      keys.push((await createApiKey(db, organizationId)).apiKey);
    }
    const extracted = Array.from({ length: ENTITIES }, (_, e) => e % 2 === 0);
    const entityIds: string[] = [];
    for (const done of extracted) entityIds.push(await insertDistrict(db, { status: done ? "completed" : "pending" }));
    return {
      orgIds,
      keys,
      entityIds,
      extracted,
      available: orgIds.map(() => 12),
      held: orgIds.map(() => 0),
      unlocks: orgIds.map(() => entityIds.map(() => ({ state: "locked" as const, spent: 0, openHold: null }))),
      holds: [],
      idem: new Map(),
      run,
    };
  }

  async function single(m: Model, o: number, e: number, reExtract: boolean, key?: string) {
    const body = { entity_type: "district", entity_id: m.entityIds[e], ...(reExtract ? { re_extract: true } : {}) };
    const res = await post(m, o, body, key);
    const expected = decide(m, o, e, reExtract);
    expect({ status: res.status, outcome: res.body.outcome }).toEqual({ status: expected.status, outcome: expected.outcome });
    if (expected.hold) recordHold(m, o, e, reExtract, res.body.hold_id);
    if (expected.status === 200 || expected.status === 202) expect(res.body.credits_remaining).toBe(m.available[o]);
    return res;
  }

  const openHolds = (m: Model) => m.holds.filter((h) => h.status === "open");
  const jobData = (m: Model, h: ModelHold) => ({
    holdId: h.id,
    organizationId: m.orgIds[h.org],
    entityType: "district",
    entityId: m.entityIds[h.entity],
  });
  const attempt = { id: "model", retryCount: 0, retryLimit: 0 };

  async function step(m: Model, a: Action): Promise<void> {
    switch (a.kind) {
      case "grant":
        await grantCredits(db, m.orgIds[a.org], a.amount);
        m.available[a.org] += a.amount;
        return;
      case "unlock":
        await single(m, a.org, a.entity, false);
        return;
      case "reExtract":
        await single(m, a.org, a.entity, true);
        return;
      case "keyed": {
        const key = `model-${m.run}-${a.org}-${a.key}`;
        const stored = m.idem.get(key);
        if (stored && stored.entity !== a.entity) {
          const res = await post(m, a.org, { entity_type: "district", entity_id: m.entityIds[a.entity] }, key);
          expect(res.status).toBe(409);
        } else if (stored) {
          const res = await post(m, a.org, { entity_id: m.entityIds[a.entity], entity_type: "district" }, key);
          expect({ status: res.status, body: res.body }).toEqual({ status: stored.status, body: stored.body });
        } else {
          const res = await single(m, a.org, a.entity, false, key);
          if (res.status === 200 || res.status === 202) m.idem.set(key, { entity: a.entity, status: res.status, body: res.body });
        }
        return;
      }
      case "batch": {
        const res = await post(m, a.org, { entities: a.entities.map((e) => ({ entity_type: "district", entity_id: m.entityIds[e] })) });
        expect(res.status).toBe(200);
        expect(res.body.results).toHaveLength(a.entities.length);
        a.entities.forEach((e, i) => {
          const item = res.body.results[i];
          const expected = decide(m, a.org, e, false);
          if (expected.status >= 400) expect(item.statusCode).toBe(expected.status);
          else expect(item.outcome).toBe(expected.outcome);
          if (expected.hold) recordHold(m, a.org, e, false, item.hold_id);
        });
        return;
      }
      case "jobSuccess":
      case "jobFailure": {
        const open = openHolds(m);
        if (!open.length) return;
        const h = open[a.pick % open.length];
        if (a.kind === "jobSuccess") await extractJob.run({ db, env }, jobData(m, h), attempt);
        else await extractJob.onFinalFailure!({ db, env }, jobData(m, h), new Error("model: extraction failed"), attempt);
        settle(m, h, a.kind === "jobSuccess" ? "committed" : "released");
        return;
      }
      case "redeliver": {
        // a duplicate delivery or a late final failure of a settled hold's job writes nothing
        const settled = m.holds.filter((h) => h.status !== "open");
        if (!settled.length) return;
        const h = settled[a.pick % settled.length];
        if (a.pick % 2) await extractJob.run({ db, env }, jobData(m, h), attempt);
        else await extractJob.onFinalFailure!({ db, env }, jobData(m, h), new Error("model: late failure"), attempt);
        return;
      }
      case "expire": {
        const later = new Date(Date.now() + (Number(ENV.HOLD_TTL_SECONDS) + 5) * 1000);
        const open = openHolds(m);
        // every open hold in the database is past `later` (earlier runs' too): at least this run's are released
        expect(await sweepExpiredHolds(db, unlockHoldReleased, later)).toBeGreaterThanOrEqual(open.length);
        for (const h of open) settle(m, h, "released");
        return;
      }
      case "restart":
        await t.close();
        // The same database: the plan organizations the first app created there stay (this test uses its own).
        t = await createTestApp(ENV, { jobs: "send", db, plans: t });
        stats.restarts += 1;
        return;
    }
  }

  /**
   * The database agrees with the model for this run's organizations and entities: each organization's balance, open
   * holds and unlock rows, read in one statement (checked after every action, so one statement instead of three per
   * organization).
   */
  async function compare(m: Model) {
    const rows = await db.query<{
      id: string;
      balance: number;
      held: number;
      unlocks: Array<{ entity_id: string; state: string; spent: number }>;
    }>(
      `SELECT o.id, o.credit_balance::float8 AS balance,
              (SELECT coalesce(sum(h.amount), 0)::float8 FROM credit_holds h WHERE h.organization_id = o.id AND h.status = 'open') AS held,
              (SELECT coalesce(json_agg(json_build_object('entity_id', u.entity_id, 'state', u.state, 'spent', u.credits_spent)), '[]')
                 FROM unlocks u WHERE u.organization_id = o.id) AS unlocks
         FROM organizations o WHERE o.id = ANY($1::uuid[])`,
      [m.orgIds],
    );
    const actual = m.orgIds.map((id, o) => {
      const org = rows.find((r) => r.id === id)!;
      return {
        o,
        balance: org.balance,
        held: org.held,
        unlocks: m.entityIds.map((entityId) => {
          const r = org.unlocks.find((x) => x.entity_id === entityId);
          return r ? { state: r.state, spent: r.spent } : { state: "locked", spent: 0 };
        }),
      };
    });
    expect(actual).toEqual(
      m.orgIds.map((_, o) => ({
        o,
        balance: m.available[o] + m.held[o],
        held: m.held[o],
        unlocks: m.unlocks[o].map((u) => ({ state: u.state, spent: u.spent })),
      })),
    );
  }

  /**
   * What a client sees: `_access` of GET /districts/{id} and GET /unlock-status, per organization and entity.
   * The reads change nothing, so they are sent at once; each answer is checked against the model as before.
   */
  async function compareHttp(m: Model) {
    const reads = [];
    for (let o = 0; o < ORGS; o += 1)
      for (let e = 0; e < ENTITIES; e += 1) {
        const u = m.unlocks[o][e];
        const auth = `Bearer ${m.keys[o]}`;
        reads.push(
          t.http
            .get(`/api/v1/districts/${m.entityIds[e]}`)
            .set("Authorization", auth)
            .expect(200)
            .then((detail) =>
              expect(detail.body.data._access).toMatchObject({
                is_unlocked: u.state === "unlocked",
                // The same rule as unlock-status (issue 20 point 11): pending while its hold is open, re-extractions included.
                is_unlocking: u.openHold !== null || u.state === "unlock_pending",
                credits_spent: u.spent,
                unlock_cost: COST,
              }),
            ),
          t.http
            .get(`/api/v1/unlock-status/district/${m.entityIds[e]}`)
            .set("Authorization", auth)
            .expect(200)
            .then((status) => expect(status.body.state).toBe(u.openHold ? "unlock_pending" : u.state)),
        );
      }
    reads.push(
      t.http
        .get("/api/v1/org")
        .set("Authorization", `Bearer ${m.keys[0]}`)
        .expect(200)
        .then((org) =>
          expect(org.body.credits).toEqual({ balance: m.available[0] + m.held[0], held: m.held[0], available: m.available[0] }),
        ),
    );
    await Promise.all(reads);
  }

  it(`holds the ledger invariants over seeded interleavings (seed ${SEED}, ${NUM_RUNS} runs x ${MIN_ACTIONS}-${MAX_ACTIONS} actions)`, async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: MIN_ACTIONS, maxLength: MAX_ACTIONS, size: "max" }), async (actions) => {
        stats.runs += 1;
        const m = await newModel(stats.runs);
        for (const a of actions) {
          stats.actions += 1;
          stats.byKind[a.kind] = (stats.byKind[a.kind] ?? 0) + 1;
          await step(m, a);
          expect(await violations(db)).toEqual(NONE);
          await compare(m);
        }
        await compareHttp(m);
      }),
      { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
    );
    const holds = await db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM credit_holds GROUP BY 1 ORDER BY 1`,
    );
    console.log(
      `unlock property: seed ${SEED}, ${stats.runs} runs, ${stats.actions} actions (${(stats.actions / stats.runs).toFixed(1)} per run), ` +
        `${stats.restarts} restarts, ${((Date.now() - started) / 1000).toFixed(1)} s on ${db.url ? "PostgreSQL" : "embedded"}; ` +
        `actions ${JSON.stringify(stats.byKind)}; holds ${JSON.stringify(holds)}`,
    );
  });
});
