import { ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../graphql/fields";

@ObjectType({ description: "A dated event in a district's or school's timeline (board meeting, press release ...)." })
export class TimelineEvent {
  @Col("uuid", { required: true }) id: string;
  @Col("uuid", { required: true }) entity_id: string;
  @Col("string", { required: true, description: "district or school." }) entity_type: string;
  @Col("date", { required: true }) event_date: string;
  @Col("string", {
    required: true,
    description: "board_meeting, press_release, news, rfp_posted, budget_adopted, leadership_change, contract_award, grant_award.",
  })
  event_type: string;
  @Col("string", { required: true }) title: string;
  @Col("string") description: string | null;
  @Col("string") source_url: string | null;
  @Col("datetime", { required: true }) created_at: Timestamp;
}
