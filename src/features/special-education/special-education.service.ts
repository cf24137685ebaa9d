/**
 * The special_education_finance envelope (district) and parent_district_special_education_finance
 * (school), built from rows the loader fetched. History is gated like annual statistics.
 */
import { FINANCE_CAVEAT, gateSeries } from "../statistics/statistics.service";
import type { ParentDistrictSpecialEducationFinance, SpecialEducationFinance } from "../statistics/statistics.type";
import type { DistrictFinanceRows } from "./special-education.loaders";

export function specialEducationFinance(finance: DistrictFinanceRows | null, historyOpen: boolean): SpecialEducationFinance {
  const rows = finance?.rows ?? [];
  return { latest: rows[rows.length - 1] ?? null, ...gateSeries(rows, historyOpen), caveat: FINANCE_CAVEAT };
}

/** Null when the school has no parent district on record. */
export function parentDistrictSpecialEducationFinance(
  finance: DistrictFinanceRows | null,
  historyOpen: boolean,
): ParentDistrictSpecialEducationFinance | null {
  if (!finance) return null;
  return { district_id: finance.district_id, district_name: finance.district_name, ...specialEducationFinance(finance, historyOpen) };
}
