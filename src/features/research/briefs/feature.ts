import { HTTP_DICTIONARY } from "../../../graphql/dictionary/http";
import { defineFeature } from "../../../graphql/feature";
import { briefTools } from "./brief.mcp";
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
  rest: [
    {
      method: "POST",
      path: "/briefs",
      operation: "RequestBrief",
      input: "json-body",
      select: ["request_brief"],
      respond: (payload) => ({ status: payload.started ? 202 : 200, body: payload }),
      responses: {
        202: { description: "A build started; poll the URL in poll.", body: { select: [] } },
        200: { description: "The ready brief, or the build already in flight, of the pair (no second build).", body: { select: [] } },
      },
      errors: ["FORBIDDEN"],
    },
    { method: "GET", path: "/briefs", operation: "BriefOfPair", input: "query", select: [] },
    {
      method: "GET",
      path: "/briefs/:brief_id",
      operation: "BriefById",
      input: "none",
      select: ["brief_by_id"],
      respond: (brief) => ({ status: 200, body: { brief } }),
      responses: {
        200: {
          description: "The brief (the poll URL of POST /briefs).",
          body: { object: { brief: { select: [] } }, descriptions: { brief: HTTP_DICTIONARY.BriefPollResponse.brief } },
        },
      },
    },
    {
      method: "POST",
      path: "/briefs/:brief_id/people/:person_key/promote",
      operation: "PromoteBriefPerson",
      input: "none",
      select: ["promote_brief_person"],
      respond: (payload) => ({ status: payload.created ? 201 : 200, body: { data: payload.contact } }),
      responses: {
        201: { description: "The person is now a contact record of the organization.", body: { select: ["contact"], wrap: true } },
        200: {
          description: "The person was promoted before: the same record (linked now if the catalogue lists the person).",
          body: { select: ["contact"], wrap: true },
        },
      },
    },
  ],
  mcp: briefTools,
});
