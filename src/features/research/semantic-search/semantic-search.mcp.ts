import { parse } from "graphql";
import { definedOnly, MCP_ACCESS, oneOf, type McpToolSpec } from "../../../graphql/mcp-tool";

const ENTITIES = ["district", "school", "contact"] as const;

const SEARCH = parse(`
  mutation McpSemanticSearch($input: SemanticSearchInput!) {
    semanticSearch(input: $input) {
      entityType
      districts { id fedId name state physicalCity studentCount localeType aiSummary ${MCP_ACCESS} }
      schools { id fedId name state physicalCity districtId studentCount gradeLevels ${MCP_ACCESS} }
      contacts { id name title state districtId schoolId email phone ${MCP_ACCESS} }
      relevance
      matches
      coverage { embedded total }
      _accessSummary { totalResults unlocked lockedProcessed lockedUnprocessed unlockAllCost }
    }
  }`);

/** The MCP face of POST /semantic-search. */
export const semanticSearchTools: McpToolSpec[] = [
  {
    name: "semantic_search",
    title: "Search districts, schools or contacts by meaning",
    description:
      "Natural-language search (1 credit per search), as POST /api/v1/semantic-search: e.g. 'rural districts in Nebraska with high " +
      "poverty', 'board minutes about replacing Chromebooks', 'superintendent of a large Florida district'. Returns the best records " +
      "first with their relevance (0-1), the passages that matched (content, source_type, url, source_id) and how much of the catalogue " +
      "has vectors (coverage). Gated fields stay null unless the record is unlocked. Errors: insufficient_credits, bad_request.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 2, description: "What to find, in plain words (at least 2 characters)." },
        entity_type: { type: "string", enum: [...ENTITIES], description: "What to return." },
        state: { type: "string", description: "Two-letter state abbreviation." },
        district_id: { type: "string", format: "uuid", description: "Schools or contacts of this district." },
        school_id: { type: "string", format: "uuid", description: "Contacts of this school." },
        limit: { type: "integer", minimum: 1, maximum: 500, description: "Results, 1 to 500 (default 50)." },
      },
      required: ["query", "entity_type"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    args: ["query", "entity_type", "state", "district_id", "school_id", "limit"],
    required: ["query", "entity_type"],
    plan(args) {
      const entityType = oneOf("semantic_search", "entity_type", args.entity_type, ENTITIES);
      const input = definedOnly({
        query: args.query,
        entityType,
        state: args.state,
        districtId: args.district_id,
        schoolId: args.school_id,
        limit: args.limit,
      });
      return {
        document: SEARCH,
        variables: { input },
        shape: (data) => {
          const r = data.semantic_search as Record<string, unknown>;
          const records = r.districts ?? r.schools ?? r.contacts;
          return { data: records, relevance: r.relevance, matches: r.matches, coverage: r.coverage, _access_summary: r._access_summary };
        },
      };
    },
  },
];
