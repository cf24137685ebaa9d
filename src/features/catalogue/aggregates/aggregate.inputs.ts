import { ArgsType, Extensions, Field, type ClassType } from "type-graphql";
import { metricQueryCost, METRIC_SCAN_ROWS } from "../metrics/metric-query";
import { DistrictFilter } from "../districts/district.inputs";
import { SchoolFilter } from "../schools/school.inputs";
import { AggregateGroupKey } from "./aggregate.type";

/** The arguments of a summary: the list's own filter and metric query, plus what to group and compute. */
export interface AggregateArgs<F> {
  filter?: F | null;
  metricQuery?: string | null;
  groupBy?: AggregateGroupKey[] | null;
  aggregates?: string[] | null;
  year?: string | null;
}

/** At most this many `stat:metric` items: each reads its metric for every filtered record (and counts in the query cost). */
export const AGGREGATE_MAX_ITEMS = 20;

/**
 * Each `stat:metric` reads its metric for every record the filters leave, like a metric-query filter: one
 * lookup per record, counted as METRIC_SCAN_ROWS records (docs/metric-query.md, Cost). A list over the cap
 * costs 0 here and is refused by the service with a 400 naming `aggregates`, not as a cost.
 */
function aggregatesCost(value: unknown): number {
  const items = Array.isArray(value) ? value.length : value == null ? 0 : 1;
  return items > AGGREGATE_MAX_ITEMS ? 0 : items * METRIC_SCAN_ROWS;
}

/** The summary's arguments over a list's filter type (the filter is the list's, declared once by defineList). */
function aggregateArgs<F extends object>(Filter: ClassType<F>): ClassType<AggregateArgs<F>> {
  @ArgsType()
  class Args implements AggregateArgs<F> {
    @Field(() => Filter, { nullable: true }) filter?: F | null;
    // Filters only: a summary has no page to select values into or to sort.
    @Field(() => String, { nullable: true })
    @Extensions({ argumentCost: (value: unknown) => metricQueryCost(value, 1) })
    metricQuery?: string | null;
    @Field(() => [AggregateGroupKey], { nullable: true }) groupBy?: AggregateGroupKey[] | null;
    @Field(() => [String], { nullable: true })
    @Extensions({ argumentCost: aggregatesCost })
    aggregates?: string[] | null;
    @Field(() => String, { nullable: true, defaultValue: "latest" }) year?: string | null;
  }
  return Args;
}

export const DistrictAggregateArgs = aggregateArgs(DistrictFilter);
export type DistrictAggregateArgs = AggregateArgs<DistrictFilter>;
export const SchoolAggregateArgs = aggregateArgs(SchoolFilter);
export type SchoolAggregateArgs = AggregateArgs<SchoolFilter>;
