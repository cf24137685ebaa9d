/**
 * District.specialEducationFinance and School.parentDistrictSpecialEducationFinance: a district's
 * finance rows by fiscal year, gated by the record's own history state (plan, or follow on free).
 */
import { columnsOf } from "../../../graphql/fields";
import { defineBlock } from "../../kits/blocks/block";
import { jsonRowsSql, rowDecoder } from "../../kits/common/json-rows";
import {
  ParentDistrictSpecialEducationFinance,
  SpecialEducationFinance,
  SpecialEducationFinanceEntry,
} from "../statistics/statistics.type";
import { parentDistrictSpecialEducationFinance, specialEducationFinance, type DistrictFinanceRows } from "./special-education.service";

const FINANCE_COLUMNS = columnsOf(SpecialEducationFinanceEntry);
const decodeFinanceRows = rowDecoder<SpecialEducationFinanceEntry>(FINANCE_COLUMNS).all;

/** SQL: the finance rows of the district `district` (an alias of a districts row), ascending fiscal year. */
const financeRowsSql = (district: string): string =>
  jsonRowsSql("sef", FINANCE_COLUMNS, `special_education_finance sef WHERE sef.district_id = ${district}.id`, "sef.fiscal_year");

export const specialEducationFinanceBlock = defineBlock({
  name: "special_education_finance",
  kinds: ["district"],
  sql: ({ record }) => financeRowsSql(record),
  decode: (json) => decodeFinanceRows(json as unknown[][] | null),
  fields: [
    {
      name: "specialEducationFinance",
      type: () => SpecialEducationFinance,
      shape: (rows, record) => specialEducationFinance(rows, record.__history_open),
    },
  ],
});

export const parentDistrictSpecialEducationFinanceBlock = defineBlock({
  name: "parent_district_special_education_finance",
  kinds: ["school"],
  // The school's district (none: NULL), its name and its finance rows.
  sql: ({ record }) =>
    `(SELECT json_build_array(pd.id, pd.name, ${financeRowsSql("pd")}) FROM districts pd WHERE pd.id = ${record}.district_id)`,
  decode: (json): DistrictFinanceRows | null => {
    const row = json as [string, string, unknown[][] | null] | null;
    return row && { district_id: row[0], district_name: row[1], rows: decodeFinanceRows(row[2]) };
  },
  fields: [
    {
      name: "parentDistrictSpecialEducationFinance",
      type: () => ParentDistrictSpecialEducationFinance,
      nullable: true,
      shape: (finance, record) => parentDistrictSpecialEducationFinance(finance, record.__history_open),
    },
  ],
});
