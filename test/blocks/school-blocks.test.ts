/**
 * School nested blocks: assessments (state rows of the school's own state), the parent district's
 * special-education finance (free-plan gating follows the school), and unlock-gated intelligence.
 */
import { createTestApp, type TestApp } from "../support/app";
import {
  insertAssessmentSummary,
  insertBidFiling,
  insertFollow,
  insertGradeRow,
  insertIntelligence,
  insertSpecialEducationFinance,
  insertStateRow,
  insertUnlock,
} from "../support/block-factories";
import { insert, insertDistrict } from "../support/factories";

let schoolCounter = 0;
const insertSchool = (t: TestApp, values: Record<string, unknown>) =>
  insert(t.db, "schools", {
    fed_id: `55${String((schoolCounter += 1)).padStart(10, "0")}`,
    name: `Block School ${schoolCounter}`,
    state: "NE",
    data_source: "test",
    ...values,
  });

describe("school blocks", () => {
  let t: TestApp;
  let districtId: string;
  let school: string;
  let orphan: string;
  let intel: Awaited<ReturnType<typeof insertIntelligence>>;

  beforeAll(async () => {
    t = await createTestApp();
    districtId = await insertDistrict(t.db, { name: "Parent District", state: "IA" });
    school = await insertSchool(t, { district_id: districtId, state: "IA" });
    orphan = await insertSchool(t, { district_id: null });
    for (const fy of [2021, 2022, 2023]) await insertSpecialEducationFinance(t.db, districtId, fy);

    await insertAssessmentSummary(t.db, { school_id: school }, 2024, { state: "IA" });
    await insertGradeRow(t.db, { school_id: school }, 2024, "05", "science", 61, "IA");
    await insertGradeRow(t.db, { district_id: districtId }, 2024, "05", "science", 10, "IA"); // the district's, not the school's
    await insertStateRow(t.db, "IA", 2024, "05", "science");
    await insertStateRow(t.db, "NE", 2024, "05", "science");

    intel = await insertIntelligence(t.db, { school_id: school }, "S");
    await insertIntelligence(t.db, { district_id: districtId }, "parent");
    await insertUnlock(t.db, t.orgs.enterprise, "school", school);
    await insertUnlock(t.db, t.orgs.pro, "district", districtId); // a district unlock does not unlock its schools
    await insertBidFiling(t.db, t.orgs.enterprise, intel.lapsedBidId, "set_aside");
  });
  afterAll(() => t.close());

  const detail = async (id: string, plan: "free" | "pro" | "enterprise" = "enterprise") =>
    (await t.get(`/api/v1/schools/${id}`, plan).expect(200)).body.data;

  it("assessments: the school's own latest summary and rows, with its state's rows", async () => {
    const record = await detail(school);
    expect(record.assessment_summary).toMatchObject({ school_year: 2024, state: "IA" });
    expect(record.assessment_grade_rows).toEqual([
      expect.objectContaining({ subject: "science", grade: "05", proficiency_pct: 61, state: "IA" }),
    ]);
    expect(record.assessment_state_rows).toEqual([expect.objectContaining({ state: "IA", school_year: 2024, subject: "science" })]);
    const none = await detail(orphan);
    expect([none.assessment_summary, none.assessment_grade_rows, none.assessment_state_rows]).toEqual([null, [], []]);
  });

  it("parent_district_special_education_finance names the district and gates history on the free plan", async () => {
    const paid = (await detail(school)).parent_district_special_education_finance;
    expect(paid).toMatchObject({
      district_id: districtId,
      district_name: "Parent District",
      history_gated: false,
      history_years_available: 3,
    });
    expect(paid.trend.map((e: { fiscal_year: number }) => e.fiscal_year)).toEqual([2021, 2022, 2023]);
    expect(paid.latest.fiscal_year).toBe(2023);

    const free = (await detail(school, "free")).parent_district_special_education_finance;
    expect(free).toMatchObject({ history_gated: true, history_years_available: 3, latest: { fiscal_year: 2023 } });
    expect(free.trend.map((e: { fiscal_year: number }) => e.fiscal_year)).toEqual([2023]);

    const followed = await insertSchool(t, { district_id: districtId });
    await insertFollow(t.db, t.orgs.free, "school", followed);
    const open = (await detail(followed, "free")).parent_district_special_education_finance;
    expect(open.history_gated).toBe(false);
    expect(open.trend).toHaveLength(3);
  });

  it("a school without a parent district has a null parent block", async () => {
    expect((await detail(orphan)).parent_district_special_education_finance).toBeNull();
  });

  it("intelligence: the school's own lists once its organization unlocked the school", async () => {
    const record = await detail(school);
    expect(record.pain_points.map((p: { id: string }) => p.id)).toEqual([intel.painPointId]);
    expect(record.vendors.map((v: { id: string }) => v.id)).toEqual([intel.vendorId]);
    expect(record.funding.map((f: { id: string }) => f.id)).toEqual([intel.fundingId]);
    expect(record.contracts.map((c: { id: string }) => c.id)).toEqual([intel.contractId]);
    expect(
      record.bids.map((b: { id: string; status: string; filing: { action: string } | null }) => [b.id, b.status, b.filing?.action ?? null]),
    ).toEqual([
      [intel.openBidId, "open", null],
      [intel.lapsedBidId, "closed", "set_aside"],
    ]);
    // Locked for the others: the pro organization unlocked only the parent district.
    for (const plan of ["pro", "free"] as const) {
      const locked = await detail(school, plan);
      expect([plan, locked.pain_points, locked.vendors, locked.funding, locked.contracts, locked.bids]).toEqual([
        plan,
        null,
        null,
        null,
        null,
        null,
      ]);
    }
  });
});
