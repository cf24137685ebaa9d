/** Per-request opportunity loaders: by id, and a page per project (Project.opportunities); each batch is one statement. */
import DataLoader from "dataloader";
import type { Db } from "../../../db/client";
import type { Viewer } from "../../account/auth/viewer";
import { pageLoaders } from "../../kits/common/list-kit";
import type { OpportunityListArgs } from "./opportunity.inputs";
import { loadOpportunitiesByIds, loadOpportunityPagesOfProjects, type OpportunityRow } from "./opportunity.service";

export function createOpportunityLoaders(db: Db, viewer: Viewer) {
  const byId = new DataLoader<string, OpportunityRow | null>((ids) => loadOpportunitiesByIds(db, viewer, ids));
  return {
    byId,
    /** The page of each project's opportunities for the given arguments. */
    ofProject: pageLoaders(byId, (args: OpportunityListArgs, projectIds) => loadOpportunityPagesOfProjects(db, viewer, args, projectIds)),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    opportunities: ReturnType<typeof createOpportunityLoaders>;
  }
}
