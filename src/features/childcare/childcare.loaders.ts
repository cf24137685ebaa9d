/** Per-request loaders for childcare centers and their people: one statement per batch, results in key order. */
import DataLoader from "dataloader";
import { byKeys, groupByKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import { loadChildcareCentersByIds, loadChildcarePeople } from "./childcare.service";
import type { ChildcareCenter, ChildcarePerson } from "./childcare.type";

export function createChildcareLoaders(db: Db) {
  return {
    byId: new DataLoader<string, ChildcareCenter | null>(async (ids) => byKeys(ids, await loadChildcareCentersByIds(db, ids), (r) => r.id)),
    people: new DataLoader<string, ChildcarePerson[]>(async (ids) =>
      groupByKeys(ids, await loadChildcarePeople(db, ids), (r) => r.center_id),
    ),
  };
}
