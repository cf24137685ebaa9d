/**
 * The special_education_finance envelope (district) and parent_district_special_education_finance
 * (school), built from the rows the blocks read (special-education.blocks.ts). History is gated like
 * annual statistics.
 */
import { FINANCE_CAVEAT, gateSeries } from "../statistics/statistics.service";
import type {
  ParentDistrictSpecialEducationFinance,
  SpecialEducationFinance,
  SpecialEducationFinanceEntry,
} from "../statistics/statistics.type";

/** A district and its finance rows (ascending fiscal_year). */
export interface DistrictFinanceRows {
  district_id: string;
  district_name: string;
  rows: SpecialEducationFinanceEntry[];
}

export function specialEducationFinance(rows: SpecialEducationFinanceEntry[], historyOpen: boolean): SpecialEducationFinance {
  const series = gateSeries(rows, historyOpen);
  return {
    latest: rows[rows.length - 1] ?? null,
    trend: series.trend,
    history_gated: series.history_gated,
    history_years_available: series.history_years_available,
    caveat: FINANCE_CAVEAT,
  };
}

/** Null when the school has no parent district on record. */
export function parentDistrictSpecialEducationFinance(
  finance: DistrictFinanceRows | null,
  historyOpen: boolean,
): ParentDistrictSpecialEducationFinance | null {
  if (!finance) return null;
  return { district_id: finance.district_id, district_name: finance.district_name, ...specialEducationFinance(finance.rows, historyOpen) };
}
