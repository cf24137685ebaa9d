/**
 * Per-request district loader: each batch is one statement over all keys, one result per key in key
 * order (src/db/batch.ts). The districts' blocks have their own loaders (src/features/kits/blocks/).
 */
import DataLoader from "dataloader";
import { byKeys } from "../../../db/batch";
import type { Db } from "../../../db/client";
import type { Viewer } from "../../account/auth/viewer";
import { loadDistrictIdsByFedIds, loadDistrictsByIds, type DistrictRow } from "./district.service";

export function createDistrictLoaders(db: Db, viewer: Viewer) {
  return {
    byId: new DataLoader<string, DistrictRow | null>(async (ids) => byKeys(ids, await loadDistrictsByIds(db, viewer, ids), (r) => r.id)),
    /** NCES id -> district id (GET /districts/by-fed-id/{fed_id}); the record is then read by id. */
    idByFedId: new DataLoader<string, string | null>((fedIds) => loadDistrictIdsByFedIds(db, fedIds)),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    districts: ReturnType<typeof createDistrictLoaders>;
  }
}
