/**
 * Builds the annual_statistics and special_education_finance envelopes from a record's rows (read by
 * the blocks, statistics.blocks.ts). Pure and synchronous.
 * History gating (contract section 4): on the free plan, unless the entity is followed, trends hold
 * only the latest year and say `history_gated: true`.
 */
import type {
  BreakdownHistory,
  BreakdownYear,
  DistrictAnnualStatistics,
  DistrictStatisticsEntry,
  SchoolAnnualStatistics,
  SchoolStatisticsEntry,
} from "./statistics.type";

export const STATISTICS_CAVEAT =
  "Each entry holds what the federal sources report for that school year. Sources publish on different " +
  "schedules (directory, membership, staff, SAIPE poverty, F-33 finance), so the latest entry can lack " +
  "fields a prior year has; latest_finance is the latest entry with finance data. Suppressed or missing " +
  "values are null, with the reason in the matching *_status field where one exists.";

const SCHOOL_STATISTICS_CAVEAT =
  "Each entry holds what the federal sources report for that school year. Sources publish on different " +
  "schedules (directory, membership, staff, school characteristics, free and reduced-price lunch), so the " +
  "latest entry can lack fields a prior year has. Suppressed or missing values are null, with the reason in " +
  "the matching *_status field where one exists.";

export const FINANCE_CAVEAT =
  "Special-education finance combines F-33 finance with IDEA child counts for the same fiscal year; " +
  "per-student figures divide by the IDEA child count. Null where a source lacks the year.";

/** Gate a year-ascending series: the latest item only, unless history is open. */
export function gateSeries<T>(
  rows: readonly T[],
  historyOpen: boolean,
): { trend: T[]; history_gated: boolean; history_years_available: number } {
  const gated = !historyOpen && rows.length > 1;
  return { trend: gated ? rows.slice(-1) : [...rows], history_gated: !historyOpen, history_years_available: rows.length };
}

export interface BreakdownRowData {
  school_year_start: number;
  breakdown_key: string;
  category: string;
  subgroup: string;
  value: number | null;
  value_status: string | null;
  source_version: string | null;
  source_url: string | null;
}

/** Groups one entity's breakdown rows (ordered by key, year) into per-key year series. */
export function breakdownSeries(rows: readonly BreakdownRowData[], keys: readonly string[]): Map<string, BreakdownYear[]> {
  const series = new Map<string, BreakdownYear[]>(keys.map((k) => [k, []]));
  for (const row of rows) {
    const years = series.get(row.breakdown_key);
    if (!years) continue;
    let year = years[years.length - 1];
    if (!year || year.school_year_start !== row.school_year_start) {
      year = { school_year_start: row.school_year_start, source_version: row.source_version, source_url: row.source_url, rows: [] };
      years.push(year);
    }
    year.rows.push({ category: row.category, subgroup: row.subgroup, value: row.value, value_status: row.value_status });
  }
  return series;
}

export function latestBreakdowns(series: Map<string, BreakdownYear[]>): Record<string, BreakdownYear | null> {
  const out: Record<string, BreakdownYear | null> = {};
  for (const [key, years] of series) out[key] = years[years.length - 1] ?? null;
  return out;
}

export function breakdownHistories(series: Map<string, BreakdownYear[]>, historyOpen: boolean): Record<string, BreakdownHistory> {
  const out: Record<string, BreakdownHistory> = {};
  for (const [key, years] of series) out[key] = gateSeries(years, historyOpen);
  return out;
}

const FINANCE_MARKERS = ["finance_fiscal_year", "total_revenue", "total_expenditures", "current_expenditures"] as const;

/** The latest entry that carries finance data. */
export function latestFinance<T extends Partial<Record<(typeof FINANCE_MARKERS)[number], unknown>>>(rows: readonly T[]): T | null {
  for (let i = rows.length - 1; i >= 0; i -= 1) {
    if (FINANCE_MARKERS.some((column) => rows[i][column] != null)) return rows[i];
  }
  return null;
}

export const DISTRICT_BREAKDOWN_KEYS = ["enrollment_grade", "enrollment_race_sex", "staff_category", "idea_disability"] as const;
export const SCHOOL_BREAKDOWN_KEYS = ["enrollment_grade", "enrollment_race_sex"] as const;

/** A district's annual_statistics block from its entries (ascending school year). */
export function districtAnnualStatistics(rows: DistrictStatisticsEntry[], historyOpen: boolean): DistrictAnnualStatistics {
  return { ...yearSeriesBlock(rows, historyOpen, STATISTICS_CAVEAT), latest_finance: latestFinance(rows) };
}

/** A school's annual_statistics block (no latest_finance). */
export function schoolAnnualStatistics(rows: SchoolStatisticsEntry[], historyOpen: boolean): SchoolAnnualStatistics {
  return yearSeriesBlock(rows, historyOpen, SCHOOL_STATISTICS_CAVEAT);
}

/** A block over a year-ascending series: the latest entry, the (gated) trend and the caveat. */
export function yearSeriesBlock<T>(rows: readonly T[], historyOpen: boolean, caveat: string) {
  const series = gateSeries(rows, historyOpen);
  return {
    latest: rows[rows.length - 1] ?? null,
    trend: series.trend,
    history_gated: series.history_gated,
    history_years_available: series.history_years_available,
    caveat,
  };
}
