import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { measureStatements } from "../support/statements";

const DIRECTORY_FIELDS = [
  "id",
  "fed_id",
  "name",
  "state",
  "website_url",
  "student_count",
  "school_count",
  "grade_span",
  "locale_type",
  "physical_address",
  "physical_city",
  "physical_state",
  "physical_zip",
  "mailing_address",
  "mailing_city",
  "mailing_state",
  "mailing_zip",
  "phone",
  "county",
  "state_district_id",
  "district_type",
  "teachers_fte",
  "fed_data_year",
  "latitude",
  "longitude",
  "status",
  "data_source",
  "last_updated_at",
  "created_at",
  "_access",
  "annual_statistics",
];

describe("districts slice: REST and GraphQL over the same operation", () => {
  let t: TestApp;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    for (let i = 0; i < 12; i += 1) {
      const id = await insertDistrict(t.db, {
        name: `${i % 2 ? "Lincoln" : "Omaha"} Public Schools ${String(i).padStart(2, "0")}`,
        state: i < 8 ? "NE" : "IA",
        student_count: 100 * (i + 1),
        school_count: i + 1,
        phone: "(402)555-0100",
        physical_city: "Lincoln",
        fed_data_year: 2023,
      });
      ids.push(id);
      await insertDistrictStats(t.db, id, 2021, { total_enrollment: 90 * (i + 1), teachers_fte: 10 });
      await insertDistrictStats(t.db, id, 2022, { total_enrollment: 95 * (i + 1), total_revenue: 1_000_000, finance_fiscal_year: 2022 });
      await insertDistrictStats(t.db, id, 2023, { total_enrollment: 100 * (i + 1), operational_school_count: i + 1 });
    }
  });
  afterAll(() => t.close());

  it("lists districts in the spec's shape with pagination", async () => {
    const res = await t.get("/api/v1/districts?state=NE&limit=5").expect(200);
    expect(res.headers["x-request-id"]).toBeTruthy();
    expect(res.body.pagination).toEqual({ total: 8, limit: 5, offset: 0, has_more: true });
    expect(res.body.data).toHaveLength(5);
    const record = res.body.data[0];
    for (const field of DIRECTORY_FIELDS) expect(record).toHaveProperty(field);
    expect(record.state).toBe("NE");
    expect(record._access).toEqual({ is_unlocked: false, is_unlocking: false, unlocked_at: null, credits_spent: 0, unlock_cost: 6 });
    expect(record.ai_summary).toBeNull();
    const stats = record.annual_statistics;
    expect(stats.latest.school_year_start).toBe(2023);
    expect(stats.latest_finance.school_year_start).toBe(2022);
    expect(stats.trend.map((e: { school_year_start: number }) => e.school_year_start)).toEqual([2021, 2022, 2023]);
    expect(stats.history_gated).toBe(false);
    expect(stats.history_years_available).toBe(3);
    expect(Object.keys(stats.latest_breakdowns).sort()).toEqual([
      "enrollment_grade",
      "enrollment_race_sex",
      "idea_disability",
      "staff_category",
    ]);
    expect(typeof stats.caveat).toBe("string");
    expect(record.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("orders by name by default and pages stably; order_by and order_ascending work", async () => {
    const all = (await t.get("/api/v1/districts?limit=200").expect(200)).body.data.map((d: { name: string }) => d.name);
    expect(all).toEqual([...all].sort());
    const desc = await t.get("/api/v1/districts?order_by=student_count&order_ascending=false&limit=3").expect(200);
    expect(desc.body.data.map((d: { student_count: number }) => d.student_count)).toEqual([1200, 1100, 1000]);
    const page2 = await t.get("/api/v1/districts?limit=5&offset=10").expect(200);
    expect(page2.body.pagination).toEqual({ total: 12, limit: 5, offset: 10, has_more: false });
    expect(page2.body.data).toHaveLength(2);
    const beyond = await t.get("/api/v1/districts?limit=5&offset=50").expect(200);
    expect(beyond.body).toEqual({ data: [], pagination: { total: 12, limit: 5, offset: 50, has_more: false } });
  });

  it("filters by search, ids, min_enrollment and max_enrollment", async () => {
    const search = await t.get("/api/v1/districts?search=lincoln").expect(200);
    expect(search.body.data.every((d: { name: string }) => d.name.startsWith("Lincoln"))).toBe(true);
    expect(search.body.pagination.total).toBe(6);
    const byIds = await t.get(`/api/v1/districts?ids=${ids[0]},${ids[3]}`).expect(200);
    expect(byIds.body.data.map((d: { id: string }) => d.id).sort()).toEqual([ids[0], ids[3]].sort());
    const range = await t.get("/api/v1/districts?min_enrollment=300&max_enrollment=500").expect(200);
    expect(range.body.data.map((d: { student_count: number }) => d.student_count).sort((a: number, b: number) => a - b)).toEqual([
      300, 400, 500,
    ]);
    expect(range.body.pagination.total).toBe(3);
  });

  it("filters by city: exact names, any case, any of them (a filter added by one defineList declaration)", async () => {
    const total = async (query: string) => (await t.get(`/api/v1/districts?${query}`).expect(200)).body.pagination.total;
    expect(await total("city=LINCOLN,Kearney")).toBe(12);
    expect(await total("city=Omaha")).toBe(0);
    expect(await total("city=lincoln&state=IA")).toBe(4);
    expect((await t.post("/api/v1/districts", { city: "Lincoln" }).expect(200)).body.pagination.total).toBe(12);
    expect((await t.get("/api/v1/districts?city=,").expect(400)).body.message).toBe("city must be a non-empty comma-separated list");
    expect((await t.get(`/api/v1/districts?city=${"x".repeat(201)}`).expect(400)).body.message).toBe("city must be at most 200 characters");
    const graphql = await t.graphql(`{ districts(filter: { city: ["lincoln"], state: "NE" }) { pagination { total } } }`);
    expect(graphql.data.districts.pagination.total).toBe(8);
  });

  it("the POST twin takes the same parameters as strings", async () => {
    const get = await t.get("/api/v1/districts?state=NE&min_enrollment=300&limit=3").expect(200);
    const post = await t.post("/api/v1/districts", { state: "NE", min_enrollment: "300", limit: "3" }).expect(200);
    expect(post.body).toEqual(get.body);
    const bad = await t.post("/api/v1/districts", { limit: 3 }).expect(400);
    expect(bad.body).toMatchObject({ error: "bad_request", statusCode: 400, message: expect.stringContaining("limit") });
  });

  it("GET /districts/{id} returns { data } and 404 for an unknown id", async () => {
    const one = await t.get(`/api/v1/districts/${ids[2]}`).expect(200);
    expect(one.body.data.id).toBe(ids[2]);
    expect(one.body.data.annual_statistics.trend).toHaveLength(3);
    const missing = await t.get("/api/v1/districts/00000000-0000-4000-8000-000000000000").expect(404);
    expect(missing.body).toMatchObject({ error: "not_found", statusCode: 404 });
    const malformed = await t.get("/api/v1/districts/not-a-uuid").expect(400);
    expect(malformed.body.message).toContain("id");
  });

  it("rejects invalid parameters with 400s naming them", async () => {
    const cases: [string, string][] = [
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["limit=abc", "limit"],
      ["offset=-1", "offset"],
      ["min_enrollment=ten", "min_enrollment"],
      ["min_enrollment=500&max_enrollment=100", "min_enrollment"],
      ["order_by=colour", "order_by"],
      ["order_ascending=yes", "order_ascending"],
      ["ids=abc", "ids"],
      ["ids=,", "ids"],
      ["state=Nebraska", "state"],
      ["stat=NE", "stat"],
      ["state=NE&state=IA", "state"],
    ];
    for (const [query, name] of cases) {
      const res = await t.get(`/api/v1/districts?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
      expect(res.body.message).toContain(name);
    }
  });

  it("free plan: trends hold only the latest year and say history_gated", async () => {
    const res = await t.get(`/api/v1/districts/${ids[0]}`, "free").expect(200);
    const stats = res.body.data.annual_statistics;
    expect(stats.history_gated).toBe(true);
    expect(stats.trend.map((e: { school_year_start: number }) => e.school_year_start)).toEqual([2023]);
    expect(stats.history_years_available).toBe(3);
  });

  it("runs the same number of SQL statements for limit 1 and limit 200", async () => {
    const count = async (limit: number) => {
      await t.get(`/api/v1/districts?limit=${limit}`).expect(200); // warm the key
      const { statements, result: res } = await measureStatements(t.db, () => t.get(`/api/v1/districts?limit=${limit}`).expect(200));
      expect(res.body.data.length).toBe(Math.min(limit, 12));
      return statements;
    };
    const one = await count(1);
    const many = await count(200);
    expect(one).toBe(many);
    // API key lookup + the list statement (every block in it)
    expect(many).toBe(2);
    // Past the end the total comes from the same statement.
    await t.get("/api/v1/districts?limit=5&offset=50").expect(200);
    const { statements: beyondStatements, result: beyond } = await measureStatements(t.db, () =>
      t.get("/api/v1/districts?state=NE&limit=5&offset=50").expect(200),
    );
    expect(beyond.body.pagination).toEqual({ total: 8, limit: 5, offset: 50, has_more: false });
    expect(beyondStatements).toBe(2);
  });

  it("serves the same data through POST /graphql with a nested query", async () => {
    const rest = await t.get("/api/v1/districts?state=NE&limit=2").expect(200);
    const gql = await t.graphql(
      `query($state: String) { districts(filter: { state: $state }, limit: 2) {
          data { id fedId name studentCount annualStatistics { latest { schoolYearStart totalEnrollment } trend { schoolYearStart } } }
          pagination { total hasMore } } }`,
      { state: "NE" },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.districts.pagination).toEqual({ total: 8, hasMore: true });
    expect(gql.data.districts.data.map((d: { id: string }) => d.id)).toEqual(rest.body.data.map((d: { id: string }) => d.id));
    expect(gql.data.districts.data[0].annualStatistics.latest.totalEnrollment).toBe(
      rest.body.data[0].annual_statistics.latest.total_enrollment,
    );
  });
});
