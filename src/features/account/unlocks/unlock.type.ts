import { Field, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

@ObjectType()
export class UnlockResult {
  @Col("string", { required: true }) entity_type: string;
  @Col("uuid", { required: true }) entity_id: string;
  @Col("string", { required: true }) outcome: string;
  @Col("bool", { required: true }) unlocked: boolean;
  @Col("bool", { required: true }) already_unlocked: boolean;
  @Col("float", { required: true }) credits_charged: number;
  @Col("float", { required: true }) credits_held: number;
  @Col("float", { required: true }) credits_remaining: number;
  @Col("uuid") hold_id: string | null;
  @Col("string", { required: true }) operation_key: string;
  @Col("string") job_id: string | null;
  @Col("string", { required: true }) message: string;
}

@ObjectType()
export class UnlockItemError {
  @Col("string", { required: true }) error: string;
  @Col("string", { required: true }) message: string;
  @Col("float") balance?: number | null;
  @Col("float") required?: number | null;
  @Col("string") parent_entity_type?: string | null;
  @Col("uuid") parent_entity_id?: string | null;
  @Col("float") unlock_cost?: number | null;
}

@ObjectType()
export class UnlockBatchItem {
  @Col("int", { required: true }) status_code: number;
  @Field(() => UnlockResult, { nullable: true }) result: UnlockResult | null;
  @Field(() => UnlockItemError, { nullable: true }) error: UnlockItemError | null;
}

@ObjectType()
export class UnlockPayload {
  @Col("int", { required: true }) status_code: number;
  @Field(() => UnlockResult, { nullable: true }) result: UnlockResult | null;
  @Field(() => [UnlockBatchItem], { nullable: true }) results: UnlockBatchItem[] | null;
}

@ObjectType()
export class UnlockStatus {
  @Col("string", { required: true }) entity_type: string;
  @Col("uuid", { required: true }) entity_id: string;
  @Col("string", { required: true }) state: string;
  @Col("string") job_id: string | null;
  @Col("uuid") hold_id: string | null;
  @Col("datetime") started_at: Timestamp | null;
  @Col("datetime") finished_at: Timestamp | null;
  @Col("string") error: string | null;
  @Col("int", { required: true }) attempts: number;
}
