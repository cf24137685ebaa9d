/**
 * Special-education finance by district, one statement per page. Keyed by district id for both the
 * district's own block and a school's parent-district block, so a page mixing both still batches.
 */
import DataLoader from "dataloader";
import type { Db } from "../../db/client";
import { columnsOf } from "../../graphql/fields";
import { jsonRowsSql, rowDecoder } from "../common/json-rows";
import { SpecialEducationFinanceEntry } from "../statistics/statistics.type";

export interface DistrictFinanceRows {
  district_id: string;
  district_name: string;
  /** Ascending fiscal_year. */
  rows: SpecialEducationFinanceEntry[];
}

export function createSpecialEducationLoaders(db: Db) {
  return {
    byDistrict: new DataLoader<string, DistrictFinanceRows | null>(async (ids) => {
      // LEFT JOIN: a district without finance rows still answers (with its name and no rows).
      const rows = await db.query<SpecialEducationFinanceEntry & { __district_id: string; __district_name: string; id: string | null }>(
        `SELECT d.id AS __district_id, d.name AS __district_name, f.*
           FROM districts d LEFT JOIN special_education_finance f ON f.district_id = d.id
          WHERE d.id = ANY($1::uuid[])
          ORDER BY d.id, f.fiscal_year`,
        [ids],
      );
      const found = new Map<string, DistrictFinanceRows>();
      for (const row of rows) {
        let entry = found.get(row.__district_id);
        if (!entry)
          found.set(row.__district_id, (entry = { district_id: row.__district_id, district_name: row.__district_name, rows: [] }));
        if (row.id !== null) entry.rows.push(row);
      }
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}

const FINANCE_COLUMNS = columnsOf(SpecialEducationFinanceEntry);

/** The finance rows of the district row `alias` as a column of a list statement (json-rows), by fiscal year like the loader's. */
export const specialEducationPageSql = (alias: string): string =>
  jsonRowsSql("f", FINANCE_COLUMNS, `special_education_finance f WHERE f.district_id = ${alias}.id`, "f.fiscal_year");

export const decodeFinanceRows = rowDecoder<SpecialEducationFinanceEntry>(FINANCE_COLUMNS).all;

export type SpecialEducationLoaders = ReturnType<typeof createSpecialEducationLoaders>;
