/**
 * Per-request contact loaders: by id, and a page of contacts per parent (District.contacts,
 * School.contacts). Each batch is one statement over all keys, one result per key in key order
 * (src/db/batch.ts); rows of parent pages are primed into `byId`.
 */
import DataLoader from "dataloader";
import { byKeys } from "../../../db/batch";
import type { Db } from "../../../db/client";
import type { Viewer } from "../../account/auth/viewer";
import { pageLoaders } from "../../kits/common/list-kit";
import type { ParentContactsArgsOf } from "./contact.inputs";
import { loadContactPagesOfParents, loadContactsByIds, type ContactParentKind, type ContactRow } from "./contact.service";

export function createContactLoaders(db: Db, viewer: Viewer) {
  const byId = new DataLoader<string, ContactRow | null>(async (ids) => byKeys(ids, await loadContactsByIds(db, viewer, ids), (r) => r.id));
  /** One loader per distinct paging in this request (usually one) for each parent kind. */
  const pagesOf = (parent: ContactParentKind) =>
    pageLoaders(byId, (args: ParentContactsArgsOf, parentIds) => loadContactPagesOfParents(db, viewer, parent, parentIds, args));
  return {
    byId,
    /** The page of each district's contacts (district and school level) for the given paging: one statement for all districts asked. */
    ofDistrict: pagesOf("district"),
    /** The page of each school's contacts for the given paging: one statement for all schools asked. */
    ofSchool: pagesOf("school"),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    contacts: ReturnType<typeof createContactLoaders>;
  }
}
