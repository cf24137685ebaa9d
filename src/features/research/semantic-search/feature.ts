import { HTTP_DICTIONARY } from "../../../graphql/dictionary/http";
import { defineFeature } from "../../../graphql/feature";
import type { JobDefinition } from "../../../jobs/job";
import { semanticSearchDictionary } from "./semantic-search.dictionary";
import { semanticSearchJobs } from "./semantic-search.jobs";
import { semanticSearchTools } from "./semantic-search.mcp";
import { SemanticSearchResolver } from "./semantic-search.resolver";

/** POST /semantic-search, GraphQL semanticSearch, the MCP tool semantic_search and the background embedding job. */
export const semanticSearchFeature = defineFeature({
  name: "semantic-search",
  dictionary: semanticSearchDictionary,
  resolvers: [SemanticSearchResolver],
  jobs: semanticSearchJobs as JobDefinition<never>[],
  rest: [
    {
      method: "POST",
      path: "/semantic-search",
      operation: "SemanticSearch",
      input: "json-body",
      select: ["semantic_search"],
      respond: (result) => ({
        status: 200,
        body: {
          data: result.districts ?? result.schools ?? result.contacts ?? [],
          relevance: result.relevance,
          matches: result.matches,
          coverage: result.coverage,
          _access_summary: result._access_summary,
        },
      }),
      responses: {
        200: {
          description:
            "The records found, best first (`data`: districts, schools or contacts as entity_type says), with relevance, matches and coverage.",
          body: {
            object: {
              data: { oneOf: [{ select: ["districts"] }, { select: ["schools"] }, { select: ["contacts"] }] },
              relevance: { select: ["relevance"] },
              matches: { select: ["matches"] },
              coverage: { select: ["coverage"] },
              _access_summary: { select: ["_access_summary"] },
            },
            descriptions: { data: HTTP_DICTIONARY.SemanticSearchResponse.data },
          },
        },
      },
      errors: ["INSUFFICIENT_CREDITS"],
    },
  ],
  mcp: semanticSearchTools,
});
