/**
 * The district record's headline fields come from the latest school year having each (issue 15,
 * src/ingest/district-summary.ts): a ratio or per-student amount only from one year's numerator and
 * denominator; a field no year has keeps its value; a second refresh changes nothing.
 */
import { refreshDistrictSummary } from "../../src/ingest/district-summary";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict, insertDistrictStats } from "../support/factories";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

async function record(id: string): Promise<Record<string, unknown>> {
  const [row] = await db.query<Record<string, unknown>>(
    `SELECT student_count, teachers_fte, total_staff, student_teacher_ratio, total_revenue, total_expenditures,
            revenue_per_student, expenditures_per_student FROM districts WHERE id = $1`,
    [id],
  );
  return row!;
}

test("each field from the latest year that has it; ratio and per-student amounts from one year only", async () => {
  const a = await insertDistrict(db, { student_count: 1, student_teacher_ratio: 99 });
  // 2023: enrollment and staff, no teachers, no finance. 2022: enrollment + teachers (ratio pair).
  // 2020: finance FY2021 with enrollment; 2019: finance FY2020 revenue only, and an older expenditure.
  await insertDistrictStats(db, a, 2023, { total_enrollment: 1200, total_staff_fte: 150.5 });
  await insertDistrictStats(db, a, 2022, { total_enrollment: 1000, teachers_fte: 80 });
  await insertDistrictStats(db, a, 2020, { total_enrollment: 900, total_revenue: 18_000_000 });
  await insertDistrictStats(db, a, 2019, { total_enrollment: 950, total_revenue: 17_000_000, total_expenditures: 19_000_000 });

  const b = await insertDistrict(db, { student_count: 77, total_expenditures: 5, student_teacher_ratio: 12.5 });
  // Only a published ratio in its year, plus teachers without enrollment in a later year.
  await insertDistrictStats(db, b, 2021, { total_enrollment: 500, teachers_fte: 40, student_teacher_ratio: 12.3 });
  await insertDistrictStats(db, b, 2023, { teachers_fte: 41 });

  const c = await insertDistrict(db, { student_count: 5, total_revenue: 7 }); // no stats row: untouched

  expect(await refreshDistrictSummary(db)).toBeGreaterThanOrEqual(2);

  expect(await record(a)).toEqual({
    student_count: 1200, // 2023
    teachers_fte: 80, // 2022
    total_staff: 150.5, // 2023
    student_teacher_ratio: 12.5, // 2022: 1000 / 80 (not 2023's enrollment over 2022's teachers)
    total_revenue: 18_000_000, // 2020 (FY2021)
    total_expenditures: 19_000_000, // 2019 (FY2020), the latest year having it
    revenue_per_student: 20_000, // 2020: 18,000,000 / 900
    expenditures_per_student: 20_000, // 2019: 19,000,000 / 950
  });
  expect(await record(b)).toMatchObject({
    student_count: 500,
    teachers_fte: 41, // 2023
    student_teacher_ratio: 12.3, // 2021's published ratio, the latest year with both counts
    total_expenditures: 5, // no year has it: kept
    revenue_per_student: null,
  });
  expect(await record(c)).toMatchObject({ student_count: 5, total_revenue: 7, teachers_fte: null });

  // Idempotent.
  expect(await refreshDistrictSummary(db)).toBe(0);
});
