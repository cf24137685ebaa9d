/**
 * Per-request contact loaders: by id, and a page of contacts per parent (District.contacts,
 * School.contacts). Each batch is one statement over all keys, one result per key in key order
 * (src/db/batch.ts); rows of parent pages are primed into `byId`.
 */
import DataLoader from "dataloader";
import { byKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import type { Viewer } from "../auth/viewer";
import type { ParentContactsArgsOf } from "./contact.inputs";
import {
  loadContactPagesOfParents,
  loadContactsByIds,
  type ContactPageOf,
  type ContactParentKind,
  type ContactRow,
} from "./contact.service";

export function createContactLoaders(db: Db, viewer: Viewer) {
  const byId = new DataLoader<string, ContactRow | null>(async (ids) => byKeys(ids, await loadContactsByIds(db, viewer, ids), (r) => r.id));
  /** One loader per parent kind and distinct paging in this request (usually one each). */
  const parentPages = new Map<string, DataLoader<string, ContactPageOf>>();
  const ofParent = (parent: ContactParentKind, args: ParentContactsArgsOf): DataLoader<string, ContactPageOf> => {
    const key = JSON.stringify([
      parent,
      args.orderBy ?? null,
      args.orderAscending ?? null,
      args.limit ?? null,
      args.offset ?? null,
      args.unique ?? null,
    ]);
    let loader = parentPages.get(key);
    if (!loader) {
      loader = new DataLoader<string, ContactPageOf>(async (parentIds) => {
        const pages = await loadContactPagesOfParents(db, viewer, parent, parentIds, args);
        for (const page of pages) for (const row of page.data) byId.prime(row.id, row);
        return pages;
      });
      parentPages.set(key, loader);
    }
    return loader;
  };
  return {
    byId,
    /** The page of each district's contacts (district and school level) for the given paging: one statement for all districts asked. */
    ofDistrict: (args: ParentContactsArgsOf) => ofParent("district", args),
    /** The page of each school's contacts for the given paging: one statement for all schools asked. */
    ofSchool: (args: ParentContactsArgsOf) => ofParent("school", args),
  };
}
