import { ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

@ObjectType()
export class TimelineEvent {
  @Col("uuid", { required: true }) id: string;
  @Col("uuid", { required: true }) entity_id: string;
  @Col("string", { required: true }) entity_type: string;
  @Col("date", { required: true }) event_date: string;
  @Col("string", {
    required: true,
  })
  event_type: string;
  @Col("string", { required: true }) title: string;
  @Col("string") description: string | null;
  @Col("string") source_url: string | null;
  @Col("datetime", { required: true }) created_at: Timestamp;
}
