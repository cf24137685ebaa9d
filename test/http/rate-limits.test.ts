/**
 * Per-key rate limits, cost budget and concurrency (contract section 2, issue 20 point 4) over HTTP on a real
 * database: 429 rate_limited with Retry-After, the RateLimit headers, counters shared by two app instances on
 * one database, leases, the cost budget, MCP batches, unlimited plans and unlimited routes. Every app here
 * sets real limits (test/support/app.ts gives other test files generous ones).
 */
import { controlChannel, type ControlChannel } from "../../src/db/control";
import { loadEnv } from "../../src/config/env";
import { DEFAULT_POLICIES, policiesFromEnv } from "../../src/features/account/rate-limits/rate-limit.policy";
import { RateLimiter } from "../../src/features/account/rate-limits/rate-limit.service";
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { countStatements } from "../support/statements";
import { lockWaiters } from "../support/wait";

const GENEROUS = "rate=100000 burst=100000 concurrency=1000 cost_rate=1000000000 cost_burst=1000000000";

async function keyId(t: TestApp, plan: PlanKey): Promise<string> {
  const [row] = await t.db.query<{ id: string }>(`SELECT id FROM api_keys WHERE organization_id = $1`, [t.orgs[plan]]);
  return row!.id;
}

const mcpBatch = (calls: number) =>
  Array.from({ length: calls }, (_, i) => ({
    jsonrpc: "2.0",
    id: i + 1,
    method: "tools/call",
    params: { name: "search", arguments: { entity: "districts", filter: { state: "NE" }, limit: 1 } },
  }));

