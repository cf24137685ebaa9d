import { Field, Int, ObjectType, registerEnumType } from "type-graphql";
import { Col } from "../../../graphql/fields";

export enum MetricEntityType {
  district = "district",
  school = "school",
}
registerEnumType(MetricEntityType, { name: "MetricEntityType" });

@ObjectType()
export class MetricCatalogueEntry {
  @Col("string", { required: true }) metric: string;
  @Col("string", { required: true }) type: string;
  @Col("string", { required: true }) source: string;
  @Field(() => [Int]) years: number[];
}
