/**
 * Every metric-query shape on every face, for every plan (issue 20 point 3): a free key used to get 500
 * `internal_error` on PostgreSQL ("could not determine data type of parameter $2") whenever no point of
 * the query read a year, because the history-gating parameter was bound but never used. Each plan must
 * get 200 and, for `latest` points (which history gating does not touch), the same values as a paid plan.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { insertSchool, insertSchoolStats } from "../support/school-factories";

const PLANS: PlanKey[] = ["free", "pro", "enterprise", "internal"];
const mq = (query: unknown) => encodeURIComponent(JSON.stringify(query));

/** Queries whose every point is `latest` (or that have no point): identical for every plan. */
const LATEST_ONLY: [string, unknown][] = [
  ["empty object", {}],
  ["empty lists", { select: [], filters: [], sort: null }],
  ["one latest select", { select: [{ metric: "total_enrollment" }] }],
  ["explicit latest", { select: [{ metric: "total_enrollment", year: "latest", as: "e" }] }],
  ["latest filter", { filters: [{ metric: "total_enrollment", op: "gt", value: 150 }] }],
  [
    "between and null filters",
    {
      filters: [
        { metric: "total_enrollment", op: "between", value: [0, 1e6] },
        { metric: "teachers_fte", op: "is_null" },
      ],
    },
  ],
  ["latest sort", { sort: { metric: "total_enrollment", direction: "desc" } }],
  [
    "select, filter and sort",
    {
      select: [{ metric: "total_enrollment", as: "e" }],
      filters: [{ metric: "total_enrollment", op: "gte", value: 0 }],
      sort: { metric: "total_enrollment", direction: "asc" },
    },
  ],
];

/** Queries that read other years: gated for the free plan, but never an error. */
const GATED: [string, unknown][] = [
  ["a year select", { select: [{ metric: "total_enrollment", year: 2022, as: "e" }] }],
  ["a change select", { select: [{ metric: "total_enrollment", change: { from: 2022, to: 2023, kind: "percent" }, as: "c" }] }],
  ["a year filter", { filters: [{ metric: "total_enrollment", year: 2022, op: "is_null" }] }],
  ["a change sort", { sort: { metric: "total_enrollment", change: { from: 2022, to: 2023, kind: "absolute" } } }],
];

