import { ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

@ObjectType()
export class Project {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("json")
  icp: Record<string, unknown> | null;
  @Col("datetime", { required: true }) created_at: Timestamp;
}
