/**
 * Per-request loaders for schools and their blocks. Each batch is one statement over all keys of
 * the page, and returns one result per key in key order (src/db/batch.ts).
 */
import DataLoader from "dataloader";
import { byKeys, groupByKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import type { Viewer } from "../auth/viewer";
import type { BreakdownRowData } from "../statistics/statistics.service";
import { loadSchoolsByIds, loadSchoolPagesOfDistricts, type SchoolPage, type SchoolPageArgs, type SchoolRow } from "./school.service";

export interface SchoolStatRow extends Record<string, unknown> {
  school_id: string;
  school_year_start: number;
}

export function createSchoolLoaders(db: Db, viewer: Viewer) {
  const byId = new DataLoader<string, SchoolRow | null>(async (ids) => byKeys(ids, await loadSchoolsByIds(db, viewer, ids), (r) => r.id));
  /** One loader per distinct paging of District.schools in this request (usually one). */
  const districtPages = new Map<string, DataLoader<string, SchoolPage>>();
  return {
    byId,
    /** The page of each district's schools for the given paging: one statement for all districts asked. */
    ofDistrict(args: SchoolPageArgs): DataLoader<string, SchoolPage> {
      const key = JSON.stringify([args.orderBy ?? null, args.orderAscending ?? null, args.limit ?? null, args.offset ?? null]);
      let loader = districtPages.get(key);
      if (!loader) {
        loader = new DataLoader<string, SchoolPage>(async (districtIds) => {
          const pages = await loadSchoolPagesOfDistricts(db, viewer, districtIds, args);
          for (const page of pages) for (const row of page.data) byId.prime(row.id, row);
          return pages;
        });
        districtPages.set(key, loader);
      }
      return loader;
    },
    annualStats: new DataLoader<string, SchoolStatRow[]>(async (ids) => {
      const rows = await db.query<SchoolStatRow>(
        `SELECT * FROM school_annual_stats WHERE school_id = ANY($1::uuid[]) ORDER BY school_id, school_year_start`,
        [ids],
      );
      return groupByKeys(ids, rows, (r) => r.school_id);
    }),
    breakdowns: new DataLoader<string, (BreakdownRowData & { school_id: string })[]>(async (ids) => {
      const rows = await db.query<BreakdownRowData & { school_id: string }>(
        `SELECT school_id, school_year_start, breakdown_key, category, subgroup, value, value_status, source_version, source_url
           FROM school_stat_breakdowns WHERE school_id = ANY($1::uuid[])
          ORDER BY school_id, breakdown_key, school_year_start, category, subgroup`,
        [ids],
      );
      return groupByKeys(ids, rows, (r) => r.school_id);
    }),
  };
}

export type SchoolLoaders = ReturnType<typeof createSchoolLoaders>;