describe("rate limits per key and plan", () => {
  // One database for the file: each block's app makes its own plan organizations and keys, whose buckets start full.
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(() => db?.close());

  describe("request bucket", () => {
    let t: TestApp;
    beforeAll(async () => {
      // Free: 3 requests at once, then (practically) none: the 4th of a burst is refused.
      t = await createTestApp(
        {
          RATE_LIMIT_FREE: "rate=0.01 burst=3 concurrency=50",
          RATE_LIMIT_ENTERPRISE: "rate=0.01 burst=3 concurrency=50",
          RATE_LIMIT_PRO: GENEROUS,
        },
        { db },
      );
      await insertDistrict(t.db, { name: "Limit District", state: "NE" });
    });
    afterAll(() => t.close());

    it("answers past the burst with 429 rate_limited, Retry-After and the RateLimit headers", async () => {
      for (let i = 0; i < 3; i++) {
        const ok = await t.get("/api/v1/districts?state=NE&limit=1", "free").expect(200);
        expect(ok.headers["ratelimit-policy"]).toMatch(/^"default";q=3;w=300, "cost";q=\d+;w=\d+$/);
        expect(ok.headers["ratelimit"]).toMatch(new RegExp(`^"default";r=${2 - i};t=\\d+, "cost";r=\\d+;t=\\d+$`));
      }
      const refused = await t.get("/api/v1/districts?state=NE&limit=1", "free").expect(429);
      expect(refused.body).toEqual({
        error: "rate_limited",
        message: expect.stringMatching(
          /^rate limit exceeded: 0.01 requests per second with bursts of 3 on the free plan; retry after \d+ s$/,
        ),
        statusCode: 429,
      });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(refused.headers["ratelimit"]).toMatch(/^"default";r=0;t=\d+/);
      expect(refused.headers["ratelimit-policy"]).toMatch(/^"default";q=3;w=300/);
      // GraphQL shares the key's bucket.
      const graphql = await t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${t.keys.free}`)
        .send({ query: "{ organization { id } }" });
      expect(graphql.status).toBe(429);
      expect(graphql.body.error).toBe("rate_limited");
    });

    it("hostile: a burst fired all at once admits exactly the bucket, across REST, GraphQL and MCP", async () => {
      // The enterprise key (same limits as free here) has a full bucket.
      const shots = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 3 === 0
            ? t.get("/api/v1/districts?limit=1", "enterprise")
            : i % 3 === 1
              ? t.http
                  .post("/graphql")
                  .set("Authorization", `Bearer ${t.keys.enterprise}`)
                  .send({ query: "{ districts(limit: 1) { data { id } } }" })
              : t.http
                  .post("/mcp")
                  .set("Authorization", `Bearer ${t.keys.enterprise}`)
                  .set("Accept", "application/json, text/event-stream")
                  .send(mcpBatch(1)[0]),
        ),
      );
      const statuses = shots.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(9);
      for (const r of shots) expect(r.headers["ratelimit"]).toMatch(/^"default";r=\d+;t=\d+/);
    });

    it("does not limit /healthz, /readyz or unauthenticated answers, and another key keeps its own bucket", async () => {
      for (let i = 0; i < 5; i++) {
        const health = await t.http.get("/healthz").expect(200);
        expect(health.headers["ratelimit"]).toBeUndefined();
        await t.http.get("/readyz").expect(200);
      }
      const anonymous = await t.http.get("/api/v1/districts").expect(401);
      expect(anonymous.headers["ratelimit"]).toBeUndefined();
      await t.get("/api/v1/districts?limit=1", "pro").expect(200);
    });

    it("leaves the internal plan unlimited: no counter, no statement, the documented unlimited policy in the headers", async () => {
      const policy = '"default";q=1000000000;w=1, "cost";q=1000000000000;w=1';
      const state = '"default";r=1000000000;t=0, "cost";r=1000000000000;t=0';
      for (let i = 0; i < 10; i++) {
        const res = await t.get("/api/v1/districts?limit=1", "internal").expect(200);
        expect(res.headers["ratelimit-policy"]).toBe(policy);
        expect(res.headers["ratelimit"]).toBe(state);
      }
      // Every face: GraphQL and MCP too.
      const graphql = await t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${t.keys.internal}`)
        .send({ query: "{ organization { id } }" })
        .expect(200);
      expect([graphql.headers["ratelimit-policy"], graphql.headers["ratelimit"]]).toEqual([policy, state]);
      const mcp = await t.http
        .post("/mcp")
        .set("Authorization", `Bearer ${t.keys.internal}`)
        .set("Accept", "application/json, text/event-stream")
        .send(mcpBatch(2));
      expect([mcp.headers["ratelimit-policy"], mcp.headers["ratelimit"]]).toEqual([policy, state]);
      expect(await t.db.query(`SELECT 1 FROM rate_limits WHERE api_key_id = $1`, [await keyId(t, "internal")])).toEqual([]);
    });

    it("keeps the limiter's statement off the request's statement count", async () => {
      // The same read by an unlimited key (no limiter) and a limited one (an admission and a release on the side
      // channel): the database's own statement counter, which other tests assert exact numbers on, sees the same.
      const id = (await t.db.query<{ id: string }>(`SELECT id FROM districts LIMIT 1`))[0]!.id;
      const unlimited = await countStatements(t.db, () => t.get(`/api/v1/districts/${id}`, "internal").expect(200));
      const limited = await countStatements(t.db, () => t.get(`/api/v1/districts/${id}`, "pro").expect(200));
      expect(limited).toBe(unlimited);
    });
  });

  describe("shared by every API process of one database", () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      const env = { RATE_LIMIT_PRO: "rate=0.01 burst=4 concurrency=2" };
      a = await createTestApp(env, { db });
      b = await createTestApp(env, { db, plans: a });
    });
    afterAll(async () => {
      await b.close();
      await a.close();
    });

    it("counts one key's requests on two app instances against one bucket", async () => {
      const viaB = (path: string) => b.http.get(path).set("Authorization", `Bearer ${a.keys.pro}`);
      await a.get("/api/v1/districts?limit=1", "pro").expect(200);
      await viaB("/api/v1/districts?limit=1").expect(200);
      await a.get("/api/v1/districts?limit=1", "pro").expect(200);
      const last = await viaB("/api/v1/districts?limit=1").expect(200);
      expect(last.headers["ratelimit"]).toMatch(/^"default";r=0;/);
      await viaB("/api/v1/districts?limit=1").expect(429);
      await a.get("/api/v1/districts?limit=1", "pro").expect(429);
    });

    it("counts in-flight requests of every process, and a crashed process's leases expire", async () => {
      // Two other processes (their own limiters on the same database) with the same policy: one holds both slots.
      const control: ControlChannel = controlChannel(a.db);
      const other = new RateLimiter(control, policiesFromEnv({ RATE_LIMIT_ENTERPRISE: "rate=1000 burst=1000 concurrency=2" }), 60);
      const crashed = new RateLimiter(control, policiesFromEnv({ RATE_LIMIT_ENTERPRISE: "rate=1000 burst=1000 concurrency=2" }), 0);
      try {
        const enterprise = await keyId(a, "enterprise");
        const first = await other.admit(enterprise, "enterprise");
        const second = await other.admit(enterprise, "enterprise");
        expect([first?.admitted, second?.admitted]).toEqual([true, true]);
        const third = await other.admit(enterprise, "enterprise");
        expect(third).toMatchObject({ admitted: false, reason: "concurrency", inFlight: 2 });
        other.release(enterprise, first!.leaseId, 0);
        other.release(enterprise, second!.leaseId, 0);
        await other.flush();
        // A process that died holding a lease: its lease lives 0 s, so the next admission drops it.
        const dead = await crashed.admit(enterprise, "enterprise");
        expect(dead?.admitted).toBe(true);
        const again = await other.admit(enterprise, "enterprise");
        expect(again).toMatchObject({ admitted: true, inFlight: 1 });
        other.release(enterprise, again!.leaseId, 0);
        await other.flush();
      } finally {
        await control.close();
      }
    });
  });

  describe("concurrency over HTTP", () => {
    let t: TestApp;
    let control: ControlChannel;
    let other: RateLimiter;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_FREE: "rate=1000 burst=1000 concurrency=2" }, { db });
      control = controlChannel(t.db);
      other = new RateLimiter(control, policiesFromEnv({ RATE_LIMIT_FREE: "rate=1000 burst=1000 concurrency=2" }), 60);
    });
    afterAll(async () => {
      await control.close();
      await t.close();
    });

    it("refuses a request while the key's slots are held elsewhere, with 429 and Retry-After, and admits it once freed", async () => {
      const free = await keyId(t, "free");
      const held = [await other.admit(free, "free"), await other.admit(free, "free")];
      const refused = await t.get("/api/v1/org", "free");
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: "rate_limited", statusCode: 429 });
      expect(refused.body.message).toMatch(/at most 2 at once on the free plan/);
      expect(refused.headers["retry-after"]).toBe("1");
      for (const lease of held) other.release(free, lease!.leaseId, 0);
      await other.flush();
      const admitted = await t.get("/api/v1/org", "free");
      expect(admitted.status).not.toBe(429);
    });

    // PostgreSQL: requests really in flight (blocked on a table lock another connection holds).
    (process.env.DATABASE_URL ? it : it.skip)(
      "hostile: a third simultaneous request of a key is refused while two are in flight",
      async () => {
        await t.db.query(`DELETE FROM rate_limits`);
        let blocked: Promise<{ status: number }>[] = [];
        await t.db.transaction(async (lock) => {
          await lock.query(`LOCK TABLE districts IN ACCESS EXCLUSIVE MODE`);
          blocked = [0, 1].map(() => t.get("/api/v1/districts?limit=1", "free").then((r) => r));
          // Both hold their lease once they wait on the lock.
          for (;;) {
            if ((await lockWaiters(control)) >= 2) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          const third = await t.get("/api/v1/districts?limit=1", "free");
          expect(third.status).toBe(429);
          expect(third.body.message).toMatch(/in flight/);
        });
        expect((await Promise.all(blocked)).map((r) => r.status)).toEqual([200, 200]);
      },
    );
  });

  describe("cost budget", () => {
    let t: TestApp;
    beforeAll(async () => {
      // A budget of 3,000 cost that (practically) does not refill; requests themselves are plentiful.
      const policy = "rate=1000 burst=1000 concurrency=50 cost_rate=0.001 cost_burst=3000";
      t = await createTestApp({ RATE_LIMIT_PRO: policy, RATE_LIMIT_ENTERPRISE: policy }, { db });
      for (let i = 0; i < 3; i++) {
        const id = await insertDistrict(t.db, { name: `Cost District ${i}`, state: "NE" });
        await insertDistrictStats(t.db, id, 2023, { total_enrollment: 100 + i });
      }
    });
    afterAll(() => t.close());

    const costLeft = (header: string) => Number(/"cost";r=(\d+)/.exec(header)![1]);

    it("spends each request's query cost: an expensive page drains more than a cheap read, and an empty budget answers 429", async () => {
      const cheap = await t.get("/api/v1/districts?limit=1&order_by=name", "pro").expect(200);
      const cheapCost = Number(cheap.headers["x-query-cost"]);
      const before = costLeft((await t.get("/api/v1/districts?limit=1&order_by=name", "pro").expect(200)).headers["ratelimit"]);
      expect(before).toBe(3000 - cheapCost);
      const expensive = await t.get("/api/v1/districts?limit=200&order_by=name", "pro").expect(200);
      const expensiveCost = Number(expensive.headers["x-query-cost"]);
      expect(expensiveCost).toBeGreaterThan(10 * cheapCost);
      const after = await t.get("/api/v1/districts?limit=1&order_by=name", "pro");
      // 3000 - 2 cheap - 1 expensive is below zero: spent ahead, refused until it refills.
      expect(3000 - 2 * cheapCost - expensiveCost).toBeLessThan(0);
      expect(after.status).toBe(429);
      expect(after.body.message).toMatch(/^query cost budget exhausted/);
      expect(Number(after.headers["retry-after"])).toBeGreaterThan(1000);
    });

    it("computes a REST or MCP request's query cost once: the scheduler waits by and the meter spends the admission's", async () => {
      // The free key: its budget is the test default's, so the enterprise budget stays untouched for the next test.
      const cost = jest.spyOn(t.engine, "cost");
      try {
        const rest = await t.get("/api/v1/districts?limit=1&order_by=name", "free").expect(200);
        expect(cost).toHaveBeenCalledTimes(1);
        expect(cost.mock.results[0]!.value).toBe(Number(rest.headers["x-query-cost"]));
        cost.mockClear();
        const mcp = await t.http
          .post("/mcp")
          .set("Authorization", `Bearer ${t.keys.free}`)
          .set("Accept", "application/json, text/event-stream")
          .send(mcpBatch(1)[0]!);
        expect(mcp.status).toBe(200);
        expect(mcp.body.result.isError).toBeFalsy();
        expect(cost).toHaveBeenCalledTimes(1);
      } finally {
        cost.mockRestore();
      }
    });

    it("counts GraphQL's cost the same way", async () => {
      // The enterprise key has the same budget, untouched.
      const first = await t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${t.keys.enterprise}`)
        .send({ query: "{ districts(limit: 200) { data { id annualStatistics { latest { totalEnrollment } } } } }" });
      expect(first.status).toBe(200);
      const cost = first.body.extensions.cost.requested as number;
      const second = await t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${t.keys.enterprise}`)
        .send({ query: "{ organization { id } }" });
      expect(second.status).toBe(200);
      expect(costLeft(second.headers["ratelimit"])).toBe(3000 - cost);
    });
  });

  describe("MCP", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_PRO: "rate=0.01 burst=5 concurrency=50" }, { db });
      await insertDistrict(t.db, { name: "Mcp Limit District", state: "NE" });
    });
    afterAll(() => t.close());

    const post = (body: unknown) =>
      t.http
        .post("/mcp")
        .set("Authorization", `Bearer ${t.keys.pro}`)
        .set("Accept", "application/json, text/event-stream")
        .send(body as object);

    it("counts each call of a JSON-RPC batch, and refuses a batch larger than what is left", async () => {
      const three = await post(mcpBatch(3));
      expect(three.status).toBe(200);
      expect(three.body).toHaveLength(3);
      expect(three.headers["ratelimit"]).toMatch(/^"default";r=2;/);
      // Hostile: a batch of 3 against 2 tokens left is refused whole (no call runs).
      const refused = await post(mcpBatch(3));
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe("rate_limited");
      const single = await post(mcpBatch(1)[0]);
      expect(single.status).toBe(200);
      expect(single.headers["ratelimit"]).toMatch(/^"default";r=1;/);
    });
  });

  describe("configuration", () => {
    it("has the documented defaults and reads each plan's variable", () => {
      expect(DEFAULT_POLICIES).toEqual({
        free: { rate: 5, burst: 60, concurrency: 2, costRate: 100_000, costBurst: 1_000_000 },
        pro: { rate: 50, burst: 500, concurrency: 4, costRate: 500_000, costBurst: 5_000_000 },
        enterprise: { rate: 50, burst: 500, concurrency: 4, costRate: 500_000, costBurst: 5_000_000 },
        internal: null,
      });
      const env = loadEnv({ RATE_LIMIT_FREE: "rate=2, burst=10", RATE_LIMIT_PRO: "unlimited", RATE_LIMIT_INTERNAL: "concurrency=3" });
      const policies = policiesFromEnv(env);
      expect(policies.free).toEqual({ ...DEFAULT_POLICIES.free, rate: 2, burst: 10 });
      expect(policies.pro).toBeNull();
      expect(policies.internal).toEqual({ ...DEFAULT_POLICIES.enterprise, concurrency: 3 });
    });

    it("hostile: refuses values that are not limits, naming the variable", () => {
      for (const bad of [
        "rate=-1",
        "rate=0",
        "burst=abc",
        "concurrency=1.5",
        "speed=3",
        "rate=1e999",
        "rate=5;DROP TABLE x",
        "x".repeat(10_000),
      ]) {
        expect(() => loadEnv({ RATE_LIMIT_FREE: bad })).toThrow(/invalid configuration: RATE_LIMIT_FREE: /);
      }
    });
  });
});
