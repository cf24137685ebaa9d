import { defineFeature } from "../../../graphql/feature";
import { metricsDictionary } from "./metrics.dictionary";
import { MetricsResolver } from "./metrics.resolver";

/** The metrics catalogue (GET /metrics); metric queries run inside the district and school lists. */
export const metricsFeature = defineFeature({
  name: "metrics",
  dictionary: metricsDictionary,
  resolvers: [MetricsResolver],
  rest: [{ method: "GET", path: "/metrics", operation: "Metrics", input: "query", select: ["metrics"], wrap: true }],
});
