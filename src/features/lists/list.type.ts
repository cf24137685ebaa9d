import { ObjectType, registerEnumType } from "type-graphql";
import { Col, type Timestamp } from "../../graphql/fields";
import { UUIDScalar } from "../../graphql/scalars";

export enum ListEntityType {
  district = "district",
  school = "school",
  contact = "contact",
}
registerEnumType(ListEntityType, { name: "ListEntityType", description: "What a list holds." });

@ObjectType({
  description:
    "A list of the caller's organization: districts, schools or contacts by id (GET /api/v1/lists). " +
    "Use it as the list_id filter of GET /districts and GET /schools (district_list_ids of GET /schools) to read its records.",
})
export class List {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col(() => ListEntityType, { required: true }) entity_type: ListEntityType;
  @Col("int", { required: true, description: "How many entities the list holds." }) item_count: number;
  @Col(() => [UUIDScalar], {
    required: true,
    description: "The ids of the list's entities, first added first (ids added in one call: ascending).",
  })
  entity_ids: string[];
  @Col("datetime", { required: true }) created_at: Timestamp;
}
