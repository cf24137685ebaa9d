import { Field, Float, Int, ObjectType } from "type-graphql";
import { Col } from "../../graphql/fields";

@ObjectType({ description: "Credits of an organization (contract section 5): available = balance - held." })
export class Credits {
  @Field(() => Float, { description: "Credits owned, open holds included." }) balance: number;
  @Field(() => Float, { description: "Credits reserved by open holds (pending unlocks)." }) held: number;
  @Field(() => Float, { description: "Credits that can be spent now." }) available: number;
}

@ObjectType({
  description:
    "Follow slots: entities the organization follows (one slot each, however many of its projects follow it) and its plan's limit.",
})
export class FollowSlots {
  @Field(() => Int) used: number;
  @Field(() => Int, { nullable: true, description: "null: unlimited (paid plans); FREE_FOLLOW_SLOTS on the free plan." })
  limit: number | null;
}

@ObjectType({ description: "The caller's organization (GET /org)." })
export class Organization {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true, description: "free, pro, enterprise or internal." }) plan: string;
  @Field(() => [String], { description: "Module names, e.g. signals." }) entitlements: string[];
  @Field(() => Credits) credits: Credits;
  @Field(() => FollowSlots, { name: "followSlots" }) follow_slots: FollowSlots;
}
