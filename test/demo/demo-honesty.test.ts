/**
 * Demo blocks never contradict real data (issue 25 point 3, docs/demo-data.md). A user found the demo
 * special-education finance of a district saying FY2021 revenue $949M beside the real F-33 $765M in the same
 * response, and demo blocks labelled only deep inside. Here a district has real F-33 totals for FY2020 and
 * FY2021: after the demo layer, every demo special-education figure in its record agrees with (or stays within)
 * the real figure served beside it, no demo year exists without real totals, and every block holding demo rows
 * says data_source "demo" at its top level (REST data_source, GraphQL dataSource).
 */
import { seedDemoLayer } from "../../src/seed/demo/demo.service";
import { createTestApp, type TestApp } from "../support/app";
import { insertUnlock } from "../support/block-factories";
import { insert, insertDistrict, insertDistrictStats } from "../support/factories";

let t: TestApp;
let real: string; // Real F-33 totals FY2020 and FY2021
let federalless: string; // FY2021 totals without federal revenue
let bare: string; // no finance at all
let school: string;

// F-33 FY N on the row of school year N-1 (data/README.md).
const F33 = [
  { fy: 2020, enrollment: 52_100, revenue: 741_000_000, expenditures: 760_000_000, federal: 70_000_000 },
  { fy: 2021, enrollment: 51_900, revenue: 765_000_000, expenditures: 790_000_000, federal: 96_000_000 },
];

beforeAll(async () => {
  t = await createTestApp();
  real = await insertDistrict(t.db, { fed_id: "3174820", name: "Real Finance District", state: "NE", student_count: 52_000 });
  federalless = await insertDistrict(t.db, { fed_id: "3100001", name: "Federalless District", state: "NE", student_count: 40_000 });
  bare = await insertDistrict(t.db, { fed_id: "3100002", name: "Bare District", state: "NE", student_count: 30_000 });
  await insertDistrict(t.db, { fed_id: "3100003", name: "Small District", state: "NE", student_count: 10 });
  for (const y of F33) {
    await insertDistrictStats(t.db, real, y.fy - 1, {
      total_enrollment: y.enrollment,
      finance_fiscal_year: y.fy,
      total_revenue: y.revenue,
      total_expenditures: y.expenditures,
      federal_revenue: y.federal,
    });
  }
  // Later years with enrollment only: no F-33 there, so no demo finance either.
  await insertDistrictStats(t.db, real, 2021, { total_enrollment: 51_800 });
  await insertDistrictStats(t.db, real, 2022, { total_enrollment: 51_700 });
  await insertDistrictStats(t.db, federalless, 2020, {
    total_enrollment: 40_000,
    finance_fiscal_year: 2021,
    total_revenue: 500_000_000,
    total_expenditures: 480_000_000,
  });
  await insertDistrictStats(t.db, bare, 2022, { total_enrollment: 30_000 });
  school = await insert(t.db, "schools", {
    fed_id: "317482000001",
    name: "Real Finance School",
    state: "NE",
    district_id: real,
    data_source: "test",
  });
  for (const id of [real, federalless, bare]) await insertUnlock(t.db, t.orgs.enterprise, "district", id);

  const summary = await seedDemoLayer(t.db, { referenceDay: "2026-11-20" });
  expect(summary.districts.completed).toBe(2); // half of the four: the real-finance and federalless districts
});
afterAll(() => t?.close());

const district = async (id: string) => (await t.get(`/api/v1/districts/${id}`, "enterprise").expect(200)).body.data;

