/**
 * GET /districts and GET /schools serve full records: exactly the interface spec's keys (plus
 * metric_values and the contract's five intelligence lists), every nested block in the spec's shape,
 * and a statement count that does not grow with the page (limit 1 and limit 200 alike).
 */
import { createTestApp, type TestApp } from "../support/app";
import {
  insertAssessmentSummary,
  insertBidFiling,
  insertGradeRow,
  insertIntelligence,
  insertSpecialEducationFinance,
  insertStateRow,
  insertUnlock,
} from "../support/block-factories";
import { insert, insertDistrict, insertDistrictStats } from "../support/factories";
import { measureStatements } from "../support/statements";

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

// Field lists copied from the interface spec (and contract section 4 for the intelligence lists).
const DISTRICT_FIELDS = words(`id, fed_id, name, state, website_url, student_count, school_count, grade_span, locale_type,
  total_revenue, revenue_per_student, total_expenditures, expenditures_per_student, instructional_expenditures,
  instructional_expenditures_percent, support_services_expenditures, student_teacher_ratio, total_staff,
  meeting_minutes_pdfs, physical_address, physical_city, physical_state, physical_zip, mailing_address, mailing_city,
  mailing_state, mailing_zip, phone, county, state_district_id, district_type, teachers_fte, fed_data_year, latitude,
  longitude, strategic_priorities, ai_summary, summary_generated_at, status, website_mapped_at, content_fetched_at,
  content_extracted_at, last_analysis_job_id, data_source, crawled_at, error_message, retry_count, notes,
  last_updated_at, created_at, _access, assessment_summary, assessment_grade_rows, assessment_state_rows,
  special_education_finance, annual_statistics`);
const SCHOOL_FIELDS = words(`id, district_id, fed_id, name, state, website_url, student_count, grade_levels, state_school_id,
  school_type, locale_type, fed_data_year, teachers_fte, student_teacher_ratio, physical_address, physical_city,
  physical_state, physical_zip, mailing_address, mailing_city, mailing_state, mailing_zip, phone, county, latitude,
  longitude, ai_summary, summary_generated_at, source, source_url, status, website_mapped_at, content_fetched_at,
  content_extracted_at, last_analysis_job_id, crawled_at, error_message, retry_count, notes, last_updated_at,
  created_at, _access, assessment_summary, assessment_grade_rows, assessment_state_rows, annual_statistics,
  parent_district_special_education_finance`);
const EXTRA_FIELDS = ["metric_values", "pain_points", "vendors", "funding", "contracts", "bids"];

const ACCESS = words("is_unlocked, is_unlocking, unlocked_at, credits_spent, unlock_cost");
const DISTRICT_ENTRY = words(`school_year_start, total_enrollment, operational_school_count, total_population,
  school_age_population, school_age_children_in_poverty, finance_fiscal_year, enrollment_status, loaded_at,
  total_staff_fte, teachers_fte, school_counselors_fte, school_psychologists_fte, student_support_staff_fte,
  instructional_aides_fte, district_administrators_fte, school_administrators_fte, total_revenue, local_revenue,
  state_revenue, federal_revenue, property_tax_revenue, title_i_revenue, state_special_education_revenue,
  total_expenditures, current_expenditures, instruction_expenditures, support_services_expenditures,
  student_support_expenditures, instructional_staff_support_expenditures, general_administration_expenditures,
  school_administration_expenditures, operations_maintenance_expenditures, student_transportation_expenditures,
  capital_outlay_expenditures, interest_on_debt_expenditures, total_salaries, instructional_salaries,
  special_education_teacher_salaries, employee_benefits, long_term_debt_outstanding, utilities_energy_expenditures,
  technology_supplies_services_expenditures, technology_equipment_expenditures, student_teacher_ratio,
  counselors_per_1000_students, psychologists_per_1000_students, school_age_poverty_pct, revenue_per_student,
  current_expenditures_per_student, federal_revenue_share_pct, fed_directory_version, fed_membership_version,
  fed_staff_version, saipe_version, f33_version, source_urls`);
const SCHOOL_ENTRY = words(`school_year_start, total_enrollment, free_lunch_eligible, reduced_price_lunch_eligible,
  free_or_reduced_price_lunch_eligible, teachers_fte, student_teacher_ratio, free_or_reduced_price_lunch_pct,
  enrollment_status, teachers_status, lunch_status, operational_status, school_type, school_level, low_grade,
  high_grade, charter_status, magnet_status, title_i_status, nslp_status, virtual_status, fed_directory_version,
  fed_membership_version, fed_staff_version, fed_characteristics_version, fed_lunch_version, loaded_at, source_urls`);
