import { METRICS, type MetricEntity } from "../../src/features/catalogue/metrics/metrics.catalog";
import { metricsCatalogue } from "../../src/features/catalogue/metrics/metrics.service";
import { createTestDb, type TestDb } from "../support/db";
import { measureStatements } from "../support/statements";
import { insertAnnual, insertAssessment, insertDistrict, insertSchool } from "./support";

let db: TestDb;

beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

describe("METRICS", () => {
  it("districts: the statistics entry's numeric fields, finance included, plus the three assessment metrics", () => {
    const names = METRICS.district.map((m) => m.metric);
    expect(names).toHaveLength(48 + 3);
    expect(names).toEqual(
      expect.arrayContaining([
        "total_enrollment",
        "school_age_poverty_pct",
        "total_revenue",
        "title_i_revenue",
        "current_expenditures_per_student",
      ]),
    );
    expect(names.slice(-3)).toEqual(["ela_proficiency_pct", "math_proficiency_pct", "science_proficiency_pct"]);
    expect(new Set(names).size).toBe(names.length);
    expect(METRICS.district.find((m) => m.metric === "total_enrollment")).toEqual({
      metric: "total_enrollment",
      type: "integer",
      source: "annual_statistics",
      table: "district_annual_stats",
      column: "total_enrollment",
      yearColumn: "school_year_start",
      entityColumn: "district_id",
    });
  });

  it("schools: the school statistics entry's numeric fields plus the three assessment metrics", () => {
    expect(METRICS.school.map((m) => `${m.metric}:${m.type}`)).toEqual([
      "total_enrollment:integer",
      "free_lunch_eligible:integer",
      "reduced_price_lunch_eligible:integer",
      "free_or_reduced_price_lunch_eligible:integer",
      "teachers_fte:number",
      "student_teacher_ratio:number",
      "free_or_reduced_price_lunch_pct:number",
      "ela_proficiency_pct:number",
      "math_proficiency_pct:number",
      "science_proficiency_pct:number",
    ]);
    expect(METRICS.school.find((m) => m.metric === "math_proficiency_pct")).toMatchObject({
      table: "assessment_summaries",
      yearColumn: "school_year",
      entityColumn: "school_id",
    });
  });

  it.each(["district", "school"] as MetricEntity[])("%s: matches the database columns and their types (no drift)", async (entity) => {
    const tables = [...new Set(METRICS[entity].map((m) => m.table))];
    const columns = await db.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`,
      [tables],
    );
    const typeOf = new Map(columns.map((c) => [`${c.table_name}.${c.column_name}`, c.data_type]));
    for (const def of METRICS[entity]) {
      expect([def.metric, typeOf.get(`${def.table}.${def.column}`)]).toEqual([
        def.metric,
        def.type === "integer" ? "integer" : "double precision",
      ]);
      expect(typeOf.has(`${def.table}.${def.yearColumn}`) && typeOf.has(`${def.table}.${def.entityColumn}`)).toBe(true);
    }
    // Every numeric statistic column of the annual table is a metric; only the year key is left out.
    const annualTable = entity === "district" ? "district_annual_stats" : "school_annual_stats";
    const numeric = columns
      .filter(
        (c) =>
          c.table_name === annualTable && ["integer", "double precision"].includes(c.data_type) && c.column_name !== "school_year_start",
      )
      .map((c) => c.column_name)
      .sort();
    expect(numeric).toEqual(
      METRICS[entity]
        .filter((m) => m.table === annualTable)
        .map((m) => m.column)
        .sort(),
    );
  });
});

describe("metricsCatalogue", () => {
  it("lists every metric with its type, source and the years that have values, one statement per table", async () => {
    const d1 = await insertDistrict(db, "D1");
    const d2 = await insertDistrict(db, "D2");
    const school = await insertSchool(db, "S1", d1);
    await insertAnnual(db, "district", d1, 2019, { total_enrollment: 100, total_revenue: null });
    await insertAnnual(db, "district", d2, 2021, { total_enrollment: 90, total_revenue: 5e6 });
    await insertAnnual(db, "district", d2, 2020, { total_revenue: 4e6 });
    await insertAssessment(db, "district", d1, 2022, "tn_tcap", { ela: 40 });
    // School rows must not show up in the district catalogue.
    await insertAnnual(db, "school", school, 2018, { total_enrollment: 20, free_or_reduced_price_lunch_pct: 50 });
    await insertAssessment(db, "school", school, 2017, "tn_tcap", { ela: 41, math: 42 });

    const { statements, result: districts } = await measureStatements(db, () => metricsCatalogue(db, "district"));
    expect(statements).toBe(2);
    expect(districts.map((m) => m.metric)).toEqual(METRICS.district.map((m) => m.metric));
    const byName = Object.fromEntries(districts.map((m) => [m.metric, m]));
    expect(byName.total_enrollment).toEqual({
      metric: "total_enrollment",
      type: "integer",
      source: "annual_statistics",
      years: [2019, 2021],
    });
    expect(byName.total_revenue).toEqual({ metric: "total_revenue", type: "number", source: "annual_statistics", years: [2020, 2021] });
    expect(byName.teachers_fte.years).toEqual([]);
    expect(byName.ela_proficiency_pct).toEqual({ metric: "ela_proficiency_pct", type: "number", source: "assessment", years: [2022] });
    expect(byName.math_proficiency_pct.years).toEqual([]);

    const schools = Object.fromEntries((await metricsCatalogue(db, "school")).map((m) => [m.metric, m.years]));
    expect(schools).toMatchObject({
      total_enrollment: [2018],
      free_or_reduced_price_lunch_pct: [2018],
      free_lunch_eligible: [],
      ela_proficiency_pct: [2017],
      math_proficiency_pct: [2017],
      science_proficiency_pct: [],
    });
  });
});
