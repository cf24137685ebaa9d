/**
 * History gating of the metric query (issue 9, contract section 4): for a free organization and an entity
 * it does not follow, projections, filters and sorts see only the entity's latest year per metric; other
 * years and change windows read as null. Followed entities and paid plans see every year.
 */
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
import { insertFollow } from "../support/block-factories";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { insertSchool, insertSchoolStats } from "../support/school-factories";

const mq = (query: unknown) => encodeURIComponent(JSON.stringify(query));

describe("metric_query history gating", () => {
  let t: TestApp;
  let gated: string;
  let other: string;
  let followedSchool: string;

  beforeAll(async () => {
    t = await createTestApp();
    gated = await insertDistrict(t.db, { name: "Gated A", state: "WY" });
    other = await insertDistrict(t.db, { name: "Gated B", state: "WY" });
    for (const [id, values] of [
      [gated, [90, 100, 110]],
      [other, [400, 500, 10]],
    ] as const) {
      await insertDistrictStats(t.db, id, 2021, { total_enrollment: values[0] });
      // Poverty is published for 2022 only: 2022 is that metric's latest year.
      await insertDistrictStats(t.db, id, 2022, { total_enrollment: values[1], school_age_poverty_pct: 12.5 });
      await insertDistrictStats(t.db, id, 2023, { total_enrollment: values[2] });
    }
    followedSchool = await insertSchool(t.db, { name: "Gated School", state: "WY", district_id: gated });
    await insertSchoolStats(t.db, followedSchool, 2022, { total_enrollment: 40 });
    await insertSchoolStats(t.db, followedSchool, 2023, { total_enrollment: 44 });
  });
  afterAll(() => t.close());

  const select = {
    select: [
      { metric: "total_enrollment", year: 2022, as: "e2022" },
      { metric: "total_enrollment", year: 2023, as: "e2023" },
      { metric: "total_enrollment", as: "latest" },
      { metric: "total_enrollment", change: { from: 2022, to: 2023, kind: "absolute" }, as: "change" },
      { metric: "school_age_poverty_pct", year: 2022, as: "poverty" },
    ],
  };
  const values = async (plan: PlanKey) => {
    const res = await t.get(`/api/v1/districts?state=WY&order_by=name&metric_query=${mq(select)}`, plan);
    expect(res.status).toBe(200);
    return res.body.data.map((d: { name: string; metric_values: unknown }) => [d.name, d.metric_values]);
  };

  it("shows a free organization only each metric's latest year of an entity it does not follow", async () => {
    expect(await values("free")).toEqual([
      ["Gated A", { e2022: null, e2023: 110, latest: 110, change: null, poverty: 12.5 }],
      ["Gated B", { e2022: null, e2023: 10, latest: 10, change: null, poverty: 12.5 }],
    ]);
    const school = await t.get(
      `/api/v1/schools?state=WY&metric_query=${mq({ select: [{ metric: "total_enrollment", year: 2022, as: "e" }] })}`,
      "free",
    );
    expect(school.body.data[0].metric_values).toEqual({ e: null });
    const page = await t.get(`/api/v1/districts?state=WY&limit=1`, "free");
    expect(page.body.data[0].annual_statistics.history_gated).toBe(true);
  });

  it("shows paid plans every year", async () => {
    expect(await values("pro")).toEqual([
      ["Gated A", { e2022: 100, e2023: 110, latest: 110, change: 10, poverty: 12.5 }],
      ["Gated B", { e2022: 500, e2023: 10, latest: 10, change: -490, poverty: 12.5 }],
    ]);
  });

  it("gives filters and sorts no oracle on hidden years", async () => {
    const filter = (value: number) => mq({ filters: [{ metric: "total_enrollment", year: 2022, op: "eq", value }] });
    const free = await t.get(`/api/v1/districts?state=WY&metric_query=${filter(100)}`, "free");
    expect(free.body.pagination.total).toBe(0);
    const isNull = mq({ filters: [{ metric: "total_enrollment", year: 2022, op: "is_null" }] });
    expect((await t.get(`/api/v1/districts?state=WY&metric_query=${isNull}`, "free")).body.pagination.total).toBe(2);
    const change = mq({
      filters: [{ metric: "total_enrollment", change: { from: 2022, to: 2023, kind: "absolute" }, op: "lt", value: 0 }],
    });
    expect((await t.get(`/api/v1/districts?state=WY&metric_query=${change}`, "free")).body.pagination.total).toBe(0);
    expect((await t.get(`/api/v1/districts?state=WY&metric_query=${change}`, "pro")).body.pagination.total).toBe(1);
    const paid = await t.get(`/api/v1/districts?state=WY&metric_query=${filter(100)}`, "pro");
    expect(paid.body.data.map((d: { name: string }) => d.name)).toEqual(["Gated A"]);

    // Sorting by a hidden year: every value is null, so the order is the id tie-break, whatever the values.
    const sort = (direction: string) => mq({ sort: { metric: "total_enrollment", year: 2022, direction } });
    const ids = [gated, other].sort();
    for (const direction of ["asc", "desc"]) {
      const res = await t.get(`/api/v1/districts?state=WY&metric_query=${sort(direction)}`, "free");
      expect(res.body.data.map((d: { id: string }) => d.id)).toEqual(ids);
    }
    const paidSort = await t.get(`/api/v1/districts?state=WY&metric_query=${sort("desc")}`, "pro");
    expect(paidSort.body.data.map((d: { id: string }) => d.id)).toEqual([other, gated]);
  });

  it("opens an entity's history to a free organization that follows it, on both faces", async () => {
    await insertFollow(t.db, t.orgs.free, "district", gated);
    await insertFollow(t.db, t.orgs.free, "school", followedSchool);
    expect(await values("free")).toEqual([
      ["Gated A", { e2022: 100, e2023: 110, latest: 110, change: 10, poverty: 12.5 }],
      ["Gated B", { e2022: null, e2023: 10, latest: 10, change: null, poverty: 12.5 }],
    ]);
    const gql = await t.graphql(
      `query($q: String) { districts(filter: { state: "WY" }, metricQuery: $q) { data { name metricValues } } }`,
      { q: JSON.stringify(select) },
      "free",
    );
    expect(gql.data.districts.data.map((d: { metricValues: { e2022: number | null } }) => d.metricValues.e2022)).toEqual([100, null]);
    const school = await t.get(
      `/api/v1/schools?state=WY&metric_query=${mq({ select: [{ metric: "total_enrollment", year: 2022, as: "e" }] })}`,
      "free",
    );
    expect(school.body.data[0].metric_values).toEqual({ e: 40 });
  });
});
