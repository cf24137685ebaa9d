/** Per-request loaders for Head Start programs: one statement per batch, one result per key in key order. */
import DataLoader from "dataloader";
import { byKeys } from "../../../db/batch";
import type { Db } from "../../../db/client";
import { pageLoaders } from "../../kits/common/list-kit";
import type { HeadStartListArgs } from "./head-start.inputs";
import { loadHeadStartPagesOf, loadHeadStartProgramsByIds, type HeadStartParent } from "./head-start.service";
import type { HeadStartProgram } from "./head-start.type";

export function createHeadStartLoaders(db: Db) {
  const byId = new DataLoader<string, HeadStartProgram | null>(async (ids) =>
    byKeys(ids, await loadHeadStartProgramsByIds(db, ids), (r) => r.id),
  );
  const pagesOf = (parent: HeadStartParent) =>
    pageLoaders(byId, (args: HeadStartListArgs, parentIds) => loadHeadStartPagesOf(db, parent, parentIds, args));
  return {
    byId,
    /** A page of each district's district-run programs, keyed by district id: one statement per batch. */
    ofDistrict: pagesOf("district"),
    /** A page of each grant program's delegates, keyed by program id. */
    delegatesOf: pagesOf("parentProgram"),
    /** A page of each (live) operator's programs, keyed by operator id. */
    ofOperator: pagesOf("operator"),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    headStart: ReturnType<typeof createHeadStartLoaders>;
  }
}
