import { parse } from "graphql";
import { definedOnly, oneOf, type McpToolSpec } from "../../../graphql/mcp-tool";
import { AGGREGATE_MAX_ITEMS } from "./aggregate.inputs";
import { AGGREGATE_STATS } from "./aggregate.service";
import { AggregateGroupKey } from "./aggregate.type";

const SUMMARY = (entity: "district" | "school") => {
  const [name, field, Filter] =
    entity === "district"
      ? ["McpDistrictAggregates", "districtAggregates", "DistrictFilter"]
      : ["McpSchoolAggregates", "schoolAggregates", "SchoolFilter"];
  return parse(`
  query ${name}($filter: ${Filter}, $metricQuery: String, $groupBy: [AggregateGroupKey!], $aggregates: [String!], $year: String) {
    ${field}(filter: $filter, metricQuery: $metricQuery, groupBy: $groupBy, aggregates: $aggregates, year: $year) {
      data { group count values }
    }
  }`);
};
const DOCUMENTS = { district: SUMMARY("district"), school: SUMMARY("school") };
const ENTITY_TYPES = ["district", "school"] as const;

/** The MCP face of GET /districts/summary and /schools/summary. */
export const aggregateTools: McpToolSpec[] = [
  {
    name: "summarize",
    title: "Summarize districts or schools",
    description:
      "Grouped statistics of metric values over the district or school list's filters, as GET /api/v1/districts/summary and " +
      "/schools/summary: e.g. the sum of enrollment by state. Each group has its key values, its record count and each requested " +
      "stat:metric (metrics: the metrics tool). Groups are sorted by their keys.",
    inputSchema: {
      type: "object",
      properties: {
        entityType: { type: "string", enum: [...ENTITY_TYPES], description: "district or school." },
        filter: { type: "object", description: "The list's filters (as the search tool takes them)." },
        metricQuery: { type: "string", description: 'Metric query JSON with "filters" only (docs/metric-query.md).' },
        groupBy: {
          type: "array",
          items: { type: "string", enum: Object.values(AggregateGroupKey) },
          maxItems: Object.values(AggregateGroupKey).length,
          description: "Keys to group by, each once, in sort order; for schools district_type is the school's district's.",
        },
        aggregates: {
          type: "array",
          items: { type: "string" },
          maxItems: AGGREGATE_MAX_ITEMS,
          description: `stat:metric items, stat one of ${AGGREGATE_STATS.join(", ")}, e.g. sum:total_enrollment.`,
        },
        year: { type: "string", description: "A school_year_start (e.g. 2023) or latest (default)." },
      },
      required: ["entityType"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["entityType", "filter", "metricQuery", "groupBy", "aggregates", "year"],
    required: ["entityType"],
    plan: (args) => {
      const entity = oneOf("summarize", "entityType", args.entityType, ENTITY_TYPES);
      return {
        document: DOCUMENTS[entity],
        variables: definedOnly({
          filter: args.filter,
          metricQuery: args.metricQuery,
          groupBy: args.groupBy,
          aggregates: args.aggregates,
          year: args.year,
        }),
        // Executed as REST operations are: response keys in snake_case.
        shape: (data) => data[entity === "district" ? "district_aggregates" : "school_aggregates"] as Record<string, unknown>,
      };
    },
  },
];
