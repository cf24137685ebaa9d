import { Field, Float, Int, ObjectType } from "type-graphql";
import { Col } from "../../../graphql/fields";

@ObjectType()
export class Credits {
  @Field(() => Float) balance: number;
  @Field(() => Float) held: number;
  @Field(() => Float) available: number;
}

@ObjectType()
export class FollowSlots {
  @Field(() => Int) used: number;
  @Field(() => Int, { nullable: true })
  limit: number | null;
}

@ObjectType()
export class Organization {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true }) plan: string;
  @Field(() => [String]) entitlements: string[];
  @Field(() => Credits) credits: Credits;
  @Field(() => FollowSlots, { name: "followSlots" }) follow_slots: FollowSlots;
}
