/**
 * GET /districts/{id}/events, GET /schools/{id}/events, GET /metrics, and the metric query end to end
 * through GET and POST /districts.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertAssessmentSummary, insertEvent } from "../support/block-factories";
import { insert, insertDistrict, insertDistrictStats } from "../support/factories";

const EVENT_KEYS = ["created_at", "description", "entity_id", "entity_type", "event_date", "event_type", "id", "source_url", "title"];

describe("timeline events", () => {
  let t: TestApp;
  let districtId: string;
  let schoolId: string;
  const expected: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    districtId = await insertDistrict(t.db, { name: "Events District" });
    schoolId = await insert(t.db, "schools", {
      fed_id: "770000000001",
      name: "Events School",
      state: "NE",
      data_source: "test",
      district_id: districtId,
    });
    // Inserted out of order: the same day twice (created_at breaks the tie), then an earlier day.
    const later = await insertEvent(t.db, "district", districtId, "2026-03-10", {
      title: "B",
      created_at: new Date("2026-03-11T10:00:00.000Z"),
    });
    const sameDayFirst = await insertEvent(t.db, "district", districtId, "2026-03-10", {
      title: "A",
      created_at: new Date("2026-03-11T09:00:00.000Z"),
    });
    const earliest = await insertEvent(t.db, "district", districtId, "2025-11-02", {
      event_type: "rfp_posted",
      description: null,
      source_url: null,
    });
    expected.push(earliest, sameDayFirst, later);
    await insertEvent(t.db, "school", schoolId, "2026-01-05", { title: "School event", event_type: "press_release" });
    await insertEvent(t.db, "district", await insertDistrict(t.db), "2026-01-01", { title: "another district's" });
  });
  afterAll(() => t.close());

  it("GET /districts/{id}/events: { data } in chronological order, no pagination", async () => {
    const res = await t.get(`/api/v1/districts/${districtId}/events`).expect(200);
    expect(Object.keys(res.body)).toEqual(["data"]);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual(expected);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(EVENT_KEYS);
    expect(res.body.data[0]).toMatchObject({
      entity_id: districtId,
      entity_type: "district",
      event_date: "2025-11-02",
      event_type: "rfp_posted",
      description: null,
      source_url: null,
    });
    expect(res.body.data[1]).toMatchObject({ title: "A", created_at: "2026-03-11T09:00:00.000Z" });
  });

  it("GET /schools/{id}/events lists only the school's events", async () => {
    const res = await t.get(`/api/v1/schools/${schoolId}/events`, "free").expect(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({ title: "School event", entity_type: "school", entity_id: schoolId, event_type: "press_release" }),
    ]);
  });

  it("an entity without events answers an empty list; an unknown one 404; a malformed id 400", async () => {
    const quiet = await insertDistrict(t.db);
    expect((await t.get(`/api/v1/districts/${quiet}/events`).expect(200)).body).toEqual({ data: [] });
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await t.get(`/api/v1/districts/${missing}/events`).expect(404)).body).toMatchObject({ error: "not_found", statusCode: 404 });
    await t.get(`/api/v1/schools/${missing}/events`).expect(404);
    // A district id is not a school.
    await t.get(`/api/v1/schools/${districtId}/events`).expect(404);
    expect((await t.get("/api/v1/districts/nope/events").expect(400)).body.message).toContain("id");
    expect((await t.get(`/api/v1/districts/${districtId}/events?limit=5`).expect(400)).body.message).toContain("limit");
  });

  it("GraphQL districtEvents is null for an unknown district", async () => {
    const res = await t.graphql(`query($id: UUID!) { districtEvents(id: $id) { id } schoolEvents(id: $id) { id } }`, {
      id: "00000000-0000-4000-8000-000000000000",
    });
    expect(res).toEqual({ data: { districtEvents: null, schoolEvents: null } });
  });
});

describe("GET /metrics and the metric query through REST", () => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    // enrollment 2019 -> 2023: A grows, B shrinks, C shrinks more, D lacks 2019.
    const figures: [string, number | null, number, number][] = [
      ["A", 1000, 1200, 10],
      ["B", 1000, 900, 25],
      ["C", 2000, 1500, 30],
      ["D", null, 800, 22],
    ];
    for (const [name, y2019, y2023, poverty] of figures) {
      const id = await insertDistrict(t.db, { name: `Metric ${name}`, state: "NE" });
      ids[name] = id;
      if (y2019 !== null) await insertDistrictStats(t.db, id, 2019, { total_enrollment: y2019 });
      await insertDistrictStats(t.db, id, 2023, { total_enrollment: y2023, school_age_poverty_pct: poverty });
    }
    await insertAssessmentSummary(t.db, { district_id: ids.A }, 2023);
  });
  afterAll(() => t.close());

  it("lists each entity type's metrics with type, source and years present", async () => {
    const res = await t.get("/api/v1/metrics?entity_type=district", "free").expect(200);
    expect(Object.keys(res.body)).toEqual(["data"]);
    const byName = new Map(res.body.data.map((m: { metric: string }) => [m.metric, m]));
    expect(byName.get("total_enrollment")).toEqual({
      metric: "total_enrollment",
      type: "integer",
      source: "annual_statistics",
      years: [2019, 2023],
    });
    expect(byName.get("school_age_poverty_pct")).toEqual({
      metric: "school_age_poverty_pct",
      type: "number",
      source: "annual_statistics",
      years: [2023],
    });
    expect(byName.get("ela_proficiency_pct")).toEqual({
      metric: "ela_proficiency_pct",
      type: "number",
      source: "assessment",
      years: [2023],
    });
    expect(byName.get("science_proficiency_pct")).toMatchObject({ years: [] });
    expect(byName.has("free_lunch_eligible")).toBe(false);

    const schools = await t.get("/api/v1/metrics?entity_type=school").expect(200);
    const names = schools.body.data.map((m: { metric: string }) => m.metric);
    expect(names).toEqual(expect.arrayContaining(["total_enrollment", "free_or_reduced_price_lunch_pct", "math_proficiency_pct"]));
    expect(names).not.toContain("total_revenue");
  });

  it("entity_type missing, invalid, or an unknown parameter: 400", async () => {
    for (const query of ["", "?entity_type=county", "?entity_type=district&year=2023"]) {
      const res = await t.get(`/api/v1/metrics${query}`);
      expect([query, res.status, res.body.error]).toEqual([query, 400, "bad_request"]);
    }
    expect((await t.get("/api/v1/metrics?entity_type=county")).body.message).toContain("entity_type");
    expect((await t.get("/api/v1/metrics")).body.message).toContain("entity_type");
  });

  const metricQuery = (q: unknown) => encodeURIComponent(JSON.stringify(q));
  const change = { from: 2019, to: 2023, kind: "percent" };

  it("select puts metric_values on each record; filters and sort apply in SQL", async () => {
    const q = {
      select: [
        { metric: "total_enrollment", year: "latest", as: "enrollment" },
        { metric: "total_enrollment", change, as: "enrollment_change" },
      ],
      filters: [{ metric: "school_age_poverty_pct", op: "gte", value: 20 }],
      sort: { metric: "total_enrollment", change, direction: "asc" },
    };
    const res = await t.get(`/api/v1/districts?metric_query=${metricQuery(q)}`).expect(200);
    // A (poverty 10) is filtered out; C (-25%) before B (-10%); D (no 2019 value) sorts last.
    expect(res.body.data.map((d: { name: string }) => d.name)).toEqual(["Metric C", "Metric B", "Metric D"]);
    expect(res.body.data.map((d: { metric_values: unknown }) => d.metric_values)).toEqual([
      { enrollment: 1500, enrollment_change: -25 },
      { enrollment: 900, enrollment_change: -10 },
      { enrollment: 800, enrollment_change: null },
    ]);
    expect(res.body.pagination.total).toBe(3);
    // Plain filters combine with the metric filters.
    const both = await t.get(`/api/v1/districts?state=NE&ids=${ids.B},${ids.D}&metric_query=${metricQuery(q)}`).expect(200);
    expect(both.body.data.map((d: { name: string }) => d.name)).toEqual(["Metric B", "Metric D"]);
    // Without metric_query the key is present and null.
    const plain = await t.get(`/api/v1/districts?ids=${ids.A}`).expect(200);
    expect(plain.body.data[0].metric_values).toBeNull();
  });

  it("the POST twin takes the same metric_query", async () => {
    const q = {
      select: [{ metric: "total_enrollment", as: "e" }],
      filters: [{ metric: "total_enrollment", change: { ...change, kind: "absolute" }, op: "lt", value: 0 }],
    };
    const get = await t.get(`/api/v1/districts?metric_query=${metricQuery(q)}`).expect(200);
    const post = await t.post("/api/v1/districts", { metric_query: JSON.stringify(q) }).expect(200);
    expect(post.body).toEqual(get.body);
    expect(post.body.data.map((d: { name: string }) => d.name)).toEqual(["Metric B", "Metric C"]);
  });

  it("every plan, free included, gets the same latest values on GET and POST (issue 20 point 3: free answered 500)", async () => {
    const q = {
      select: [{ metric: "total_enrollment", as: "e" }],
      filters: [{ metric: "total_enrollment", op: "gt", value: 0 }],
      sort: { metric: "total_enrollment", direction: "desc" },
    };
    const values = (body: { data: { name: string; metric_values: unknown }[] }) => body.data.map((d) => [d.name, d.metric_values]);
    const expected = values((await t.get(`/api/v1/districts?metric_query=${metricQuery(q)}`).expect(200)).body);
    expect(expected.length).toBeGreaterThan(1);
    for (const plan of ["free", "pro", "internal"] as const) {
      expect(values((await t.get(`/api/v1/districts?metric_query=${metricQuery(q)}`, plan).expect(200)).body)).toEqual(expected);
      expect(values((await t.post("/api/v1/districts", { metric_query: JSON.stringify(q) }, plan).expect(200)).body)).toEqual(expected);
    }
  });

  it("invalid JSON, an unknown metric, or over 16,000 characters: 400 naming metric_query", async () => {
    const tooLong = JSON.stringify({ select: [{ metric: "total_enrollment", as: "e" }] }).padEnd(16_001, " ");
    const cases = ["{not json", JSON.stringify({ select: [{ metric: "shoe_size", as: "s" }] }), tooLong];
    for (const raw of cases) {
      const res = await t.get(`/api/v1/districts?metric_query=${encodeURIComponent(raw)}`);
      expect([raw.slice(0, 40), res.status]).toEqual([raw.slice(0, 40), 400]);
      expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400, message: expect.stringContaining("metric_query") });
      const post = await t.post("/api/v1/districts", { metric_query: raw });
      expect([raw.slice(0, 40), post.status]).toEqual([raw.slice(0, 40), 400]);
    }
    const unknown = await t.get(`/api/v1/districts?metric_query=${encodeURIComponent(cases[1])}`);
    expect(unknown.body.message).toContain("shoe_size");
  });

  it("a 16,000-character metric_query fits in a GET", async () => {
    // Many select items, padded with JSON whitespace to exactly 16,000 characters.
    const select = Array.from({ length: 20 }, (_, i) => ({
      metric: "total_enrollment",
      year: 2023,
      as: `enrollment_${String(i).padStart(2, "0")}`,
    }));
    const raw = JSON.stringify({ select }).replace(/}$/, "").padEnd(15_999, " ") + "}";
    expect(raw).toHaveLength(16_000);
    const url = `/api/v1/districts?limit=1&order_by=name&metric_query=${encodeURIComponent(raw)}`;
    expect(url.length).toBeGreaterThan(16_000);
    const res = await t.get(url).expect(200);
    expect(res.body.data[0].name).toBe("Metric A");
    expect(res.body.data[0].metric_values).toMatchObject({ enrollment_00: 1200, enrollment_19: 1200 });
  });
});
