/**
 * Demo special-education finance (fiscal years 2021-2023). Amounts are whole dollars; every derived
 * figure is computed from the stored amounts: per-student = amount / idea_child_count (2 decimals),
 * percentages = part / whole * 100 (2 decimals, within 0-100), and the four spending lines never add up
 * to more than special_ed_current_expenditures.
 */
import type { DemoRow } from "./bulk";
import { DEMO_HOST, DEMO_SOURCE } from "./catalog";
import { type DemoEntity, seededAt } from "./model";
import { DemoRandom, demoUuid, round } from "./random";

export const FINANCE_FISCAL_YEARS = [2021, 2022, 2023] as const;

export function buildSpecialEducationFinance(seed: number, districts: readonly DemoEntity[]): DemoRow[] {
  const rows: DemoRow[] = [];
  for (const district of districts) {
    const rng = new DemoRandom(seed, `sped-finance/${district.fed_id}`);
    const baseEnrollment = district.size_hint && district.size_hint > 0 ? district.size_hint : rng.int(1500, 40_000);
    const spedRate = rng.float(0.11, 0.17);
    const revenuePerStudent = rng.float(13_000, 21_000);
    for (const fiscalYear of FINANCE_FISCAL_YEARS) {
      const yearRng = new DemoRandom(seed, `sped-finance/${district.fed_id}/${fiscalYear}`);
      // Enrollment drifts about 1% a year toward the directory count of the latest year.
      const enrollment = Math.max(50, Math.round(baseEnrollment * (1 - 0.01 * (2023 - fiscalYear)) * yearRng.float(0.995, 1.005)));
      const childCount = Math.max(5, Math.round(enrollment * (spedRate + yearRng.float(-0.004, 0.004))));
      const totalRevenue = Math.round(enrollment * revenuePerStudent * (1 + 0.03 * (fiscalYear - 2021)));
      const ideaRevenue = Math.round(childCount * yearRng.float(1500, 2600));
      const federalRevenue = Math.max(Math.round(totalRevenue * yearRng.float(0.06, 0.12)), ideaRevenue * 3);
      const totalExpenditures = Math.round(totalRevenue * yearRng.float(0.95, 1.04));
      const spedCurrent = Math.round(childCount * yearRng.float(9_000, 16_000));
      const instructional = Math.round(spedCurrent * yearRng.float(0.55, 0.64));
      const studentSupport = Math.round(spedCurrent * yearRng.float(0.12, 0.18));
      const staffSupport = Math.round(spedCurrent * yearRng.float(0.04, 0.08));
      const transportation = Math.round(spedCurrent * yearRng.float(0.05, 0.09));
      rows.push({
        id: demoUuid(seed, `sped-finance/${district.fed_id}/${fiscalYear}`),
        district_id: district.id,
        fiscal_year: fiscalYear,
        school_year_start: fiscalYear - 1,
        total_enrollment: enrollment,
        idea_child_count: childCount,
        idea_part_b_revenue: ideaRevenue,
        total_federal_revenue: federalRevenue,
        total_revenue: totalRevenue,
        total_expenditures: totalExpenditures,
        special_ed_current_expenditures: spedCurrent,
        special_ed_instructional_expenditures: instructional,
        special_ed_student_support_expenditures: studentSupport,
        special_ed_instructional_staff_support_expenditures: staffSupport,
        special_ed_transportation_expenditures: transportation,
        idea_revenue_per_sped_student: round(ideaRevenue / childCount, 2),
        special_ed_current_expenditures_per_sped_student: round(spedCurrent / childCount, 2),
        sped_enrollment_pct: round((childCount / enrollment) * 100, 2),
        idea_revenue_share_of_total_revenue_pct: round((ideaRevenue / totalRevenue) * 100, 2),
        idea_child_count_status: "reported",
        idea_part_b_revenue_flag: "reported",
        f33_version: `demo-f33-fy${fiscalYear}`,
        child_count_version: `demo-idea-child-count-${fiscalYear - 1}`,
        source_f33_url: `${DEMO_HOST}/finance/f33/fy${fiscalYear}.csv`,
        source_child_count_url: `${DEMO_HOST}/finance/idea-child-count/${fiscalYear - 1}.csv`,
        data_source: DEMO_SOURCE,
        loaded_at: seededAt(),
      });
    }
  }
  return rows;
}
