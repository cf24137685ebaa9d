import { defineFeature } from "../../../graphql/feature";
import type { JobDefinition } from "../../../jobs/job";
import { opportunitiesDictionary } from "./opportunity.dictionary";
import { opportunityJobs } from "./opportunity.jobs";
import { createOpportunityLoaders } from "./opportunity.loaders";
import { opportunityTools } from "./opportunity.mcp";
import { OpportunityResolver, ProjectOpportunitiesResolver } from "./opportunity.resolver";

/** Agent-written sales opportunities of a project, their verification and windows (docs/opportunities.md). */
export const opportunitiesFeature = defineFeature({
  name: "opportunities",
  resolvers: [OpportunityResolver, ProjectOpportunitiesResolver],
  loaders: { opportunities: createOpportunityLoaders },
  jobs: opportunityJobs as JobDefinition<never>[],
  dictionary: opportunitiesDictionary,
  rest: [
    { method: "GET", path: "/opportunities", operation: "Opportunities", input: "query", select: ["opportunities"] },
    { method: "GET", path: "/opportunities/:id", operation: "Opportunity", input: "query", select: ["opportunity"], wrap: true },
    {
      method: "GET",
      path: "/opportunities/:id/verification",
      operation: "OpportunityVerification",
      input: "query",
      select: ["opportunity_verification"],
    },
    {
      method: "POST",
      path: "/opportunities/:id/refresh",
      operation: "RefreshOpportunity",
      input: "none",
      select: ["refresh_opportunity"],
      status: 202,
    },
  ],
  mcp: opportunityTools,
});
