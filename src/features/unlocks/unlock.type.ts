import { Field, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../graphql/fields";

@ObjectType({ description: "The outcome of unlocking one entity (POST /unlock)." })
export class UnlockResult {
  @Col("string", { required: true }) entity_type: string;
  @Col("uuid", { required: true }) entity_id: string;
  @Col("string", { required: true, description: "unlocked, idempotent or unlock_pending." }) outcome: string;
  @Col("bool", { required: true }) unlocked: boolean;
  @Col("bool", { required: true }) already_unlocked: boolean;
  @Col("float", { required: true }) credits_charged: number;
  @Col("float", { required: true }) credits_held: number;
  @Col("float", { required: true, description: "Available credits after this unlock." }) credits_remaining: number;
  @Col("uuid") hold_id: string | null;
  @Col("string", { required: true }) operation_key: string;
  @Col("string") job_id: string | null;
  @Col("string", { required: true }) message: string;
}

@ObjectType({ description: "A batch item that failed: the error body of a single unlock." })
export class UnlockItemError {
  @Col("string", { required: true }) error: string;
  @Col("string", { required: true }) message: string;
  @Col("float") balance?: number | null;
  @Col("float") required?: number | null;
  @Col("string") parent_entity_type?: string | null;
  @Col("uuid") parent_entity_id?: string | null;
  @Col("float") unlock_cost?: number | null;
}

@ObjectType({ description: "One item of a batch unlock: its result or its error." })
export class UnlockBatchItem {
  @Col("int", { required: true }) status_code: number;
  @Field(() => UnlockResult, { nullable: true }) result: UnlockResult | null;
  @Field(() => UnlockItemError, { nullable: true }) error: UnlockItemError | null;
}

@ObjectType({ description: "POST /unlock: a single result (HTTP 200 or 202) or a batch's results (HTTP 200)." })
export class UnlockPayload {
  @Col("int", { required: true, description: "The HTTP status REST answers." }) status_code: number;
  @Field(() => UnlockResult, { nullable: true }) result: UnlockResult | null;
  @Field(() => [UnlockBatchItem], { nullable: true }) results: UnlockBatchItem[] | null;
}

@ObjectType({ description: "Progress of an organization's unlock of one entity (GET /unlock-status/{entityType}/{entityId})." })
export class UnlockStatus {
  @Col("string", { required: true }) entity_type: string;
  @Col("uuid", { required: true }) entity_id: string;
  @Col("string", { required: true, description: "locked, unlock_pending, unlocked or failed." }) state: string;
  @Col("string") job_id: string | null;
  @Col("uuid") hold_id: string | null;
  @Col("datetime") started_at: Timestamp | null;
  @Col("datetime") finished_at: Timestamp | null;
  @Col("string") error: string | null;
}
