/**
 * Per-request loaders for operators. Each batch is one statement over all keys, one result per key
 * in key order (src/db/batch.ts); a merged id resolves to the operator it became.
 */
import DataLoader from "dataloader";
import { byKeys } from "../../../db/batch";
import type { Db } from "../../../db/client";
import { loadOperatorsByIds, type OperatorRow } from "./operator.service";

export function createOperatorLoaders(db: Db) {
  return {
    byId: new DataLoader<string, OperatorRow | null>(async (ids) => byKeys(ids, await loadOperatorsByIds(db, ids), (r) => r.__key)),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    operators: ReturnType<typeof createOperatorLoaders>;
  }
}
