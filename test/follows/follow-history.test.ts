/**
 * A follow lights up the entity's history for a free organization (spec Follow table, contract section 4),
 * end to end through POST /follows and DELETE /follows/{id}: annual_statistics.trend, breakdowns.*.trend,
 * special_education_finance.trend and metric_query years, on the detail, the list and GraphQL; for the
 * followed entity only, for the following organization only, and until its slot is released after the unfollow.
 */
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { insertSpecialEducationFinance } from "../support/block-factories";
import { createTestApp, type TestApp } from "../support/app";
import { insert, insertDistrict, insertDistrictStats } from "../support/factories";
import { insertSchool, insertSchoolBreakdown, insertSchoolStats } from "../support/school-factories";

type Body = Record<string, any>;
const mq = (query: unknown) => encodeURIComponent(JSON.stringify(query));
const years = (trend: { school_year_start: number }[]) => trend.map((e) => e.school_year_start);
const fiscalYears = (trend: { fiscal_year: number }[]) => trend.map((e) => e.fiscal_year);

describe("a follow lights up history for a free organization", () => {
  let t: TestApp;
  let district: string;
  let neighbour: string; // never followed
  let school: string;
  let project: string;
  let otherKey: string; // a second free organization

  const as = (key: string) => (path: string) => t.http.get(path).set("Authorization", `Bearer ${key}`).expect(200);
  const free = (path: string) => as(t.keys.free)(path);

  /** What the caller sees of the district's history, from the detail and from the list statement. */
  async function districtHistory(get: (path: string) => Promise<{ body: Body }>) {
    const detail = (await get(`/api/v1/districts/${district}`)).body.data;
    const listed = (await get(`/api/v1/districts?ids=${district}`)).body.data[0];
    for (const record of [detail, listed]) {
      expect(record.annual_statistics).toEqual(listed.annual_statistics);
      expect(record.special_education_finance).toEqual(listed.special_education_finance);
    }
    const select = { select: [{ metric: "total_enrollment", year: 2021, as: "e2021" }] };
    const metric = (await get(`/api/v1/districts?ids=${district},${neighbour}&order_by=name&metric_query=${mq(select)}`)).body.data;
    return {
      trend: years(detail.annual_statistics.trend),
      gated: detail.annual_statistics.history_gated,
      breakdown: years(detail.annual_statistics.breakdowns.enrollment_grade.trend),
      breakdownGated: detail.annual_statistics.breakdowns.enrollment_grade.history_gated,
      finance: fiscalYears(detail.special_education_finance.trend),
      financeGated: detail.special_education_finance.history_gated,
      metric: metric.map((d: Body) => d.metric_values.e2021),
    };
  }

  async function schoolHistory(get: (path: string) => Promise<{ body: Body }>) {
    const detail = (await get(`/api/v1/schools/${school}`)).body.data;
    const select = { select: [{ metric: "total_enrollment", year: 2022, as: "e2022" }] };
    const listed = (await get(`/api/v1/schools?ids=${school}&metric_query=${mq(select)}`)).body.data[0];
    return {
      trend: years(detail.annual_statistics.trend),
      gated: detail.annual_statistics.history_gated,
      breakdown: years(detail.annual_statistics.breakdowns.enrollment_grade.trend),
      metric: listed.metric_values.e2022,
    };
  }

  const GATED = {
    trend: [2023],
    gated: true,
    breakdown: [2023],
    breakdownGated: true,
    finance: [2023],
    financeGated: true,
    metric: [null, null],
  };
  const OPEN = {
    trend: [2021, 2022, 2023],
    gated: false,
    breakdown: [2022, 2023],
    breakdownGated: false,
    finance: [2022, 2023],
    financeGated: false,
    metric: [100, null],
  };

  beforeAll(async () => {
    t = await createTestApp();
    district = await insertDistrict(t.db, { name: "History A", state: "WY" });
    neighbour = await insertDistrict(t.db, { name: "History B", state: "WY" });
    for (const id of [district, neighbour]) {
      for (const [year, enrollment] of [
        [2021, 100],
        [2022, 110],
        [2023, 120],
      ]) {
        await insertDistrictStats(t.db, id, year, { total_enrollment: enrollment });
      }
      for (const year of [2022, 2023]) {
        await insert(t.db, "district_stat_breakdowns", {
          district_id: id,
          school_year_start: year,
          breakdown_key: "enrollment_grade",
          category: "all",
          subgroup: "total",
          value: year,
          source_version: `v${year}`,
        });
      }
      for (const fy of [2022, 2023]) await insertSpecialEducationFinance(t.db, id, fy);
    }
    school = await insertSchool(t.db, { name: "History School", state: "WY", district_id: district });
    await insertSchoolStats(t.db, school, 2022, { total_enrollment: 40 });
    await insertSchoolStats(t.db, school, 2023, { total_enrollment: 44 });
    for (const year of [2022, 2023]) await insertSchoolBreakdown(t.db, school, year, "enrollment_grade", "all", "total", year);
    project = (await t.post("/api/v1/projects", { name: "History" }, "free").expect(201)).body.data.id;
    const { organizationId } = await createOrganization(t.db, { name: "Other free", plan: "free" });
    otherKey = (await createApiKey(t.db, organizationId)).apiKey;
  });
  afterAll(() => t.close());

  it("before any follow: only the latest year, history_gated, hidden metric years null", async () => {
    expect(await districtHistory(free)).toEqual(GATED);
    expect(await schoolHistory(free)).toEqual({ trend: [2023], gated: true, breakdown: [2023], metric: null });
    // A paid plan sees everything (the data is there).
    expect(await districtHistory((path) => t.get(path, "pro").expect(200))).toEqual({ ...OPEN, metric: [100, 100] });
  });

  it("POST /follows opens the followed entity's whole history to that organization only", async () => {
    const followed = await t
      .post("/api/v1/follows", { project_id: project, entity_type: "district", entity_id: district }, "free")
      .expect(201);
    await t.post("/api/v1/follows", { project_id: project, entity_type: "school", entity_id: school }, "free").expect(201);
    expect(await districtHistory(free)).toEqual(OPEN); // the neighbour stays gated: metric [100, null]
    expect(await schoolHistory(free)).toEqual({ trend: [2022, 2023], gated: false, breakdown: [2022, 2023], metric: 40 });
    // Another free organization's view is unchanged.
    expect(await districtHistory(as(otherKey))).toEqual(GATED);
    expect(await schoolHistory(as(otherKey))).toEqual({ trend: [2023], gated: true, breakdown: [2023], metric: null });
    // The GraphQL face reads the same follow.
    const gql = await t.graphql(
      `query($id: UUID!) { district(id: $id) { annualStatistics { historyGated trend { schoolYearStart } } specialEducationFinance { historyGated } } }`,
      { id: district },
      "free",
    );
    expect(gql.data.district).toEqual({
      annualStatistics: { historyGated: false, trend: [{ schoolYearStart: 2021 }, { schoolYearStart: 2022 }, { schoolYearStart: 2023 }] },
      specialEducationFinance: { historyGated: false },
    });
    expect(followed.body.data.entity_id).toBe(district);
  });

  it("DELETE /follows/{id} gates the history again once the slot is released (FOLLOW_SLOT_MIN_DAYS after the follow)", async () => {
    const follows = (await free(`/api/v1/projects/${project}/follows`)).body.data;
    for (const f of follows) await t.http.delete(`/api/v1/follows/${f.id}`).set("Authorization", `Bearer ${t.keys.free}`).expect(200);
    // The slot is still held (released 30 days after the follow began): the history with it.
    expect(await districtHistory(free)).toEqual(OPEN);
    // A month later.
    await t.db.query(`UPDATE follows SET slot_released_at = slot_released_at - interval '31 days' WHERE project_id = $1`, [project]);
    expect(await districtHistory(free)).toEqual(GATED);
    expect(await schoolHistory(free)).toEqual({ trend: [2023], gated: true, breakdown: [2023], metric: null });
  });
});
