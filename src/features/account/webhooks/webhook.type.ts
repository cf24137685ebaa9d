import { ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

/** A webhook of the caller's organization. `secret` is set only in the answer that created it. */
@ObjectType()
export class Webhook {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) url: string;
  @Col("strings", { required: true }) events: string[];
  @Col("string") secret: string | null;
  @Col("bool", { required: true }) enabled: boolean;
  @Col("int", { required: true }) consecutive_failures: number;
  @Col("datetime") disabled_at: Timestamp | null;
  @Col("string") disabled_reason: string | null;
  @Col("datetime", { required: true }) created_at: Timestamp;
}

/** One event sent (or being sent) to a webhook: the delivery log. */
@ObjectType()
export class WebhookDelivery {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) event: string;
  @Col("string", { required: true }) status: string;
  @Col("int", { required: true }) attempts: number;
  @Col("int") response_status: number | null;
  @Col("string") last_error: string | null;
  @Col("datetime") next_attempt_at: Timestamp | null;
  @Col("datetime") last_attempt_at: Timestamp | null;
  @Col("datetime") delivered_at: Timestamp | null;
  @Col("datetime", { required: true }) created_at: Timestamp;
}