test("demo special-education finance copies the real F-33 totals of its fiscal year and stays within them", async () => {
  const record = await district(real);
  const finance = record.special_education_finance;
  expect(finance.data_source).toBe("demo");
  const annual = record.annual_statistics.trend as Record<string, number | null>[];
  const realByYear = new Map(annual.filter((e) => e.finance_fiscal_year !== null).map((e) => [e.finance_fiscal_year, e]));
  expect([...realByYear.keys()]).toEqual([2020, 2021]);
  // Only the fiscal years with real totals (never 2022 or 2023), each beside its real figures.
  expect(finance.trend.map((e: { fiscal_year: number }) => e.fiscal_year)).toEqual([2020, 2021]);
  expect(finance.latest.fiscal_year).toBe(2021);
  for (const entry of finance.trend) {
    const served = realByYear.get(entry.fiscal_year)!;
    expect(entry.data_source).toBe("demo");
    expect(entry).toMatchObject({
      total_revenue: served.total_revenue,
      total_expenditures: served.total_expenditures,
      total_federal_revenue: served.federal_revenue,
      total_enrollment: served.total_enrollment,
      school_year_start: served.school_year_start,
    });
    expect(entry.idea_part_b_revenue).toBeGreaterThan(0);
    expect(entry.idea_part_b_revenue).toBeLessThanOrEqual(served.federal_revenue!);
    expect(entry.special_ed_current_expenditures).toBeGreaterThan(0);
    expect(entry.special_ed_current_expenditures).toBeLessThanOrEqual(served.total_expenditures!);
    expect(entry.idea_child_count).toBeLessThanOrEqual(served.total_enrollment!);
    const lines =
      entry.special_ed_instructional_expenditures +
      entry.special_ed_student_support_expenditures +
      entry.special_ed_instructional_staff_support_expenditures +
      entry.special_ed_transportation_expenditures;
    expect(lines).toBeLessThanOrEqual(entry.special_ed_current_expenditures);
    expect(entry.idea_revenue_share_of_total_revenue_pct).toBeCloseTo((entry.idea_part_b_revenue / served.total_revenue!) * 100, 2);
  }

  // Without real federal revenue: the federal total stays null, IDEA revenue a share of the real total revenue.
  const other = (await district(federalless)).special_education_finance;
  expect(other.data_source).toBe("demo");
  expect(other.trend).toHaveLength(1);
  expect(other.latest).toMatchObject({
    fiscal_year: 2021,
    total_revenue: 500_000_000,
    total_expenditures: 480_000_000,
    total_federal_revenue: null,
  });
  expect(other.latest.idea_part_b_revenue).toBeLessThanOrEqual(500_000_000 * 0.02);
});

test("every block holding demo rows says data_source demo at its top level; real-less blocks say null", async () => {
  const record = await district(real);
  expect(record.assessment_summary.data_source).toBe("demo");
  expect(record.assessment_grade_rows.length).toBeGreaterThan(0);
  for (const row of record.assessment_grade_rows) expect(row.data_source).toBe("demo");
  for (const row of record.assessment_state_rows) expect(row.data_source).toBe("demo");
  expect(Array.isArray(record.strategic_priorities) && record.strategic_priorities.length).toBeGreaterThan(0);
  expect(record.strategic_priorities.every((p: unknown) => typeof p === "string")).toBe(true);
  expect(record.strategic_priorities_data_source).toBe("demo");
  // The gated intelligence lists (unlocked here): every item is labelled.
  for (const list of ["pain_points", "vendors", "funding", "contracts", "bids"]) {
    expect([list, record[list].length > 0]).toEqual([list, true]);
    for (const item of record[list]) expect([list, item.data_source]).toEqual([list, "demo"]);
  }

  // Not in the demo subset: nothing invented, and no label either.
  const untouched = await district(bare);
  expect(untouched.special_education_finance).toMatchObject({ data_source: null, latest: null, trend: [] });
  expect(untouched.strategic_priorities).toBeNull();
  expect(untouched.strategic_priorities_data_source).toBeNull();

  // A locked record reads neither the priorities nor their label.
  const locked = (await t.get(`/api/v1/districts/${real}`, "pro").expect(200)).body.data;
  expect([locked.strategic_priorities, locked.strategic_priorities_data_source]).toEqual([null, null]);

  // The school form of the finance block carries the same label.
  const schoolRecord = (await t.get(`/api/v1/schools/${school}`, "enterprise").expect(200)).body.data;
  expect(schoolRecord.parent_district_special_education_finance.data_source).toBe("demo");

  const { data, errors } = await t.graphql(
    `query($id: UUID!) { district(id: $id) { strategicPrioritiesDataSource specialEducationFinance { dataSource } assessmentSummary { dataSource } } }`,
    { id: real },
    "enterprise",
  );
  expect(errors).toBeUndefined();
  expect(data.district).toEqual({
    strategicPrioritiesDataSource: "demo",
    specialEducationFinance: { dataSource: "demo" },
    assessmentSummary: { dataSource: "demo" },
  });
});

test("a real extraction's priorities are labelled extraction; real finance rows carry their own source", async () => {
  await t.db.query(
    `UPDATE districts SET ai_summary = 'Real summary from the pipeline.', strategic_priorities = '["Literacy"]'::jsonb WHERE id = $1`,
    [bare],
  );
  await insert(t.db, "special_education_finance", { district_id: bare, fiscal_year: 2021, idea_child_count: 10, data_source: "test_idea" });
  const record = await district(bare);
  expect(record.strategic_priorities_data_source).toBe("extraction");
  expect(record.special_education_finance.data_source).toBe("test_idea");
});
