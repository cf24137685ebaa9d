/**
 * Expensive operations take turns in the process, keys round-robin (issue 20 point 4, fairness;
 * src/features/account/rate-limits/rate-limit.scheduler.ts): the scheduler's order, then the wiring over REST,
 * GraphQL and MCP with a single slot on a real database (every turn is given back, or later requests would hang).
 */
import { OperationScheduler } from "../../src/features/account/rate-limits/rate-limit.scheduler";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";

describe("OperationScheduler", () => {
  it("serves waiting keys round-robin: a key with many operations waiting does not go before another key's one", async () => {
    const scheduler = new OperationScheduler({ slots: 1, threshold: 100 });
    const order: string[] = [];
    const first = await scheduler.enter("flood", 1000);
    const run = (key: string, n: number) =>
      scheduler.enter(key, 1000).then((leave) => {
        order.push(`${key}${n}`);
        leave();
      });
    const all = [run("flood", 1), run("flood", 2), run("flood", 3), run("other", 1)];
    expect(scheduler.counts).toEqual({ running: 1, waiting: 4 });
    first();
    await Promise.all(all);
    expect(order).toEqual(["flood1", "other1", "flood2", "flood3"]);
    expect(scheduler.counts).toEqual({ running: 0, waiting: 0 });
  });

  it("never makes a cheap operation wait, and lets one whose deadline passed go on", async () => {
    const scheduler = new OperationScheduler({ slots: 1, threshold: 100 });
    const held = await scheduler.enter("flood", 1000);
    const cheap = await scheduler.enter("other", 99); // below the threshold: at once, whatever runs
    cheap();
    const deadline = new AbortController();
    const late = scheduler.enter("other", 1000, deadline.signal);
    expect(scheduler.counts.waiting).toBe(1);
    deadline.abort();
    const leave = await late;
    expect(scheduler.counts).toEqual({ running: 2, waiting: 0 });
    leave();
    held();
    expect(scheduler.counts).toEqual({ running: 0, waiting: 0 });
  });

  it("does not schedule with 0 slots", async () => {
    const scheduler = new OperationScheduler({ slots: 0, threshold: 1 });
    await scheduler.enter("a", 1e9);
    await scheduler.enter("a", 1e9);
    expect(scheduler.counts).toEqual({ running: 0, waiting: 0 });
  });
});

describe("expensive operations over HTTP with one slot per process", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ EXPENSIVE_OPERATION_SLOTS: "1", EXPENSIVE_OPERATION_COST: "1000" });
    for (let i = 0; i < 5; i++) await insertDistrict(t.db, { name: `Turn District ${i}`, state: "NE" });
  });
  afterAll(() => t.close());

  it("answers every expensive request of two keys on REST, GraphQL and MCP, and cheap ones meanwhile", async () => {
    const page = "/api/v1/districts?limit=200";
    const graphql = (plan: "pro" | "enterprise") =>
      t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${t.keys[plan]}`)
        .send({ query: "{ districts(limit: 200) { data { id name } } }" });
    const mcp = t.http
      .post("/mcp")
      .set("Authorization", `Bearer ${t.keys.pro}`)
      .set("Accept", "application/json, text/event-stream")
      .send({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search", arguments: { entity: "districts", filter: { state: "NE" }, limit: 200 } },
      });
    const responses = await Promise.all([
      ...Array.from({ length: 6 }, () => t.get(page, "pro")),
      ...Array.from({ length: 3 }, () => t.get(page, "enterprise")),
      graphql("pro"),
      graphql("enterprise"),
      mcp,
      t.get("/api/v1/districts?limit=1", "free"),
    ]);
    expect(responses.map((r) => r.status)).toEqual(Array(responses.length).fill(200));
    expect(responses.slice(0, 9).every((r) => r.body.data.length === 5)).toBe(true);
    expect(responses[9]!.body.data.districts.data).toHaveLength(5);
    expect(Number(responses[0]!.headers["x-query-cost"])).toBeGreaterThanOrEqual(1000);
    // Every turn was given back: the next expensive request runs.
    await t.get(page, "free").expect(200);
  });
});
