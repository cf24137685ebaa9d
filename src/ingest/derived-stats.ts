/**
 * Derived yearly metrics of district_annual_stats and school_annual_stats (issue 25 point 4; data/README.md
 * "Derived yearly metrics"). One rule, applied to every stats row that has the inputs, whichever source
 * wrote them and in whatever order the files were loaded:
 * - student_teacher_ratio = total_enrollment / teachers_fte (2 decimals) when both are > 0, unless the row
 *   holds a ratio already (a source that publishes the ratio, ELSI 2023-24 and the School/District Search
 *   exports, wrote it; their published figure is kept);
 * - federal_revenue_share_pct = federal_revenue / total_revenue * 100 (2 decimals) when federal_revenue is
 *   present and total_revenue > 0 (no source publishes it: always this formula).
 * A row without the inputs keeps what it holds. Applied by refreshDistrictSummary (src/ingest/district-summary.ts),
 * which runs after every file of a statistics source and once after the first start's load; a repeat changes
 * no row. A database loaded before the rule is backfilled once by migration 20261217000000_derived_yearly_metrics
 * (the same formulas; test/ingest/derived-stats.test.ts compares the two).
 */
import type { Queryable } from "../db/client";

/** SQL: students per FTE teacher of one row, or NULL without both counts > 0. */
export const ratioSql = (enrollment: string, teachers: string): string =>
  `CASE WHEN ${enrollment} > 0 AND ${teachers} > 0 THEN round((${enrollment}::float8 / ${teachers})::numeric, 2)::float8 END`;

/** SQL: the federal share of total revenue in percent, or NULL without the inputs. */
export const federalShareSql = (federal: string, total: string): string =>
  `CASE WHEN ${federal} IS NOT NULL AND ${total} > 0 THEN round((${federal} / ${total} * 100)::numeric, 2)::float8 END`;

// Hand-written set-based UPDATEs (one statement per table over every row; per-row Prisma updates would be
// ~340k statements on the first start, data/README.md load times). Only rows whose value changes are written.
const DISTRICT_SQL = `
UPDATE district_annual_stats s SET
  student_teacher_ratio = coalesce(s.student_teacher_ratio, ${ratioSql("s.total_enrollment", "s.teachers_fte")}),
  federal_revenue_share_pct = coalesce(${federalShareSql("s.federal_revenue", "s.total_revenue")}, s.federal_revenue_share_pct)
WHERE (s.student_teacher_ratio IS NULL AND ${ratioSql("s.total_enrollment", "s.teachers_fte")} IS NOT NULL)
   OR (${federalShareSql("s.federal_revenue", "s.total_revenue")} IS NOT NULL
       AND ${federalShareSql("s.federal_revenue", "s.total_revenue")} IS DISTINCT FROM s.federal_revenue_share_pct)
RETURNING s.id`;

const SCHOOL_SQL = `
UPDATE school_annual_stats s SET
  student_teacher_ratio = ${ratioSql("s.total_enrollment", "s.teachers_fte")}
WHERE s.student_teacher_ratio IS NULL AND ${ratioSql("s.total_enrollment", "s.teachers_fte")} IS NOT NULL
RETURNING s.id`;

/** Applies the rule above; returns how many stats rows changed (0 on a repeat). */
export async function deriveYearlyMetrics(q: Queryable): Promise<number> {
  const districts = await q.query<{ id: string }>(DISTRICT_SQL);
  const schools = await q.query<{ id: string }>(SCHOOL_SQL);
  return districts.length + schools.length;
}
