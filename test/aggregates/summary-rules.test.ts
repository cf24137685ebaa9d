/**
 * The rules of GET /districts/summary and /schools/summary beyond the arithmetic: history gating exactly as
 * the metric query's, every bad parameter a 400 naming it (never a 5xx), the schools' group keys (a school's
 * district type is its district's), and the endpoints in the OpenAPI document and the MCP tools.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, type TestApp } from "../support/app";
import { insertFollow } from "../support/block-factories";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { insertList, insertSchool, insertSchoolStats } from "../support/school-factories";
import { countStatements } from "../support/statements";

const mq = (query: unknown) => encodeURIComponent(JSON.stringify(query));
type Values = Record<string, number | null>;

describe("summaries: gating, bad parameters, schools, documents", () => {
  let t: TestApp;
  const districts: string[] = [];
  const schools: { id: string; district: string | null; state: string; enrollment: Record<number, number> }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    // Three districts of their own ("Gatefix"): 2023 is each one's latest year of total_enrollment.
    for (const [n, type, values] of [
      [1, "Regular", [100, 110]],
      [2, "Regular", [200, 190]],
      [3, "Charter", [40, 50]],
    ] as const) {
      const id = await insertDistrict(t.db, { name: `Gatefix ${n}`, state: "WY", district_type: type, county: "Albany" });
      await insertDistrictStats(t.db, id, 2022, { total_enrollment: values[0] });
      await insertDistrictStats(t.db, id, 2023, { total_enrollment: values[1] });
      districts.push(id);
    }
    // Schools of those districts in two states, and one without a district.
    for (const [district, state, e2022, e2023] of [
      [districts[0], "WY", 30, 33],
      [districts[0], "WY", 70, 77],
      [districts[1], "WY", 190, 180],
      [districts[2], "MT", 40, 50],
      [null, "MT", 12, 14],
    ] as const) {
      const id = await insertSchool(t.db, { name: `Gatefix school ${schools.length}`, state, district_id: district, county: "Albany" });
      await insertSchoolStats(t.db, id, 2022, { total_enrollment: e2022 });
      await insertSchoolStats(t.db, id, 2023, { total_enrollment: e2023 });
      schools.push({ id, district, state, enrollment: { 2022: e2022, 2023: e2023 } });
    }
  });
  afterAll(() => t.close());

  const districtSummary = (query: string, plan: "pro" | "free" = "pro") => t.get(`/api/v1/districts/summary?search=Gatefix&${query}`, plan);

  /** What the metric query shows `plan` of each district's value of `year`, summed: the summary must agree. */
  async function metricQuerySum(plan: "pro" | "free", year: number): Promise<{ sum: number | null; count: number }> {
    const select = mq({ select: [{ metric: "total_enrollment", year, as: "v" }] });
    const res = await t.get(`/api/v1/districts?search=Gatefix&metric_query=${select}`, plan).expect(200);
    const values = res.body.data.map((d: { metric_values: Values }) => d.metric_values.v).filter((v: number | null) => v !== null);
    return { sum: values.length ? values.reduce((s: number, v: number) => s + v, 0) : null, count: values.length };
  }

  describe("history gating (docs/metric-query.md, History gating)", () => {
    const aggregates = "aggregates=sum:total_enrollment,count:total_enrollment";
    const summed = async (plan: "pro" | "free", year: string) => {
      const res = await districtSummary(`${aggregates}&year=${year}`, plan).expect(200);
      const values = res.body.data[0].values as Values;
      return { sum: values["sum:total_enrollment"], count: values["count:total_enrollment"] };
    };

    it("says so on REST: history_gated beside data, only for a year other than latest on the free plan", async () => {
      const codes = async (year: string, plan: "pro" | "free") =>
        ((await districtSummary(`${aggregates}&year=${year}`, plan).expect(200)).body.notices ?? []).map((n: { code: string }) => n.code);
      expect(await codes("2022", "free")).toEqual(["history_gated"]);
      expect(await codes("latest", "free")).toEqual([]);
      expect(await codes("2022", "pro")).toEqual([]);
      const { body } = await districtSummary(`${aggregates}&year=2022`, "free").expect(200);
      expect(body.notices[0].message).toMatch(/^the summary reads school year 2022: on the free plan a district you do not follow/);
    });

    it("gives a free plan of a year beyond an unfollowed record's latest what the metric query gives it: nothing", async () => {
      expect(await summed("free", "2022")).toEqual({ sum: null, count: 0 });
      expect(await summed("free", "2022")).toEqual(await metricQuerySum("free", 2022));
      // The latest year is every record's latest: open to every plan.
      expect(await summed("free", "2023")).toEqual({ sum: 350, count: 3 });
      expect(await summed("free", "latest")).toEqual({ sum: 350, count: 3 });
      expect(await summed("pro", "2022")).toEqual({ sum: 340, count: 3 });
      expect(await summed("pro", "2022")).toEqual(await metricQuerySum("pro", 2022));
    });

    it("opens a followed record's history to the free plan, as the metric query does", async () => {
      await insertFollow(t.db, t.orgs.free, "district", districts[1]);
      expect(await summed("free", "2022")).toEqual({ sum: 200, count: 1 });
      expect(await summed("free", "2022")).toEqual(await metricQuerySum("free", 2022));
    });

    it("notes the gate on GraphQL (history_gated), only when a year other than latest is read on the free plan", async () => {
      const run = (year: string, plan: "free" | "pro") =>
        t.http
          .post("/graphql")
          .set("Authorization", `Bearer ${t.keys[plan]}`)
          .send({
            query: `query($y: String) { districtAggregates(filter: { search: "Gatefix" }, aggregates: ["sum:total_enrollment"], year: $y) { data { count } } }`,
            variables: { y: year },
          })
          .expect(200);
      const codes = (res: { body: { extensions?: { notices?: { code: string }[] } } }) =>
        (res.body.extensions?.notices ?? []).map((n) => n.code);
      expect(codes(await run("2022", "free"))).toEqual(["history_gated"]);
      expect(codes(await run("latest", "free"))).toEqual([]);
      expect(codes(await run("2022", "pro"))).toEqual([]);
    });
  });

  describe("bad parameters: a 400 naming the parameter, never a 5xx", () => {
    const tooMany = ["count", "sum", "avg", "min", "max", "median"]
      .flatMap((s) => ["total_enrollment", "teachers_fte", "total_revenue", "total_staff_fte"].map((m) => `${s}:${m}`))
      .slice(0, 21);
    const cases: [query: string, names: RegExp][] = [
      ["group_by=planet", /group_by/],
      ["group_by=state,state", /group_by "state" is given twice/],
      [`group_by=${"state,".repeat(1000)}county`, /group_by has 1001 keys; at most 4/],
      ["group_by=STATE", /group_by/],
      ["group_by=stat%C3%A9", /group_by/],
      ["aggregates=sum:total_enrollment,sum:total_enrollment", /aggregates "sum:total_enrollment" is given twice/],
      [
        "aggregates=mode:total_enrollment",
        /aggregates "mode:total_enrollment": stat "mode" is not one of count, sum, avg, min, max, median/,
      ],
      ["aggregates=sum", /aggregates "sum" must be stat:metric/],
      ["aggregates=sum:enrollment", /aggregates "sum:enrollment": "enrollment" is not a district metric/],
      [
        `aggregates=${encodeURIComponent('sum:total_enrollment") FROM districts; DROP TABLE districts; --')}`,
        /aggregates .* is not a district metric/,
      ],
      [`aggregates=${encodeURIComponent("sum:total_enrollment::text")}`, /aggregates .* is not a district metric/],
      [`aggregates=${encodeURIComponent("sum:tötal_enrollment")}`, /aggregates "sum:tötal_enrollment"/],
      [`aggregates=${encodeURIComponent("sum:total_enrollment\u200b")}`, /aggregates/],
      [`aggregates=${encodeURIComponent("avg:free_lunch_eligible")}`, /"free_lunch_eligible" is not a district metric/],
      [`aggregates=${tooMany.join(",")}`, /aggregates has 21 items; at most 20 are allowed/],
      [`aggregates=${"sum:total_enrollment,".repeat(500)}max:total_enrollment`, /aggregates has 501 items; at most 20/],
      ["year=20x3", /year "20x3" must be "latest" or a four-digit school year/],
      ["year=99999", /year "99999"/],
      ["year=-2023", /year "-2023"/],
      ["year=0999", /year "0999"/],
      [`year=${encodeURIComponent("２０２３")}`, /year "２０２３"/],
      ["year=Latest", /year "Latest"/],
      [`metric_query=${mq({ select: [{ metric: "total_enrollment" }] })}`, /metric_query: a summary takes only "filters"/],
      [`metric_query=${mq({ sort: { metric: "total_enrollment" } })}`, /metric_query: a summary takes only "filters"/],
      ["metric_query=%7Bnot%20json", /metric_query: is not valid JSON/],
      [`metric_query=${mq({ filters: [{ metric: "x'; --", op: "is_null" }] })}`, /metric_query: filters\[0\]\.metric/],
      ["state=Wyoming", /state/],
      ["min_enrollment=ten", /min_enrollment/],
      ["limit=5", /unknown parameter limit/],
    ];

    it.each(cases)("GET /districts/summary?%s", async (query, names) => {
      const res = await districtSummary(query);
      expect([res.status, res.body.error, res.body.statusCode]).toEqual([400, "bad_request", 400]);
      expect(res.body.message).toMatch(names);
    });

    it("refuses the same on GraphQL, and on the schools' summary", async () => {
      const gql = await t.graphql(
        `{ districtAggregates(aggregates: ["sum:total_enrollment", "sum:total_enrollment"]) { data { count } } }`,
      );
      expect(gql.errors?.[0]).toMatchObject({
        message: 'aggregates "sum:total_enrollment" is given twice',
        extensions: { code: "BAD_USER_INPUT" },
      });
      const year = await t.graphql(`{ schoolAggregates(year: "1e3") { data { count } } }`);
      expect(year.errors?.[0].extensions.code).toBe("BAD_USER_INPUT");
      const school = await t.get("/api/v1/schools/summary?aggregates=sum:total_revenue").expect(400);
      expect(school.body.message).toMatch(/"total_revenue" is not a school metric; GET \/metrics\?entity_type=school/);
    });
  });

  it("runs the list filters' checks in the same statement: another organization's list is not found, even with nothing to group", async () => {
    const list = await insertList(t.db, t.orgs.enterprise, "district", [districts[0]]);
    const mine = await insertList(t.db, t.orgs.pro, "district", [districts[0], districts[2]]);
    const foreign = await districtSummary(`list_id=${list}&group_by=state`).expect(404);
    expect(foreign.body).toMatchObject({ error: "not_found", message: `list_id: list ${list} not found` });
    const own = await districtSummary(`list_id=${mine}&group_by=district_type&aggregates=max:total_enrollment`).expect(200);
    expect(own.body.data).toEqual([
      { group: { district_type: "Charter" }, count: 1, values: { "max:total_enrollment": 50 } },
      { group: { district_type: "Regular" }, count: 1, values: { "max:total_enrollment": 110 } },
    ]);
  });

  it("counts each stat:metric and the metric_query's filters in the query cost (docs/aggregates.md, Cost)", async () => {
    const cost = async (query: string) => Number((await districtSummary(query).expect(200)).headers["x-query-cost"]);
    const base = await cost("group_by=state");
    expect(await cost("group_by=state&aggregates=sum:total_enrollment")).toBe(base + 10_000);
    expect(await cost("group_by=state&aggregates=sum:total_enrollment,max:teachers_fte")).toBe(base + 20_000);
    const filter = mq({ filters: [{ metric: "total_enrollment", op: "gt", value: 0 }] });
    expect(await cost(`group_by=state&metric_query=${filter}`)).toBe(base + 10_000);
  });

  describe("schools", () => {
    const schoolSummary = (query: string) => t.get(`/api/v1/schools/summary?search=Gatefix&${query}`);

    it("groups by the school's district's type (null without a district) and state, sorted by the keys", async () => {
      const res = await schoolSummary(
        "group_by=district_type,state&aggregates=sum:total_enrollment,median:total_enrollment,max:total_enrollment&year=2022",
      ).expect(200);
      const typeOf = (district: string | null) => (district === null ? null : district === districts[2] ? "Charter" : "Regular");
      const group = (type: string | null, state: string) => schools.filter((s) => typeOf(s.district) === type && s.state === state);
      const stats = (members: typeof schools) => {
        const v = members.map((s) => s.enrollment[2022]).sort((a, b) => a - b);
        const median = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return {
          "sum:total_enrollment": v.reduce((s, x) => s + x, 0),
          "median:total_enrollment": median,
          "max:total_enrollment": v.at(-1),
        };
      };
      expect(res.body.data).toEqual([
        { group: { district_type: "Charter", state: "MT" }, count: 1, values: stats(group("Charter", "MT")) },
        { group: { district_type: "Regular", state: "WY" }, count: 3, values: stats(group("Regular", "WY")) },
        { group: { district_type: null, state: "MT" }, count: 1, values: stats(group(null, "MT")) },
      ]);
      expect(res.body.data[1].values).toEqual({ "sum:total_enrollment": 290, "median:total_enrollment": 70, "max:total_enrollment": 190 });
    });

    it("applies the school list's filters (district_id) in one statement", async () => {
      const q = `district_id=${districts[0]}&aggregates=sum:total_enrollment,avg:total_enrollment&group_by=county`;
      const res = await schoolSummary(q).expect(200);
      expect(res.body.data).toEqual([
        { group: { county: "Albany" }, count: 2, values: { "sum:total_enrollment": 110, "avg:total_enrollment": 55 } },
      ]);
      expect(await countStatements(t.db, () => schoolSummary(q).expect(200))).toBe(2); // the API key lookup and the summary
    });
  });

  describe("documents", () => {
    it("lists both endpoints in the OpenAPI document with the list's filters and the summary's parameters", async () => {
      const doc = (await t.http.get("/api/v1/openapi.json").expect(200)).body;
      for (const [path, filter] of [
        ["/districts/summary", "min_enrollment"],
        ["/schools/summary", "district_id"],
      ]) {
        const names = doc.paths[path].get.parameters.map((p: { name: string }) => p.name);
        expect(names).toEqual(expect.arrayContaining(["group_by", "aggregates", "year", "metric_query", "state", filter]));
        expect(names).not.toContain("limit");
      }
    });

    it("offers the MCP tool summarize, answering as REST does", async () => {
      const port = (t.server.address() as { port: number }).port;
      const client = new Client({ name: "aggregates-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${t.keys.pro}` } },
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain("summarize");
        const args = {
          entityType: "district",
          filter: { search: "Gatefix" },
          groupBy: ["district_type"],
          aggregates: ["sum:total_enrollment"],
          year: "2022",
        };
        const result = (await client.callTool({ name: "summarize", arguments: args })) as {
          isError?: boolean;
          content: { text: string }[];
        };
        expect(result.isError).toBeUndefined();
        const rest = await districtSummary("group_by=district_type&aggregates=sum:total_enrollment&year=2022").expect(200);
        expect(JSON.parse(result.content[0].text)).toEqual(rest.body);
      } finally {
        await client.close();
      }
    });
  });
});
