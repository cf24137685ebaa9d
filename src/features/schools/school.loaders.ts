/**
 * Per-request school loaders: by id, and District.schools pages. Each batch is one statement over all
 * keys, one result per key in key order (src/db/batch.ts). The schools' blocks have their own loaders
 * (src/features/blocks/).
 */
import DataLoader from "dataloader";
import { byKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import type { Viewer } from "../auth/viewer";
import type { PageOf } from "../common/list-kit";
import type { DistrictSchoolsArgs } from "./school.inputs";
import { loadSchoolsByIds, loadSchoolPagesOfDistricts, type SchoolRow } from "./school.service";

export function createSchoolLoaders(db: Db, viewer: Viewer) {
  const byId = new DataLoader<string, SchoolRow | null>(async (ids) => byKeys(ids, await loadSchoolsByIds(db, viewer, ids), (r) => r.id));
  /** One loader per distinct paging of District.schools in this request (usually one). */
  const districtPages = new Map<string, DataLoader<string, PageOf<SchoolRow>>>();
  return {
    byId,
    /** The page of each district's schools for the given paging: one statement for all districts asked. */
    ofDistrict(args: DistrictSchoolsArgs): DataLoader<string, PageOf<SchoolRow>> {
      const key = JSON.stringify([args.orderBy ?? null, args.orderAscending ?? null, args.limit ?? null, args.offset ?? null]);
      let loader = districtPages.get(key);
      if (!loader) {
        loader = new DataLoader<string, PageOf<SchoolRow>>(async (districtIds) => {
          const pages = await loadSchoolPagesOfDistricts(db, viewer, districtIds, args);
          for (const page of pages) for (const row of page.data) byId.prime(row.id, row);
          return pages;
        });
        districtPages.set(key, loader);
      }
      return loader;
    },
  };
}
