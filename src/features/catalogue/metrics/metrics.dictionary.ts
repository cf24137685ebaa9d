/** Field dictionary: the metrics catalogue. */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const metricsDictionary: Dictionary = {
  MetricEntityType: {
    [TYPE]: "Which records a metric query runs over.",
    district: "Districts (district_annual_stats and assessments).",
    school: "Schools (school_annual_stats and assessments).",
  },
  MetricCatalogueEntry: {
    [TYPE]: "A metric allowed in metric_query for one entity type (GET /metrics).",
    metric: "The name to use in metric_query.",
    type: "JSON type of the metric's values: integer or number.",
    source: "Where the values come from: annual_statistics or assessment.",
    years: "School years (school_year_start) in which some record has a value, ascending.",
  },
  Query: {
    "metrics(entityType)": "district or school.",
    metrics: "The metrics metric_query accepts for an entity type, with the years present (GET /metrics).",
  },
};
