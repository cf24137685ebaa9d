import { Field, Float, Int, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../graphql/fields";

@ObjectType({ description: "Paging of a list response (every list has one)." })
export class Pagination {
  @Field(() => Int) total: number;
  @Field(() => Int) limit: number;
  @Field(() => Int) offset: number;
  @Col("bool", { required: true }) has_more: boolean;
}

@ObjectType({ description: "What the caller's organization may see of a gated record, and what unlocking costs." })
export class Access {
  @Col("bool", { required: true }) is_unlocked: boolean;
  @Col("bool", { required: true }) is_unlocking: boolean;
  @Col("datetime") unlocked_at: Timestamp | null;
  @Field(() => Float, { name: "creditsSpent" }) credits_spent: number;
  @Field(() => Float, { name: "unlockCost" }) unlock_cost: number;
}

export function pagination(total: number, limit: number, offset: number): Pagination {
  return { total, limit, offset, has_more: offset + limit < total };
}
