import { defineFeature } from "../../../graphql/feature";
import type { JobDefinition } from "../../../jobs/job";
import { briefsDictionary } from "./brief.dictionary";
import { buildBriefJob } from "./brief.jobs";
import { BriefResolver, PromotedContactResolver } from "./brief.resolver";

/** Deep-research briefs of a project's district or school, and promoting their people (docs/briefs.md). */
export const briefsFeature = defineFeature({
  name: "briefs",
  resolvers: [BriefResolver, PromotedContactResolver],
  jobs: [buildBriefJob as JobDefinition<never>],
  dictionary: briefsDictionary,
});
