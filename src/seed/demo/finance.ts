/**
 * Demo special-education finance, derived from the district's real F-33 figures (issue 25 point 3): a demo
 * row exists only for a fiscal year in which the district's real annual statistics (district_annual_stats,
 * served beside it as annual_statistics) hold total revenue, total expenditures and enrollment; at most the
 * latest three such years. Its total_revenue, total_expenditures, total_federal_revenue and total_enrollment
 * are the real figures of that row, and the invented amounts are shares of them, so they can never exceed or
 * contradict them: IDEA Part B revenue is 0.8-1.8% of total revenue (and at most 45% of federal revenue),
 * special-education current expenditures 9-14% of total expenditures, the four spending lines shares of that.
 * Amounts are whole dollars; per-student = amount / idea_child_count (2 decimals), percentages = part / whole
 * * 100 (2 decimals, within 0-100).
 */
import type { DemoRow } from "./bulk";
import { DEMO_HOST, DEMO_SOURCE } from "./catalog";
import { type DemoEntity, seededAt } from "./model";
import { DemoRandom, demoUuid, round } from "./random";

/** How many of a district's latest real F-33 fiscal years get demo rows. */
export const FINANCE_MAX_YEARS = 3;

/** One fiscal year of a district's real F-33 figures (district_annual_stats, school year fiscal_year - 1). */
export interface RealFinanceYear {
  fiscal_year: number;
  total_revenue: number;
  total_expenditures: number;
  federal_revenue: number | null;
  total_enrollment: number;
}

export function buildSpecialEducationFinance(
  seed: number,
  districts: readonly DemoEntity[],
  realFinance: ReadonlyMap<string, readonly RealFinanceYear[]>,
): DemoRow[] {
  const rows: DemoRow[] = [];
  for (const district of districts) {
    const years = (realFinance.get(district.id) ?? []).slice(-FINANCE_MAX_YEARS);
    if (!years.length) continue;
    const rng = new DemoRandom(seed, `sped-finance/${district.fed_id}`);
    const spedRate = rng.float(0.11, 0.17);
    for (const real of years) {
      const fiscalYear = real.fiscal_year;
      const yearRng = new DemoRandom(seed, `sped-finance/${district.fed_id}/${fiscalYear}`);
      const enrollment = real.total_enrollment;
      const totalRevenue = real.total_revenue;
      const totalExpenditures = real.total_expenditures;
      const federalRevenue = real.federal_revenue;
      const childCount = Math.max(1, Math.round(enrollment * (spedRate + yearRng.float(-0.004, 0.004))));
      const revenueShare = Math.round(totalRevenue * yearRng.float(0.008, 0.018));
      const ideaRevenue = federalRevenue === null ? revenueShare : Math.min(revenueShare, Math.floor(Math.max(0, federalRevenue) * 0.45));
      const spedCurrent = Math.round(totalExpenditures * yearRng.float(0.09, 0.14));
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
