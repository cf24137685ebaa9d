import { ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../graphql/fields";

@ObjectType({ description: "A project of the caller's organization: a name and an ideal-customer profile (GET /projects)." })
export class Project {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("json", { description: "The ideal-customer profile: a JSON object as it was given, or null." })
  icp: Record<string, unknown> | null;
  @Col("datetime", { required: true }) created_at: Timestamp;
}