const DISTRICT_ANNUAL = words(
  "latest, latest_finance, trend, history_gated, history_years_available, latest_breakdowns, breakdowns, caveat",
);
const SCHOOL_ANNUAL = DISTRICT_ANNUAL.filter((k) => k !== "latest_finance");
const DISTRICT_BREAKDOWN_KEYS = words("enrollment_grade, enrollment_race_sex, staff_category, idea_disability");
const SCHOOL_BREAKDOWN_KEYS = words("enrollment_grade, enrollment_race_sex");
const BREAKDOWN_YEAR = words("school_year_start, source_version, source_url, rows");
const BREAKDOWN_ROW = words("category, subgroup, value, value_status");
const BREAKDOWN_HISTORY = words("trend, history_gated, history_years_available");
// data_source: the demo label at the top of each block that can hold demo rows (issue 25 point 3).
const SPED = words("data_source, latest, trend, history_gated, history_years_available, caveat");
const SPED_ENTRY = words(`data_source, fiscal_year, school_year_start, total_enrollment, idea_child_count, idea_child_count_status,
  idea_part_b_revenue_flag, f33_version, child_count_version, source_f33_url, source_child_count_url, loaded_at,
  idea_part_b_revenue, total_federal_revenue, total_revenue, total_expenditures, special_ed_current_expenditures,
  special_ed_instructional_expenditures, special_ed_student_support_expenditures,
  special_ed_instructional_staff_support_expenditures, special_ed_transportation_expenditures,
  idea_revenue_per_sped_student, special_ed_current_expenditures_per_sped_student, sped_enrollment_pct,
  idea_revenue_share_of_total_revenue_pct`);
const ASSESSMENT_SUMMARY = words(`data_source, source_id, state, school_year, data_quality, subjects_available, metrics, grade_summary,
  source_manifest_uri, canonical_artifact_uri, coverage, comparability_warning`);
const ASSESSMENT_METRIC = words("proficiency_pct, tested_count, participation_rate, state_proficiency_pct, vs_state_pp, basis");
const COVERAGE = words(`source_id, source_name, publication_status, published_at, canonical_artifact_uri,
  canonical_artifact_format, manifest_uri, quality_summary`);
const STATE_ROW = words(`data_source, source_id, state, school_year, grade, subject, student_group_type, student_group, student_group_id,
  enrolled_count, tested_count, tested_with_scores_count, proficiency_count, proficiency_pct, participation_rate,
  mean_scale_score, data_quality, suppression_code`);
const GRADE_ROW = ["id", ...STATE_ROW];
const INTELLIGENCE_ITEMS: Record<string, string[]> = {
  pain_points: words("id, data_source, category, description, source_url, detected_at"),
  vendors: words("id, data_source, name, category"),
  funding: words("id, data_source, source, amount, fiscal_year, description"),
  contracts: words("id, data_source, vendor_id, vendor_name, category, amount, starts_on, expires_on"),
  bids: words("id, data_source, title, status, posted_on, deadline_at, url, filing"),
};
const FILING = words("action, reason_code, reason_note, filed_at");

const keys = (value: unknown): string[] => Object.keys(value as object).sort();
const sorted = (list: string[]): string[] => [...list].sort();

/** Exact key sets of everything both record kinds share. */
function expectCommonBlocks(record: Record<string, any>): void {
  expect(keys(record._access)).toEqual(sorted(ACCESS));
  const summary = record.assessment_summary;
  expect(keys(summary)).toEqual(sorted(ASSESSMENT_SUMMARY));
  expect(keys(summary.metrics)).toEqual(["ela", "math", "science"]);
  expect(keys(summary.metrics.ela)).toEqual(sorted(ASSESSMENT_METRIC));
  expect(keys(summary.coverage)).toEqual(sorted(COVERAGE));
  expect(record.assessment_grade_rows.length).toBeGreaterThan(0);
  for (const row of record.assessment_grade_rows) expect(keys(row)).toEqual(sorted(GRADE_ROW));
  expect(record.assessment_state_rows.length).toBeGreaterThan(0);
  for (const row of record.assessment_state_rows) expect(keys(row)).toEqual(sorted(STATE_ROW));
  for (const [list, fields] of Object.entries(INTELLIGENCE_ITEMS)) {
    expect([list, record[list].length > 0]).toEqual([list, true]);
    for (const item of record[list]) expect([list, keys(item)]).toEqual([list, sorted(fields)]);
  }
  const filed = record.bids.find((b: { filing: unknown }) => b.filing !== null);
  expect(keys(filed.filing)).toEqual(sorted(FILING));
}

