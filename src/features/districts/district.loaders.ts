/**
 * Per-request district loader: each batch is one statement over all keys, one result per key in key
 * order (src/db/batch.ts). The districts' blocks have their own loaders (src/features/blocks/).
 */
import DataLoader from "dataloader";
import { byKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import type { Viewer } from "../auth/viewer";
import { loadDistrictsByIds, type DistrictRow } from "./district.service";

export function createDistrictLoaders(db: Db, viewer: Viewer) {
  return {
    byId: new DataLoader<string, DistrictRow | null>(async (ids) => byKeys(ids, await loadDistrictsByIds(db, viewer, ids), (r) => r.id)),
  };
}
