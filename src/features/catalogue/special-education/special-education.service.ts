/**
 * The special_education_finance envelope (district) and parent_district_special_education_finance
 * (school), built from the rows the blocks read (special-education.blocks.ts). History is gated like
 * annual statistics.
 */
import { blockDataSource } from "../../kits/common/data-source";
import { FINANCE_CAVEAT, yearSeriesBlock } from "../statistics/statistics.service";
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
  // data_source from every row, gated or not: a free plan's one-year trend still says where the series is from.
  return { data_source: blockDataSource(rows), ...yearSeriesBlock(rows, historyOpen, FINANCE_CAVEAT) };
}

/** Null when the school has no parent district on record. */
export function parentDistrictSpecialEducationFinance(
  finance: DistrictFinanceRows | null,
  historyOpen: boolean,
): ParentDistrictSpecialEducationFinance | null {
  if (!finance) return null;
  return { district_id: finance.district_id, district_name: finance.district_name, ...specialEducationFinance(finance.rows, historyOpen) };
}
