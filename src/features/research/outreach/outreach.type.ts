import { ObjectType } from "type-graphql";
import { Col } from "../../../graphql/fields";

/** The answer of POST /contacts/{id}/outreach-email (docs/outreach.md). */
@ObjectType()
export class OutreachEmail {
  @Col("string", { required: true }) subject: string;
  @Col("string", { required: true }) body: string;
  @Col("uuid", { required: true }) template_id: string;
  @Col("string", { required: true }) generator: string;
  @Col("string") model: string | null;
  @Col("bool", { required: true }) language_model_used: boolean;
  @Col("strings", { required: true }) missing_placeholders: string[];
  @Col("string", { required: true }) note: string;
}
