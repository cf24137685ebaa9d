import { Field, Int, ObjectType, registerEnumType } from "type-graphql";
import { Col } from "../../graphql/fields";

export enum MetricEntityType {
  district = "district",
  school = "school",
}
registerEnumType(MetricEntityType, { name: "MetricEntityType", description: "Which records a metric query runs over." });

@ObjectType({ description: "A metric allowed in metric_query for one entity type (GET /metrics)." })
export class MetricCatalogueEntry {
  @Col("string", { required: true, description: "The name to use in metric_query." }) metric: string;
  @Col("string", { required: true, description: "integer or number." }) type: string;
  @Col("string", { required: true, description: "Where the values come from: annual_statistics or assessment." }) source: string;
  @Field(() => [Int], { description: "School years (school_year_start) in which some record has a value, ascending." }) years: number[];
}