describe("metric_query for every plan, on every face", () => {
  let t: TestApp;
  let url: URL;
  const clients: Client[] = [];
  const mcp = {} as Record<PlanKey, Client>;

  beforeAll(async () => {
    t = await createTestApp();
    for (const [name, values] of [
      ["Plans A", [100, 200]],
      ["Plans B", [300, 120]],
    ] as const) {
      const district = await insertDistrict(t.db, { name, state: "VT" });
      await insertDistrictStats(t.db, district, 2022, { total_enrollment: values[0] });
      await insertDistrictStats(t.db, district, 2023, { total_enrollment: values[1] });
      const school = await insertSchool(t.db, { name: `${name} School`, state: "VT", district_id: district });
      await insertSchoolStats(t.db, school, 2022, { total_enrollment: values[0] });
      await insertSchoolStats(t.db, school, 2023, { total_enrollment: values[1] });
    }
    const port = (t.server.address() as { port: number }).port;
    url = new URL(`http://127.0.0.1:${port}/mcp`);
    for (const plan of PLANS) {
      const client = new Client({ name: "edmarket-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${t.keys[plan]}` } } }),
      );
      clients.push(client);
      mcp[plan] = client;
    }
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t?.close();
  });

  /** [name, metric_values] of every VT record, as each face answers. */
  const rest = async (plan: PlanKey, path: "districts" | "schools", query: unknown) => {
    const res = await t.get(`/api/v1/${path}?state=VT&limit=1&metric_query=${mq(query)}`, plan);
    expect({ status: res.status, body: res.status === 200 ? "page" : res.body }).toEqual({ status: 200, body: "page" });
    const all = await t.get(`/api/v1/${path}?state=VT&metric_query=${mq(query)}`, plan).expect(200);
    return all.body.data.map((r: { name: string; metric_values: unknown }) => [r.name, r.metric_values]);
  };
  const restPost = async (plan: PlanKey, query: unknown) => {
    const res = await t.post("/api/v1/districts", { state: "VT", metric_query: JSON.stringify(query) }, plan);
    expect({ status: res.status, body: res.status === 200 ? "page" : res.body }).toEqual({ status: 200, body: "page" });
    return res.body.data.map((r: { name: string; metric_values: unknown }) => [r.name, r.metric_values]);
  };
  const graphql = async (plan: PlanKey, field: "districts" | "schools", query: unknown) => {
    const res = await t.graphql(
      `query($q: String) { ${field}(filter: { state: "VT" }, metricQuery: $q) { data { name metricValues } } }`,
      { q: JSON.stringify(query) },
      plan,
    );
    expect(res.errors).toBeUndefined();
    return res.data[field].data.map((r: { name: string; metricValues: unknown }) => [r.name, r.metricValues]);
  };
  const tool = async (plan: PlanKey, entity: "districts" | "schools", query: unknown) => {
    const result = (await mcp[plan].callTool({
      name: "metric_query",
      arguments: { entity, metric_query: query, filter: { state: "VT" } },
    })) as { isError?: boolean; content: { text: string }[] };
    const body = JSON.parse(result.content[0].text);
    expect({ isError: result.isError ?? false, body: result.isError ? body : "page" }).toEqual({ isError: false, body: "page" });
    return body.data.map((r: { name: string; metric_values: unknown }) => [r.name, r.metric_values]);
  };

  it.each(LATEST_ONLY)("%s: 200 with the same values for every plan (REST GET and POST, GraphQL, MCP)", async (_name, query) => {
    const paid = await rest("enterprise", "districts", query);
    expect(paid.length).toBeGreaterThan(0);
    for (const plan of PLANS) {
      expect(await rest(plan, "districts", query)).toEqual(paid);
      expect(await restPost(plan, query)).toEqual(paid);
      expect(await graphql(plan, "districts", query)).toEqual(paid);
      expect(await tool(plan, "districts", query)).toEqual(paid);
      const schools = await rest(plan, "schools", query);
      expect(schools.length).toBeGreaterThan(0);
      expect(await graphql(plan, "schools", query)).toEqual(schools);
      expect(await tool(plan, "schools", query)).toEqual(schools);
    }
  });

  it.each(GATED)("%s: 200 for every plan on every face", async (_name, query) => {
    for (const plan of PLANS) {
      const districts = await rest(plan, "districts", query);
      expect(await restPost(plan, query)).toEqual(districts);
      expect(await graphql(plan, "districts", query)).toEqual(districts);
      expect(await tool(plan, "districts", query)).toEqual(districts);
      const schools = await rest(plan, "schools", query);
      expect(await graphql(plan, "schools", query)).toEqual(schools);
      expect(await tool(plan, "schools", query)).toEqual(schools);
    }
  });

  it("a free plan's query narrowed by history gating says so: notices history_gated on REST, GraphQL and MCP (issue 20 point 12)", async () => {
    // District A had 100 students in 2022, but 2022 is not its latest year: gated for a free organization.
    const query = { filters: [{ metric: "total_enrollment", year: 2022, op: "eq", value: 100 }] };
    const notice = {
      code: "history_gated",
      message: expect.stringMatching(
        /school year 2022: on the free plan a district you do not follow shows only each metric's latest year.*Follow the district/,
      ),
    };
    const free = await t.get(`/api/v1/districts?state=VT&metric_query=${mq(query)}`, "free").expect(200);
    expect(free.body).toEqual({ data: [], pagination: expect.objectContaining({ total: 0 }), notices: [notice] });
    expect(Object.keys(free.body)).toEqual(["data", "pagination", "notices"]);
    const post = await t.post("/api/v1/districts", { state: "VT", metric_query: JSON.stringify(query) }, "free").expect(200);
    expect(post.body).toEqual(free.body);
    const schools = await t.get(`/api/v1/schools?state=VT&metric_query=${mq(query)}`, "free").expect(200);
    expect(schools.body.notices).toEqual([{ code: "history_gated", message: expect.stringMatching(/a school you do not follow/) }]);
    const gql = await t.graphql(
      `query($q: String) { districts(filter: { state: "VT" }, metricQuery: $q) { data { name } } }`,
      { q: JSON.stringify(query) },
      "free",
    );
    expect(gql).toEqual({ data: { districts: { data: [] } }, extensions: { notices: [notice] } });
    const tool = (await mcp.free.callTool({
      name: "metric_query",
      arguments: { entity: "districts", metric_query: query, filter: { state: "VT" } },
    })) as { content: { text: string }[] };
    expect(JSON.parse(tool.content[0].text).notices).toEqual([{ code: "history_gated", message: expect.any(String) }]);

    // A change window names both endpoints.
    const change = { select: [{ metric: "total_enrollment", change: { from: 2019, to: 2023, kind: "percent" } }] };
    const changed = await t.get(`/api/v1/districts?state=VT&metric_query=${mq(change)}`, "free").expect(200);
    expect(changed.body.notices[0].message).toMatch(/school years 2019, 2023:/);

    // Not for paid plans, nor for a query whose every point is the latest year (nothing is withheld).
    const paid = await t.get(`/api/v1/districts?state=VT&metric_query=${mq(query)}`, "pro").expect(200);
    expect(paid.body.data.map((d: { name: string }) => d.name)).toEqual(["Plans A"]);
    expect(paid.body.notices).toBeUndefined();
    const paidGql = await t.graphql(
      `query($q: String) { districts(filter: { state: "VT" }, metricQuery: $q) { data { name } } }`,
      { q: JSON.stringify(query) },
      "pro",
    );
    expect((paidGql as { extensions?: unknown }).extensions).toBeUndefined();
    const latest = { filters: [{ metric: "total_enrollment", op: "eq", value: 100 }] };
    const freeLatest = await t.get(`/api/v1/districts?state=VT&metric_query=${mq(latest)}`, "free").expect(200);
    expect(freeLatest.body).toEqual({ data: [], pagination: expect.objectContaining({ total: 0 }) });
    expect((await t.get(`/api/v1/districts?state=VT`, "free").expect(200)).body.notices).toBeUndefined();
  });

  it("the free plan reads latest values as paid plans do, and hidden years as null", async () => {
    const query = {
      select: [
        { metric: "total_enrollment", as: "latest" },
        { metric: "total_enrollment", year: 2022, as: "e2022" },
      ],
      sort: { metric: "total_enrollment", direction: "desc" },
    };
    expect(await rest("free", "districts", query)).toEqual([
      ["Plans A", { latest: 200, e2022: null }],
      ["Plans B", { latest: 120, e2022: null }],
    ]);
    expect(await rest("pro", "districts", query)).toEqual([
      ["Plans A", { latest: 200, e2022: 100 }],
      ["Plans B", { latest: 120, e2022: 300 }],
    ]);
  });
});
