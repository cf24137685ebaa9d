/**
 * Per-request loaders for districts and their blocks. Each batch is one statement over all keys of
 * the page, and returns one result per key in key order (src/db/batch.ts).
 */
import DataLoader from "dataloader";
import { byKeys, groupByKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import type { Viewer } from "../auth/viewer";
import type { BreakdownRowData } from "../statistics/statistics.service";
import { loadDistrictsByIds, type DistrictRow } from "./district.service";

export interface DistrictStatRow extends Record<string, unknown> {
  district_id: string;
  school_year_start: number;
}

export function createDistrictLoaders(db: Db, viewer: Viewer) {
  return {
    byId: new DataLoader<string, DistrictRow | null>(async (ids) => byKeys(ids, await loadDistrictsByIds(db, viewer, ids), (r) => r.id)),
    annualStats: new DataLoader<string, DistrictStatRow[]>(async (ids) => {
      const rows = await db.query<DistrictStatRow>(
        `SELECT * FROM district_annual_stats WHERE district_id = ANY($1::uuid[]) ORDER BY district_id, school_year_start`,
        [ids],
      );
      return groupByKeys(ids, rows, (r) => r.district_id);
    }),
    breakdowns: new DataLoader<string, (BreakdownRowData & { district_id: string })[]>(async (ids) => {
      const rows = await db.query<BreakdownRowData & { district_id: string }>(
        `SELECT district_id, school_year_start, breakdown_key, category, subgroup, value, value_status, source_version, source_url
           FROM district_stat_breakdowns WHERE district_id = ANY($1::uuid[])
          ORDER BY district_id, breakdown_key, school_year_start, category, subgroup`,
        [ids],
      );
      return groupByKeys(ids, rows, (r) => r.district_id);
    }),
  };
}

export type DistrictLoaders = ReturnType<typeof createDistrictLoaders>;
