/**
 * GET /districts reads a page's blocks in the list statement (json-rows) while GET /districts/{id} and
 * GraphQL field resolvers read them through the loaders: both must serve the same records, for every
 * block shape (several years of statistics and breakdowns, finance, assessments, intelligence with
 * filings), under history gating (free plan, followed or not) and without it. And the list's statements
 * do not grow with the blocks: the list statement, plus one per intelligence list when the page has an
 * unlocked record.
 */
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
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
import { insert, insertDistrict, insertDistrictStats } from "../support/factories";
import { countStatements } from "../support/statements";

const BREAKDOWN_KEYS = ["enrollment_grade", "enrollment_race_sex", "staff_category", "idea_disability"];

describe("GET /districts page blocks", () => {
  let t: TestApp;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await insertStateRow(t.db, "NE", 2023, "03", "ela");
    await insertStateRow(t.db, "NE", 2023, "04", "math");
    for (let i = 0; i < 6; i += 1) {
      const id = await insertDistrict(t.db, { name: `Blocks District ${i}`, state: "NE", status: i % 2 ? "pending" : "completed" });
      ids.push(id);
      for (const year of [2021, 2022, 2023]) {
        // Finance only in 2021 and 2022: latest_finance is not the latest entry.
        await insertDistrictStats(t.db, id, year, {
          total_enrollment: 900 + year + i,
          student_teacher_ratio: 14.25 + i,
          total_revenue: year < 2023 ? 5e6 + i : null,
          finance_fiscal_year: year < 2023 ? year + 1 : null,
          source_urls: { directory: "https://example.test/ccd" },
          loaded_at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 60 + i)),
        });
        for (const key of BREAKDOWN_KEYS.slice(0, 2 + (i % 3))) {
          for (const [category, subgroup] of [
            ["all", "total"],
            ["grade_01", "female"],
            ["grade_01", "male"],
          ]) {
            await insert(t.db, "district_stat_breakdowns", {
              district_id: id,
              school_year_start: year,
              breakdown_key: key,
              category,
              subgroup,
              value: year % 2 ? null : 10.5 + i,
              value_status: year % 2 ? "suppressed" : null,
              source_version: `v${year}`,
              source_url: `https://example.test/${key}`,
            });
          }
        }
      }
      if (i < 4) {
        await insertSpecialEducationFinance(t.db, id, 2022);
        await insertSpecialEducationFinance(t.db, id, 2023, { loaded_at: new Date("2026-02-03T04:05:06.007Z") });
        await insertAssessmentSummary(t.db, { district_id: id }, 2022);
        await insertAssessmentSummary(t.db, { district_id: id }, 2023);
        await insertGradeRow(t.db, { district_id: id }, 2022, "03", "ela");
        await insertGradeRow(t.db, { district_id: id }, 2023, "03", "ela", 40 + i);
        await insertGradeRow(t.db, { district_id: id }, 2023, "04", "math", 30 + i);
      }
      const intelligence = await insertIntelligence(t.db, { district_id: id }, `b${i}`);
      for (const plan of ["free", "enterprise"] as const) {
        if (i % 2 === 0) {
          await insertUnlock(t.db, t.orgs[plan], "district", id);
          await insertBidFiling(t.db, t.orgs[plan], intelligence.openBidId, "save", "fit", "Worth a look");
        } else if (i === 1) {
          await insertUnlock(t.db, t.orgs[plan], "district", id, "unlock_pending");
        }
      }
      if (i === 2 || i === 3) await insertFollow(t.db, t.orgs.free, "district", id);
    }
  });
  afterAll(() => t.close());

  it.each<PlanKey>(["free", "enterprise"])("serves the same records as GET /districts/{id} (%s plan)", async (plan) => {
    const list = (await t.get("/api/v1/districts?limit=200", plan).expect(200)).body.data;
    expect(list.map((d: { id: string }) => d.id)).toEqual(ids);
    for (const record of list) {
      const detail = (await t.get(`/api/v1/districts/${record.id}`, plan).expect(200)).body.data;
      expect(record).toEqual(detail);
    }
    const gated = list.map((d: { annual_statistics: { history_gated: boolean } }) => d.annual_statistics.history_gated);
    expect(gated).toEqual(plan === "free" ? [true, true, false, false, true, true] : [false, false, false, false, false, false]);
  });

  it("shapes the blocks from the list statement like the field resolvers do", async () => {
    const [first] = (await t.get("/api/v1/districts?limit=1", "enterprise").expect(200)).body.data;
    const annual = first.annual_statistics;
    expect(annual.trend.map((e: { school_year_start: number }) => e.school_year_start)).toEqual([2021, 2022, 2023]);
    expect(annual.latest.school_year_start).toBe(2023);
    expect(annual.latest_finance.school_year_start).toBe(2022);
    expect(annual.latest.loaded_at).toBe("2026-01-02T03:04:05.060Z");
    expect(annual.latest.source_urls).toEqual({ directory: "https://example.test/ccd" });
    expect(annual.latest_breakdowns.enrollment_grade).toEqual({
      school_year_start: 2023,
      source_version: "v2023",
      source_url: "https://example.test/enrollment_grade",
      rows: [
        { category: "all", subgroup: "total", value: null, value_status: "suppressed" },
        { category: "grade_01", subgroup: "female", value: null, value_status: "suppressed" },
        { category: "grade_01", subgroup: "male", value: null, value_status: "suppressed" },
      ],
    });
    expect(annual.latest_breakdowns.staff_category).toBeNull();
    expect(annual.breakdowns.enrollment_race_sex.history_years_available).toBe(3);
    expect(first.special_education_finance.latest).toMatchObject({ fiscal_year: 2023, loaded_at: "2026-02-03T04:05:06.007Z" });
    expect(first.assessment_summary.school_year).toBe(2023);
    expect(first.assessment_grade_rows.map((r: { grade: string }) => r.grade)).toEqual(["03", "04"]);
    expect(first.assessment_state_rows.map((r: { grade: string }) => r.grade)).toEqual(["03", "04"]);
    expect(first._access).toEqual({
      is_unlocked: true,
      is_unlocking: false,
      unlocked_at: "2026-01-02T03:04:05.678Z",
      credits_spent: 6,
      unlock_cost: 6,
    });
    expect(first.bids.map((b: { filing: unknown }) => b.filing !== null)).toEqual([true, false]);
  });

  it("GraphQL lists the same blocks (field resolvers answer with what the list read)", async () => {
    const res = await t.graphql(
      `{ districts(limit: 200) { data { id annualStatistics { latest { loadedAt } breakdowns { enrollmentGrade { trend { schoolYearStart } } } }
           specialEducationFinance { trend { fiscalYear } } assessmentStateRows { grade } painPoints { id } } } }`,
      {},
      "free",
    );
    expect(res.errors).toBeUndefined();
    const rest = (await t.get("/api/v1/districts?limit=200", "free").expect(200)).body.data;
    res.data.districts.data.forEach((d: any, i: number) => {
      expect(d.annualStatistics.latest.loadedAt).toBe(rest[i].annual_statistics.latest.loaded_at);
      expect(d.annualStatistics.breakdowns.enrollmentGrade.trend).toHaveLength(
        rest[i].annual_statistics.breakdowns.enrollment_grade.trend.length,
      );
      expect(d.specialEducationFinance.trend.map((e: any) => e.fiscalYear)).toEqual(
        rest[i].special_education_finance.trend.map((e: any) => e.fiscal_year),
      );
      expect(d.assessmentStateRows).toHaveLength(rest[i].assessment_state_rows.length);
      expect(d.painPoints?.length ?? null).toBe(rest[i].pain_points?.length ?? null);
    });
  });

  const statements = async (path: string) => {
    await t.get(path).expect(200); // warm-up outside the measurement
    return countStatements(t.db, () => t.get(path).expect(200));
  };

  it("reads every block, the intelligence lists included, in the list statement", async () => {
    // API key lookup + the list statement, whatever the blocks, with or without an unlocked record.
    expect(await statements("/api/v1/districts?limit=1&offset=1")).toBe(2);
    expect(await statements("/api/v1/districts?limit=200")).toBe(2);
  });
});
