import { Field, Float, Int, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

@ObjectType()
export class Access {
  @Col("bool", { required: true }) is_unlocked: boolean;
  @Col("bool", { required: true }) is_unlocking: boolean;
  @Col("datetime") unlocked_at: Timestamp | null;
  @Field(() => Float, { name: "creditsSpent" }) credits_spent: number;
  @Field(() => Float, { name: "unlockCost" }) unlock_cost: number;
}

@ObjectType()
export class AccessSummary {
  @Field(() => Int, { name: "totalResults" }) total_results: number;
  @Field(() => Int) unlocked: number;
  @Field(() => Int, { name: "lockedProcessed" }) locked_processed: number;
  @Field(() => Int, { name: "lockedUnprocessed" }) locked_unprocessed: number;
  @Field(() => Float, { name: "unlockAllCost" }) unlock_all_cost: number;
}
