/**
 * The bounded penalty for a key that keeps sending while refused (issue 20 point 4, fairness; docs/limits.md):
 * its repeated refusals are answered after a hold, the hold never delays another key, the first refusal is
 * immediate, and past the per-key count of held answers refusals are immediate again. Over HTTP on a real
 * database, then the bookkeeping itself (src/features/account/rate-limits/rate-limit.hold.ts) with its own clock.
 */
import type supertest from "supertest";
import { RefusalHold } from "../../src/features/account/rate-limits/rate-limit.hold";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";

/** One token, then practically none (Retry-After 100 s): every later request of the key is refused. */
const ONE_REQUEST = "rate=0.01 burst=1 concurrency=50";

const HOLD_MS = 4000;
/**
 * A held answer waits HOLD_MS; one answered at once does not. Load only lengthens waits, so "held" is asserted as
 * a lower bound on the wait (with a margin for timer granularity), never as an order against another request's
 * duration (a loaded CI machine took more than HOLD_MS for another key's request).
 */
const HELD = HOLD_MS - 250;

/** Sends `req` and records when it settled and how long it took. */
function tracked(req: supertest.Test) {
  const started = performance.now();
  const state = { settled: false, ms: 0, response: undefined as supertest.Response | undefined };
  const done = req.then((res) => {
    state.settled = true;
    state.ms = performance.now() - started;
    state.response = res;
    return res;
  });
  return { state, done };
}

describe("refusals of a key that keeps sending while refused", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_FREE: ONE_REQUEST,
      RATE_LIMIT_ENTERPRISE: ONE_REQUEST,
      RATE_LIMIT_HOLD_MS: String(HOLD_MS),
      RATE_LIMIT_HOLD_MAX: "1",
    });
    await insertDistrict(t.db, { name: "Hold District", state: "NE" });
  });
  afterAll(() => t.close());

  it("answers the first refusal at once and holds the next one, while another key is served meanwhile", async () => {
    await t.get("/api/v1/districts?limit=1", "free").expect(200);
    const first = tracked(t.get("/api/v1/districts?limit=1", "free"));
    const other = await t.get("/api/v1/districts?limit=1", "pro");
    // The first refusal does not wait for anything.
    expect((await first.done).status).toBe(429);

    const repeated = tracked(t.get("/api/v1/districts?limit=1", "free"));
    // Other keys' requests, REST and GraphQL, are answered while the flooding key's refusal is held.
    for (let i = 0; i < 3; i++) await t.get("/api/v1/districts?state=NE&limit=1", "pro").expect(200);
    const graphql = await t.graphql("{ districts(limit: 1) { data { id } } }", undefined, "pro");
    expect(graphql.errors).toBeUndefined();
    expect(other.status).toBe(200);

    // The held answer is the refusal it would have been: 429 rate_limited with Retry-After and the headers.
    const res = await repeated.done;
    expect(repeated.state.ms).toBeGreaterThanOrEqual(HELD);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: "rate_limited", message: expect.stringMatching(/^rate limit exceeded: /), statusCode: 429 });
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(res.headers["ratelimit"]).toMatch(/^"default";r=0;/);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("holds at most the per-key count of answers at once: past it, refusals are answered at once", async () => {
    await t.get("/api/v1/districts?limit=1", "enterprise").expect(200);
    await t.get("/api/v1/districts?limit=1", "enterprise").expect(429); // the first refusal, at once
    // Two repeated refusals at once with RATE_LIMIT_HOLD_MAX=1: one is held, the other answered before it.
    const a = tracked(t.get("/api/v1/districts?limit=1", "enterprise"));
    const b = tracked(t.get("/api/v1/districts?limit=1", "enterprise"));
    await Promise.race([a.done, b.done]);
    // Another key is served meanwhile.
    await t.get("/api/v1/districts?limit=1", "pro").expect(200);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect([ra.status, rb.status]).toEqual([429, 429]);
    // One was held; the other was answered before the held one, and without a hold of its own.
    const [quick, held] = [a.state.ms, b.state.ms].sort((x, y) => x - y);
    expect(held).toBeGreaterThanOrEqual(HELD);
    expect(held - quick!).toBeGreaterThanOrEqual(HELD / 2);
  });

  it("gives up a held answer whose client went away", async () => {
    const req = t.get("/api/v1/districts?limit=1", "enterprise").timeout(200);
    await expect(req).rejects.toThrow();
    // The slot of the held answer is free again: the next repeated refusal is held, not answered at once.
    const next = tracked(t.get("/api/v1/districts?limit=1", "enterprise"));
    await t.get("/api/v1/districts?limit=1", "pro").expect(200);
    expect((await next.done).status).toBe(429);
    expect(next.state.ms).toBeGreaterThanOrEqual(HELD);
  });
});

describe("RefusalHold bookkeeping", () => {
  const now = 1_000_000;

  it("holds a key's refusal only while it is still inside the Retry-After of its last refusal", () => {
    const hold = new RefusalHold({ ms: 1000, perKey: 4, total: 100 });
    expect(hold.refused("a", 2, now)).toBe(0); // first refusal: at once
    expect(hold.refused("a", 2, now + 100)).toBe(1000); // keeps sending: held
    expect(hold.refused("b", 2, now + 100)).toBe(0); // another key is its own
    expect(hold.refused("a", 2, now + 10_000)).toBe(0); // came back after its Retry-After: at once
    hold.admitted("a");
    expect(hold.refused("a", 2, now + 10_100)).toBe(0); // first refusal after an admission: at once
  });

  it("holds at most the Retry-After, and counts held answers per key and per process", () => {
    const hold = new RefusalHold({ ms: 5000, perKey: 2, total: 3 });
    hold.refused("a", 1, now);
    hold.refused("b", 1, now);
    expect(hold.refused("a", 1, now + 1)).toBe(1000);
    expect(hold.refused("a", 1, now + 2)).toBe(1000);
    expect(hold.refused("a", 1, now + 3)).toBe(0); // per key: 2
    expect(hold.held("a")).toBe(2);
    expect(hold.refused("b", 1, now + 4)).toBe(1000);
    expect(hold.refused("b", 1, now + 5)).toBe(0); // per process: 3
    expect(hold.held()).toBe(3);
    hold.release("a");
    expect(hold.held("a")).toBe(1);
    expect(hold.refused("b", 1, now + 6)).toBe(1000);
    expect(hold.held()).toBe(3);
  });

  it("never holds with a hold of 0 ms", () => {
    const hold = new RefusalHold({ ms: 0, perKey: 10, total: 10 });
    hold.refused("a", 5, now);
    expect(hold.refused("a", 5, now + 1)).toBe(0);
    expect(hold.held()).toBe(0);
  });
});