function expectBreakdowns(annual: Record<string, any>, breakdownKeys: string[]): void {
  expect(keys(annual.latest_breakdowns)).toEqual(sorted(breakdownKeys));
  expect(keys(annual.breakdowns)).toEqual(sorted(breakdownKeys));
  for (const key of breakdownKeys) {
    const latest = annual.latest_breakdowns[key];
    expect([key, keys(latest)]).toEqual([key, sorted(BREAKDOWN_YEAR)]);
    for (const row of latest.rows) expect(keys(row)).toEqual(sorted(BREAKDOWN_ROW));
    const history = annual.breakdowns[key];
    expect(keys(history)).toEqual(sorted(BREAKDOWN_HISTORY));
    for (const year of history.trend) expect(keys(year)).toEqual(sorted(BREAKDOWN_YEAR));
  }
}

function expectSped(block: Record<string, any>, extra: string[] = []): void {
  expect(keys(block)).toEqual(sorted([...SPED, ...extra]));
  expect(keys(block.latest)).toEqual(sorted(SPED_ENTRY));
  for (const entry of block.trend) expect(keys(entry)).toEqual(sorted(SPED_ENTRY));
}

describe("full district and school records", () => {
  let t: TestApp;
  let firstDistrict: string;
  let firstSchool: string;

  async function addBlocks(owner: { district_id: string } | { school_id: string }, unlock: boolean) {
    const kind = "district_id" in owner ? "district" : "school";
    const id = "district_id" in owner ? owner.district_id : owner.school_id;
    await insertAssessmentSummary(t.db, owner, 2023);
    await insertGradeRow(t.db, owner, 2023, "03", "ela");
    const intel = await insertIntelligence(t.db, owner, id.slice(0, 8));
    if (unlock) {
      await insertUnlock(t.db, t.orgs.enterprise, kind, id);
      await insertBidFiling(t.db, t.orgs.enterprise, intel.openBidId, "save");
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    await insertStateRow(t.db, "NE", 2023, "03", "ela");
    // Twelve districts with two schools each; the first of each (by name) is unlocked, so limit 1 also loads intelligence.
    for (let i = 0; i < 12; i += 1) {
      const districtId = await insertDistrict(t.db, { name: `Full District ${String(i).padStart(2, "0")}`, state: "NE" });
      if (i === 0) firstDistrict = districtId;
      for (const year of [2022, 2023]) {
        await insertDistrictStats(t.db, districtId, year, { total_enrollment: 1000 + year, total_revenue: 5e6, finance_fiscal_year: year });
        for (const key of ["enrollment_grade", "enrollment_race_sex", "staff_category", "idea_disability"]) {
          await insert(t.db, "district_stat_breakdowns", {
            district_id: districtId,
            school_year_start: year,
            breakdown_key: key,
            category: "all",
            subgroup: "total",
            value: 10,
            source_version: `v${year}`,
            source_url: "https://example.test/b",
          });
        }
        await insertSpecialEducationFinance(t.db, districtId, year + 1);
      }
      await addBlocks({ district_id: districtId }, i % 3 === 0);
      for (let s = 0; s < 2; s += 1) {
        const schoolId = await insert(t.db, "schools", {
          fed_id: `66${String(i * 2 + s).padStart(10, "0")}`,
          name: `Full School ${String(i * 2 + s).padStart(2, "0")}`,
          state: "NE",
          district_id: districtId,
          data_source: "test",
        });
        if (i === 0 && s === 0) firstSchool = schoolId;
        for (const year of [2022, 2023]) {
          await insert(t.db, "school_annual_stats", {
            school_id: schoolId,
            school_year_start: year,
            total_enrollment: 300,
            free_lunch_eligible: 90,
          });
          for (const key of ["enrollment_grade", "enrollment_race_sex"]) {
            await insert(t.db, "school_stat_breakdowns", {
              school_id: schoolId,
              school_year_start: year,
              breakdown_key: key,
              category: "all",
              subgroup: "total",
              value: 5,
              source_version: `v${year}`,
              source_url: "https://example.test/b",
            });
          }
        }
        await addBlocks({ school_id: schoolId }, (i + s) % 3 === 0);
      }
    }
  });
  afterAll(() => t.close());

  it("a district record has exactly the spec's keys, and its blocks the spec's shapes", async () => {
    const res = await t.get("/api/v1/districts?limit=1").expect(200);
    const record = res.body.data[0];
    expect(record.id).toBe(firstDistrict);
    expect(keys(record)).toEqual(sorted([...DISTRICT_FIELDS, ...EXTRA_FIELDS, "strategic_priorities_data_source"]));
    const annual = record.annual_statistics;
    expect(keys(annual)).toEqual(sorted(DISTRICT_ANNUAL));
    expect(keys(annual.latest)).toEqual(sorted(DISTRICT_ENTRY));
    expect(keys(annual.latest_finance)).toEqual(sorted(DISTRICT_ENTRY));
    for (const entry of annual.trend) expect(keys(entry)).toEqual(sorted(DISTRICT_ENTRY));
    expectBreakdowns(annual, DISTRICT_BREAKDOWN_KEYS);
    expectSped(record.special_education_finance);
    expectCommonBlocks(record);
    // The detail endpoint serves the same record.
    expect((await t.get(`/api/v1/districts/${firstDistrict}`).expect(200)).body.data).toEqual(record);
  });

  it("a school record has exactly the spec's keys, and its blocks the spec's shapes", async () => {
    const res = await t.get("/api/v1/schools?limit=1").expect(200);
    const record = res.body.data[0];
    expect(record.id).toBe(firstSchool);
    expect(keys(record)).toEqual(sorted([...SCHOOL_FIELDS, ...EXTRA_FIELDS]));
    const annual = record.annual_statistics;
    expect(keys(annual)).toEqual(sorted(SCHOOL_ANNUAL));
    expect(keys(annual.latest)).toEqual(sorted(SCHOOL_ENTRY));
    for (const entry of annual.trend) expect(keys(entry)).toEqual(sorted(SCHOOL_ENTRY));
    expectBreakdowns(annual, SCHOOL_BREAKDOWN_KEYS);
    const parent = record.parent_district_special_education_finance;
    expectSped(parent, ["district_id", "district_name"]);
    expect(parent).toMatchObject({ district_id: firstDistrict, district_name: "Full District 00", history_gated: false });
    expect(parent.trend.map((e: { fiscal_year: number }) => e.fiscal_year)).toEqual([2023, 2024]);
    expectCommonBlocks(record);
    expect((await t.get(`/api/v1/schools/${firstSchool}`).expect(200)).body.data).toEqual(record);
  });

  const statementsFor = async (path: string) => {
    await t.get(path).expect(200); // warm caches outside the measurement
    const { statements, result: res } = await measureStatements(t.db, () => t.get(path).expect(200));
    return { statements, body: res.body };
  };

  it("GET /districts runs the same statements for limit 1 and limit 200 with every block", async () => {
    const one = await statementsFor("/api/v1/districts?limit=1");
    const all = await statementsFor("/api/v1/districts?limit=200");
    expect(one.body.data[0].pain_points).not.toBeNull();
    expect(all.body.data).toHaveLength(12);
    expect(all.body.data.filter((d: { vendors: unknown }) => d.vendors !== null)).toHaveLength(4);
    expect(one.statements).toBe(all.statements);
    // API key lookup + the list statement (every block in it)
    expect(all.statements).toBe(2);
  });

  it("GET /schools runs the same statements for limit 1 and limit 200 with every block", async () => {
    const one = await statementsFor("/api/v1/schools?limit=1");
    const all = await statementsFor("/api/v1/schools?limit=200");
    expect(one.body.data[0].bids).not.toBeNull();
    expect(all.body.data).toHaveLength(24);
    expect(one.statements).toBe(all.statements);
    // API key lookup + the list statement (every block in it)
    expect(all.statements).toBe(2);
  });

  it("a page with unlocked records costs no more statements than one of only locked records", async () => {
    // Full District 01 and 02 are locked for enterprise.
    const locked = await statementsFor("/api/v1/districts?limit=2&offset=1");
    expect(locked.body.data.map((d: { pain_points: unknown }) => d.pain_points)).toEqual([null, null]);
    const mixed = await statementsFor("/api/v1/districts?limit=2&offset=0");
    expect(mixed.body.data[0].pain_points).not.toBeNull();
    expect(locked.statements).toBe(2);
    expect(mixed.statements).toBe(2);
  });
});
