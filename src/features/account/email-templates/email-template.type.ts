import { ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

/** One of the caller's organization's e-mail templates (GET /org/email-templates; docs/outreach.md). */
@ObjectType()
export class EmailTemplate {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true }) purpose: string;
  @Col("string", { required: true }) subject: string;
  @Col("string", { required: true }) body: string;
  @Col("bool", { required: true }) builtin: boolean;
  @Col("datetime", { required: true }) created_at: Timestamp;
}
