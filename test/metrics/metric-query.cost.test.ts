/**
 * A metric query's work counts in the query cost (issue 20 point 4, docs/limits.md): each point is one index
 * lookup per record (a change two), a select's for each record of the page, a filter's and the sort's for
 * METRIC_SCAN_ROWS records. So an expensive metric query costs more, and the largest one the grammar allows
 * is refused by the cost limit with a 400 naming its cost, before it runs, on REST, GraphQL and MCP.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { METRIC_QUERY_MAX_ITEMS, METRIC_SCAN_ROWS, metricQueryCost } from "../../src/features/catalogue/metrics/metric-query";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";

const MAX_COST = 250_000;
const change = { from: 2019, to: 2023, kind: "percent" };
/** The largest metric query the grammar accepts: every list full, every point a change window. */
const HOSTILE = {
  select: Array.from({ length: METRIC_QUERY_MAX_ITEMS }, (_, i) => ({ metric: "total_enrollment", change, as: `c${i}` })),
  filters: Array.from({ length: METRIC_QUERY_MAX_ITEMS }, () => ({ metric: "total_enrollment", change, op: "gt", value: -1e9 })),
  sort: { metric: "total_enrollment", change, direction: "desc" },
};
const latestFilters = (n: number) => ({ filters: Array.from({ length: n }, () => ({ metric: "total_enrollment", op: "gte", value: 0 })) });
const mq = (query: unknown) => encodeURIComponent(JSON.stringify(query));

describe("metricQueryCost", () => {
  it("counts one lookup per point and record (two for a change): selects over the page, filters and sort over the scan", () => {
    expect(metricQueryCost("{}", 200)).toBe(0);
    expect(metricQueryCost(JSON.stringify({ select: [{ metric: "m" }] }), 200)).toBe(200);
    expect(
      metricQueryCost(
        JSON.stringify({
          select: [
            { metric: "m", change },
            { metric: "m", year: 2020 },
          ],
        }),
        50,
      ),
    ).toBe(150);
    expect(metricQueryCost(JSON.stringify({ filters: [{ metric: "m", op: "is_null" }] }), 1)).toBe(METRIC_SCAN_ROWS);
    expect(metricQueryCost(JSON.stringify({ sort: { metric: "m", change } }), 1)).toBe(2 * METRIC_SCAN_ROWS);
    expect(metricQueryCost(JSON.stringify(HOSTILE), 1)).toBe(100 + 102 * METRIC_SCAN_ROWS);
    // What parseMetricQuery refuses costs nothing here: the 400 names the problem, not a cost.
    for (const refused of ["{", "[]", JSON.stringify({ select: 7 }), JSON.stringify(latestFilters(METRIC_QUERY_MAX_ITEMS + 1))])
      expect(metricQueryCost(refused, 200)).toBe(0);
    expect(metricQueryCost(undefined, 200)).toBe(0);
  });
});

describe("metric_query in the query cost", () => {
  let t: TestApp;
  let mcp: Client;

  beforeAll(async () => {
    t = await createTestApp();
    const district = await insertDistrict(t.db, { name: "Cost District", state: "RI" });
    await insertDistrictStats(t.db, district, 2019, { total_enrollment: 100 });
    await insertDistrictStats(t.db, district, 2023, { total_enrollment: 120 });
    const port = (t.server.address() as { port: number }).port;
    mcp = new Client({ name: "edmarket-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${t.keys.free}` } },
      }),
    );
  });
  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    await t?.close();
  });

  const restCost = async (query: string) => {
    const res = await t.get(`/api/v1/districts?${query}`, "free");
    return { status: res.status, body: res.body, cost: Number(res.headers["x-query-cost"]) };
  };

  it("REST: the page's cost plus the metric query's work, in X-Query-Cost", async () => {
    const base = await restCost("state=RI&limit=20");
    expect(base.status).toBe(200);
    const query = { select: [{ metric: "total_enrollment", change, as: "c" }], filters: latestFilters(3).filters };
    const res = await restCost(`state=RI&limit=20&metric_query=${mq(query)}`);
    expect(res.status).toBe(200);
    expect(res.body.data[0].metric_values).toEqual({ c: null }); // free plan: the change is gated, and it ran
    expect(res.cost).toBe(base.cost + 2 * 20 + 3 * METRIC_SCAN_ROWS);
  });

  it("REST: the largest metric query is refused with a 400 naming its cost; below the limit is admitted, above refused", async () => {
    const base = (await restCost("state=RI&limit=1")).cost;
    const hostile = await restCost(`state=RI&limit=1&metric_query=${mq(HOSTILE)}`);
    const expected = base + 100 + 102 * METRIC_SCAN_ROWS;
    expect({ status: hostile.status, body: hostile.body, cost: hostile.cost }).toEqual({
      status: 400,
      body: { error: "bad_request", statusCode: 400, message: `query cost ${expected} exceeds the limit of ${MAX_COST}` },
      cost: expected,
    });
    const post = await t.post("/api/v1/districts", { state: "RI", limit: "1", metric_query: JSON.stringify(HOSTILE) }, "free");
    expect(post.status).toBe(400);
    expect(post.body.message).toBe(`query cost ${expected} exceeds the limit of ${MAX_COST}`);

    // As many latest filters as fit under the limit run; one more is refused.
    const fit = Math.floor((MAX_COST - base) / METRIC_SCAN_ROWS);
    const admitted = await restCost(`state=RI&limit=1&metric_query=${mq(latestFilters(fit))}`);
    expect({ status: admitted.status, cost: admitted.cost }).toEqual({ status: 200, cost: base + fit * METRIC_SCAN_ROWS });
    const refused = await restCost(`state=RI&limit=1&metric_query=${mq(latestFilters(fit + 1))}`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`query cost ${base + (fit + 1) * METRIC_SCAN_ROWS} exceeds the limit of ${MAX_COST}`);
  });

  it("GraphQL and MCP count it the same way", async () => {
    const document = `query($q: String) { districts(filter: { state: "RI" }, metricQuery: $q, limit: 1) { data { id } } }`;
    const plain = await t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${t.keys.free}`)
      .send({ query: document, variables: { q: null } });
    const base = plain.body.extensions.cost.requested as number;
    const hostile = await t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${t.keys.free}`)
      .send({ query: document, variables: { q: JSON.stringify(HOSTILE) } });
    const expected = base + 1 * 100 + 102 * METRIC_SCAN_ROWS;
    expect(hostile.status).toBe(400);
    expect(hostile.body.errors[0]).toMatchObject({
      message: `query cost ${expected} exceeds the limit of ${MAX_COST}`,
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(hostile.body.extensions.cost).toEqual({ requested: expected, limit: MAX_COST });
    // An inline literal counts too.
    const literal = await t.graphql(
      `{ districts(metricQuery: ${JSON.stringify(JSON.stringify(HOSTILE))}, limit: 1) { data { id } } }`,
      {},
      "free",
    );
    expect(literal.errors?.[0].message).toMatch(/^query cost \d+ exceeds the limit of 250000$/);

    const result = (await mcp.callTool({
      name: "metric_query",
      arguments: { entity: "districts", metric_query: HOSTILE, limit: 1 },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toMatchObject({
      error: "bad_request",
      statusCode: 400,
      message: expect.stringMatching(/^query cost \d+ exceeds the limit of 250000$/),
    });
  });
});
