/** Per-request loaders for Head Start programs: one statement per batch, one result per key in key order. */
import DataLoader from "dataloader";
import { byKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import { loadHeadStartProgramsByIds } from "./head-start.service";
import type { HeadStartProgram } from "./head-start.type";

export function createHeadStartLoaders(db: Db) {
  return {
    byId: new DataLoader<string, HeadStartProgram | null>(async (ids) =>
      byKeys(ids, await loadHeadStartProgramsByIds(db, ids), (r) => r.id),
    ),
  };
}
