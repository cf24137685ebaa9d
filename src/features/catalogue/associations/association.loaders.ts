/**
 * Per-request loaders for associations, each keyed by association id: the record, its people, and the
 * sections under it (one loader per `limit` asked). One statement per batch (a page's people or sections
 * are one read), results in key order (src/db/batch.ts).
 */
import DataLoader from "dataloader";
import { byKeys } from "../../../db/batch";
import type { Db } from "../../../db/client";
import { checkLimit, relationLoaders } from "../../kits/common/list-kit";
import { ASSOCIATION_NESTED_DEFAULT_LIMIT, ASSOCIATION_NESTED_MAX_LIMIT, type AssociationNestedArgs } from "./association.inputs";
import { loadAssociationPeople, loadAssociationsByIds, loadAssociationSections } from "./association.service";
import type { Association, AssociationPerson } from "./association.type";

export function createAssociationLoaders(db: Db) {
  return {
    byId: new DataLoader<string, Association | null>(async (ids) => byKeys(ids, await loadAssociationsByIds(db, ids), (r) => r.id)),
    /** Each association's people, at most `limit` (one loader per limit asked in the request). */
    people: relationLoaders<AssociationNestedArgs, AssociationPerson[]>(
      (args) => async (ids) =>
        loadAssociationPeople(db, ids, checkLimit(args, ASSOCIATION_NESTED_MAX_LIMIT, ASSOCIATION_NESTED_DEFAULT_LIMIT)),
    ),
    /** The sections under each association, at most `limit`. */
    sections: relationLoaders<AssociationNestedArgs, Association[]>(
      (args) => async (ids) =>
        loadAssociationSections(db, ids, checkLimit(args, ASSOCIATION_NESTED_MAX_LIMIT, ASSOCIATION_NESTED_DEFAULT_LIMIT)),
    ),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    associations: ReturnType<typeof createAssociationLoaders>;
  }
}
