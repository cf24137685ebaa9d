/**
 * Per-request loaders for associations, each keyed by association id: the record, its people, and the
 * sections under it. One statement per batch (a page's people or sections are one read), results in key
 * order (src/db/batch.ts).
 */
import DataLoader from "dataloader";
import { byKeys, groupByKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import { loadAssociationPeople, loadAssociationsByIds, loadAssociationSections } from "./association.service";
import type { Association, AssociationPerson } from "./association.type";

export function createAssociationLoaders(db: Db) {
  return {
    byId: new DataLoader<string, Association | null>(async (ids) => byKeys(ids, await loadAssociationsByIds(db, ids), (r) => r.id)),
    people: new DataLoader<string, AssociationPerson[]>(async (ids) =>
      groupByKeys(ids, await loadAssociationPeople(db, ids), (r) => r.association_id),
    ),
    sections: new DataLoader<string, Association[]>(async (ids) =>
      groupByKeys(ids, await loadAssociationSections(db, ids), (r) => r.parent_association_id!),
    ),
  };
}
