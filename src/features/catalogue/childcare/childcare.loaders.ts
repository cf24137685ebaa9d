/** Per-request loaders for childcare centers and their people: one statement per batch, results in key order. */
import DataLoader from "dataloader";
import { byKeys, groupByKeys } from "../../../db/batch";
import type { Db } from "../../../db/client";
import { pageLoaders } from "../../kits/common/list-kit";
import type { ChildcareListArgs } from "./childcare.inputs";
import { loadChildcareCentersByIds, loadChildcarePagesOfOperators, loadChildcarePeople } from "./childcare.service";
import type { ChildcareCenter, ChildcarePerson } from "./childcare.type";

export function createChildcareLoaders(db: Db) {
  const byId = new DataLoader<string, ChildcareCenter | null>(async (ids) =>
    byKeys(ids, await loadChildcareCentersByIds(db, ids), (r) => r.id),
  );
  return {
    byId,
    /** A page of each operator's centers, keyed by operator id: one statement per batch. */
    ofOperator: pageLoaders(byId, (args: ChildcareListArgs, operatorIds) => loadChildcarePagesOfOperators(db, operatorIds, args)),
    people: new DataLoader<string, ChildcarePerson[]>(async (ids) =>
      groupByKeys(ids, await loadChildcarePeople(db, ids), (r) => r.center_id),
    ),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    childcare: ReturnType<typeof createChildcareLoaders>;
  }
}
