/**
 * Per-request school loaders: by id, and District.schools pages. Each batch is one statement over all
 * keys, one result per key in key order (src/db/batch.ts). The schools' blocks have their own loaders
 * (src/features/kits/blocks/).
 */
import DataLoader from "dataloader";
import { byKeys } from "../../../db/batch";
import type { Db } from "../../../db/client";
import type { Viewer } from "../../account/auth/viewer";
import { pageLoaders } from "../../kits/common/list-kit";
import type { DistrictSchoolsArgs } from "./school.inputs";
import { loadSchoolIdsByFedIds, loadSchoolsByIds, loadSchoolPagesOfDistricts, type SchoolRow } from "./school.service";

export function createSchoolLoaders(db: Db, viewer: Viewer) {
  const byId = new DataLoader<string, SchoolRow | null>(async (ids) => byKeys(ids, await loadSchoolsByIds(db, viewer, ids), (r) => r.id));
  return {
    byId,
    /** NCES id -> school id (GET /schools/by-fed-id/{fed_id}); the record is then read by id. */
    idByFedId: new DataLoader<string, string | null>((fedIds) => loadSchoolIdsByFedIds(db, fedIds)),
    /** The page of each district's schools for the given paging: one statement for all districts asked. */
    ofDistrict: pageLoaders(byId, (args: DistrictSchoolsArgs, districtIds) => loadSchoolPagesOfDistricts(db, viewer, districtIds, args)),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    schools: ReturnType<typeof createSchoolLoaders>;
  }
}
