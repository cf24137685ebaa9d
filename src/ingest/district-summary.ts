/**
 * The district record's headline figures, from the latest school year of district_annual_stats that has
 * each (issue 15; field dictionary: data/README.md "District record fields: which year"):
 * - student_count, teachers_fte, total_staff (= total_staff_fte): each from the latest year having it;
 * - student_teacher_ratio: from the latest year having both enrollment and teachers (> 0): that year's
 *   stored ratio (published, or derived from that same year's counts by deriveYearlyMetrics, which runs
 *   first: never numerator and denominator of different years);
 * - total_revenue, total_expenditures: from the latest year having each (F-33 FY N is school year N-1);
 * - revenue_per_student, expenditures_per_student: from the latest year having the finance total and
 *   enrollment on the same row (revenue: the published V33 per-pupil amount of that row when present).
 * A field no year has keeps its current value. This is the one rule for these columns: ingestors may
 * write them, but runIngest re-applies this step after every file of SUMMARY_SOURCES (src/ingest/index.ts)
 * and ingestDemoFiles once after the whole load.
 */
import type { Queryable } from "../db/client";
import { deriveYearlyMetrics } from "./derived-stats";

// Hand-written: one set-based UPDATE over ~20k districts x ~17 stats years; per-district Prisma updates
// took the first start over budget (bench/startup.ts, data/README.md load times).
const REFRESH_SQL = `
WITH s AS (
  SELECT district_id, school_year_start AS y, total_enrollment AS enr, teachers_fte AS tch, total_staff_fte AS staff,
         student_teacher_ratio AS ratio, total_revenue AS rev, total_expenditures AS exp, revenue_per_student AS rps
    FROM district_annual_stats
), pick AS (
  SELECT district_id,
    (array_agg(enr ORDER BY y DESC) FILTER (WHERE enr IS NOT NULL))[1] AS student_count,
    (array_agg(tch ORDER BY y DESC) FILTER (WHERE tch IS NOT NULL))[1] AS teachers_fte,
    (array_agg(staff ORDER BY y DESC) FILTER (WHERE staff IS NOT NULL))[1] AS total_staff,
    (array_agg(ratio ORDER BY y DESC) FILTER (WHERE ratio IS NOT NULL AND enr IS NOT NULL AND tch > 0))[1] AS student_teacher_ratio,
    (array_agg(rev ORDER BY y DESC) FILTER (WHERE rev IS NOT NULL))[1] AS total_revenue,
    (array_agg(exp ORDER BY y DESC) FILTER (WHERE exp IS NOT NULL))[1] AS total_expenditures,
    (array_agg(coalesce(rps, round((rev / enr)::numeric, 2)::float8) ORDER BY y DESC)
       FILTER (WHERE rev IS NOT NULL AND enr > 0))[1] AS revenue_per_student,
    (array_agg(round((exp / enr)::numeric, 2)::float8 ORDER BY y DESC)
       FILTER (WHERE exp IS NOT NULL AND enr > 0))[1] AS expenditures_per_student
  FROM s GROUP BY district_id
), v AS (
  SELECT p.district_id,
    coalesce(p.student_count, d.student_count) AS student_count,
    coalesce(p.teachers_fte, d.teachers_fte) AS teachers_fte,
    coalesce(p.total_staff, d.total_staff) AS total_staff,
    coalesce(p.student_teacher_ratio, d.student_teacher_ratio) AS student_teacher_ratio,
    coalesce(p.total_revenue, d.total_revenue) AS total_revenue,
    coalesce(p.total_expenditures, d.total_expenditures) AS total_expenditures,
    coalesce(p.revenue_per_student, d.revenue_per_student) AS revenue_per_student,
    coalesce(p.expenditures_per_student, d.expenditures_per_student) AS expenditures_per_student
  FROM pick p JOIN districts d ON d.id = p.district_id
)
UPDATE districts d SET
  student_count = v.student_count, teachers_fte = v.teachers_fte, total_staff = v.total_staff,
  student_teacher_ratio = v.student_teacher_ratio, total_revenue = v.total_revenue,
  total_expenditures = v.total_expenditures, revenue_per_student = v.revenue_per_student,
  expenditures_per_student = v.expenditures_per_student, last_updated_at = now()
FROM v
WHERE d.id = v.district_id
  AND (d.student_count, d.teachers_fte, d.total_staff, d.student_teacher_ratio, d.total_revenue, d.total_expenditures,
       d.revenue_per_student, d.expenditures_per_student)
      IS DISTINCT FROM
      (v.student_count, v.teachers_fte, v.total_staff, v.student_teacher_ratio, v.total_revenue, v.total_expenditures,
       v.revenue_per_student, v.expenditures_per_student)
RETURNING d.id`;

/**
 * Derives the yearly metrics of every stats row that has their inputs (src/ingest/derived-stats.ts), then
 * applies the rule above to every district; returns how many districts changed (0 on a repeat).
 */
export async function refreshDistrictSummary(q: Queryable): Promise<number> {
  await deriveYearlyMetrics(q);
  const rows = await q.query<{ id: string }>(REFRESH_SQL);
  return rows.length;
}
