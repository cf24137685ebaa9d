import { Field, ObjectType, registerEnumType } from "type-graphql";
import { Col } from "../../../graphql/fields";

/** What a summary groups records by (group_by); aggregate.service.ts maps each to its SQL per entity. */
export enum AggregateGroupKey {
  state = "state",
  locale = "locale",
  district_type = "district_type",
  county = "county",
}
registerEnumType(AggregateGroupKey, { name: "AggregateGroupKey" });

/** One group of a summary: its key values, its record count, and each requested `stat:metric`. */
@ObjectType()
export class AggregateGroup {
  @Col("json", { required: true }) group: Record<string, string | null>;
  @Col("int", { required: true }) count: number;
  @Col("json", { required: true }) values: Record<string, number | null>;
}

/** GET /districts/summary, /schools/summary: `{ data: [group, ...] }`, groups sorted by their keys. */
@ObjectType()
export class AggregateSummary {
  @Field(() => [AggregateGroup]) data: AggregateGroup[];
}
