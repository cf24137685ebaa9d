import { ObjectType, registerEnumType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { UUIDScalar } from "../../../graphql/scalars";

export enum ListEntityType {
  district = "district",
  school = "school",
  contact = "contact",
}
registerEnumType(ListEntityType, { name: "ListEntityType" });

@ObjectType()
export class List {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col(() => ListEntityType, { required: true }) entity_type: ListEntityType;
  @Col("int", { required: true }) item_count: number;
  @Col(() => [UUIDScalar], {
    required: true,
  })
  entity_ids: string[];
  @Col("datetime", { required: true }) created_at: Timestamp;
}
