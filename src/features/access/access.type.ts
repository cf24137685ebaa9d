import { Field, Float, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../graphql/fields";

@ObjectType({ description: "What the caller's organization may see of a gated record, and what unlocking costs." })
export class Access {
  @Col("bool", { required: true }) is_unlocked: boolean;
  @Col("bool", { required: true }) is_unlocking: boolean;
  @Col("datetime") unlocked_at: Timestamp | null;
  @Field(() => Float, { name: "creditsSpent" }) credits_spent: number;
  @Field(() => Float, { name: "unlockCost" }) unlock_cost: number;
}
