/**
 * Derived yearly metrics (issue 25 point 4, src/ingest/derived-stats.ts): every stats row with the inputs
 * gets student_teacher_ratio and federal_revenue_share_pct by one rule, whatever year; GET /metrics then
 * lists those years. Before, only the years whose source published a ratio had one, and no year had a share.
 */
import fs from "node:fs";
import path from "node:path";
import { metricsCatalogue } from "../../src/features/catalogue/metrics/metrics.service";
import { deriveYearlyMetrics } from "../../src/ingest/derived-stats";
import { refreshDistrictSummary } from "../../src/ingest/district-summary";
import { insertAnnual, insertDistrict, insertSchool } from "../metrics/support";
import { createTestDb, type TestDb } from "../support/db";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

async function districtYears(id: string) {
  return db.query<{ y: number; ratio: number | null; share: number | null }>(
    `SELECT school_year_start AS y, student_teacher_ratio AS ratio, federal_revenue_share_pct AS share
       FROM district_annual_stats WHERE district_id = $1 ORDER BY school_year_start`,
    [id],
  );
}

test("ratio and federal share for every year that has their inputs; published ratios kept; metrics list the years", async () => {
  const d = await insertDistrict(db, "2800001");
  // 2019-2022: counts only (the ELSI A files publish no ratio); 2019 and 2020 also F-33 revenue.
  await insertAnnual(db, "district", d, 2019, { total_enrollment: 1000, teachers_fte: 80, total_revenue: 20e6, federal_revenue: 2e6 });
  await insertAnnual(db, "district", d, 2020, { total_enrollment: 990, teachers_fte: 75, total_revenue: 21e6, federal_revenue: 3.15e6 });
  await insertAnnual(db, "district", d, 2021, { total_enrollment: 1010, teachers_fte: 0 }); // no teachers: no ratio
  await insertAnnual(db, "district", d, 2022, { total_enrollment: 1005, teachers_fte: 67 });
  // 2023: the published ratio differs from the counts' quotient (15.15) and is kept.
  await insertAnnual(db, "district", d, 2023, { total_enrollment: 1000, teachers_fte: 66, student_teacher_ratio: 15.2 });
  // 2018: federal revenue without a total, total 0: no share.
  await insertAnnual(db, "district", d, 2018, { total_revenue: 0, federal_revenue: 1e6 });
  const school = await insertSchool(db, "280000100001", d);
  await insertAnnual(db, "school", school, 2021, { total_enrollment: 450, teachers_fte: 30 });
  await insertAnnual(db, "school", school, 2022, { total_enrollment: 460 });

  await refreshDistrictSummary(db);

  expect(await districtYears(d)).toEqual([
    { y: 2018, ratio: null, share: null },
    { y: 2019, ratio: 12.5, share: 10 },
    { y: 2020, ratio: 13.2, share: 15 },
    { y: 2021, ratio: null, share: null },
    { y: 2022, ratio: 15, share: null },
    { y: 2023, ratio: 15.2, share: null },
  ]);
  const [schoolRatio] = await db.query<{ ratio: number | null }>(
    `SELECT student_teacher_ratio AS ratio FROM school_annual_stats WHERE school_id = $1 AND school_year_start = 2021`,
    [school],
  );
  expect(schoolRatio.ratio).toBe(15);
  // The district record's ratio is the latest year's stored one.
  const [record] = await db.query<{ ratio: number }>(`SELECT student_teacher_ratio AS ratio FROM districts WHERE id = $1`, [d]);
  expect(record.ratio).toBe(15.2);

  const metrics = Object.fromEntries((await metricsCatalogue(db, "district")).map((m) => [m.metric, m.years]));
  expect(metrics.student_teacher_ratio).toEqual([2019, 2020, 2022, 2023]);
  expect(metrics.federal_revenue_share_pct).toEqual([2019, 2020]);
  const schoolMetrics = Object.fromEntries((await metricsCatalogue(db, "school")).map((m) => [m.metric, m.years]));
  expect(schoolMetrics.student_teacher_ratio).toEqual([2021]);

  // A later load that corrects an input moves the share with it; a repeat changes nothing.
  await db.query(`UPDATE district_annual_stats SET federal_revenue = 4.2e6 WHERE district_id = $1 AND school_year_start = 2020`, [d]);
  await refreshDistrictSummary(db);
  expect((await districtYears(d)).find((r) => r.y === 2020)).toEqual({ y: 2020, ratio: 13.2, share: 20 });
  const before = await districtYears(d);
  expect(await refreshDistrictSummary(db)).toBe(0);
  expect(await districtYears(d)).toEqual(before);
});

test("the backfill migration of an already-loaded database applies the same rule", async () => {
  const d = await insertDistrict(db, "2800002");
  await insertAnnual(db, "district", d, 2019, { total_enrollment: 700, teachers_fte: 45.5, total_revenue: 9e6, federal_revenue: 1.1e6 });
  await insertAnnual(db, "district", d, 2020, { total_enrollment: 690, teachers_fte: 44, student_teacher_ratio: 15.9, total_revenue: 0 });
  await insertAnnual(db, "district", d, 2021, { total_enrollment: 0, teachers_fte: 40, federal_revenue: 5 });
  const s = await insertSchool(db, "280000200001", d);
  await insertAnnual(db, "school", s, 2019, { total_enrollment: 333, teachers_fte: 21 });
  const read = async () => ({
    district: await districtYears(d),
    school: await db.query(`SELECT school_year_start, student_teacher_ratio FROM school_annual_stats WHERE school_id = $1`, [s]),
  });
  const reset = () =>
    Promise.all([
      db.query(
        `UPDATE district_annual_stats SET student_teacher_ratio = NULL, federal_revenue_share_pct = NULL WHERE district_id = $1 AND school_year_start <> 2020`,
        [d],
      ),
      db.query(`UPDATE school_annual_stats SET student_teacher_ratio = NULL WHERE school_id = $1`, [s]),
    ]);
  const before = await read();

  const migration = fs.readFileSync(
    path.join(__dirname, "../../prisma/migrations/20261217000000_derived_yearly_metrics/migration.sql"),
    "utf8",
  );
  const statements = migration
    .split(";")
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter(Boolean);
  expect(statements).toHaveLength(3);
  for (const statement of statements) await db.query(statement);
  const migrated = await read();
  expect(migrated).not.toEqual(before);

  await reset();
  expect(await read()).toEqual(before);
  await deriveYearlyMetrics(db);
  expect(await read()).toEqual(migrated);
  expect(migrated.district.map((r) => [r.y, r.ratio, r.share])).toEqual([
    [2019, 15.38, 12.22],
    [2020, 15.9, null],
    [2021, null, null],
  ]);
});
