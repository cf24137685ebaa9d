import { defineFeature } from "../../../graphql/feature";
import { aggregatesDictionary } from "./aggregate.dictionary";
import { aggregateTools } from "./aggregate.mcp";
import { AggregateResolver } from "./aggregate.resolver";

/** Summaries: GET /districts/summary, /schools/summary (docs/aggregates.md). */
export const aggregatesFeature = defineFeature({
  name: "aggregates",
  resolvers: [AggregateResolver],
  dictionary: aggregatesDictionary,
  rest: [
    { method: "GET", path: "/districts/summary", operation: "DistrictAggregates", input: "query", select: ["district_aggregates"] },
    { method: "GET", path: "/schools/summary", operation: "SchoolAggregates", input: "query", select: ["school_aggregates"] },
  ],
  mcp: aggregateTools,
});
