/** Field dictionary: summaries (GET /districts/summary, /schools/summary; docs/aggregates.md). */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { AGGREGATE_MAX_ITEMS } from "./aggregate.inputs";
import { AGGREGATE_STATS } from "./aggregate.service";

const args = (field: string, entity: "district" | "school", Filter: string): Record<string, string> => ({
  [`${field}(filter)`]: `Which ${entity}s to summarize (${Filter}, the list's filters); omitted: all.`,
  [`${field}(metricQuery)`]:
    `Metric query JSON (contract section 8) with "filters" only; its lookups count in the query cost (docs/limits.md). ` +
    `On the free plan, years history gating withholds read as null (docs/metric-query.md).`,
  [`${field}(groupBy)`]:
    `Keys to group by, at most once each, in sort order: state, locale, district_type, county` +
    (entity === "school" ? " (district_type: the school's district's)." : ".") +
    " Omitted: one group of every matching record.",
  [`${field}(aggregates)`]:
    `stat:metric items, at most ${AGGREGATE_MAX_ITEMS}, each once; stat one of ${AGGREGATE_STATS.join(", ")}; metric from ` +
    `GET /metrics?entity_type=${entity}. Each counts ${"10,000"} in the query cost.`,
  [`${field}(year)`]:
    "A school year (school_year_start, four digits) or latest (default: each record's own latest year with the metric). " +
    "History-gated as the metric query: on the free plan an unfollowed record's value of another year is null.",
});

export const aggregatesDictionary: Dictionary = {
  AggregateGroupKey: {
    [TYPE]: "What a summary groups records by.",
    state: "State abbreviation of the record.",
    locale: "NCES locale bucket (city, suburban, town, rural; first digit of the locale code); null without a locale code.",
    district_type: "Federal district type (NCES LEA type text); for schools, that of the school's district.",
    county: "County name as stored on the record.",
  },
  AggregateGroup: {
    [TYPE]: "One group of a summary.",
    group: "The group's key values by group_by key ({} without group_by); null for records without a value.",
    count: "Records of the group (after every filter).",
    values:
      "Each requested stat:metric over the group's records that have a value (null when none does): " +
      "count counts them, median is percentile_cont(0.5). JSON numbers.",
  },
  AggregateSummary: {
    [TYPE]: "A summary of a list: its groups, sorted by their keys (byte order, nulls last).",
    data: "The groups; one group (possibly of 0 records) without group_by, no group when nothing matches a grouping.",
  },
  Query: {
    districtAggregates: "Statistics of district metrics over the district list's filters, grouped (GET /districts/summary).",
    ...args("districtAggregates", "district", "DistrictFilter"),
    schoolAggregates: "Statistics of school metrics over the school list's filters, grouped (GET /schools/summary).",
    ...args("schoolAggregates", "school", "SchoolFilter"),
  },
};
