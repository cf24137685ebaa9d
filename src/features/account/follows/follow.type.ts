import { Field, ObjectType, registerEnumType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { Page } from "../../kits/common/list-kit";

export enum FollowEntityType {
  district = "district",
  school = "school",
}
registerEnumType(FollowEntityType, { name: "FollowEntityType" });

@ObjectType()
export class Follow {
  @Col("uuid", { required: true }) id: string;
  @Col("uuid", { required: true }) project_id: string;
  @Col(() => FollowEntityType, { required: true }) entity_type: FollowEntityType;
  @Col("uuid", { required: true }) entity_id: string;
  @Col("datetime", { required: true }) followed_at: Timestamp;
  @Col("datetime") unfollowed_at: Timestamp | null;
  @Col("datetime")
  slot_released_at: Timestamp | null;
  @Col("datetime", { required: true }) created_at: Timestamp;
}

@ObjectType()
export class FollowOutcome {
  @Col("bool", { required: true }) created: boolean;
  @Field(() => Follow) follow: Follow;
}

/** The FOLLOW_LIMIT error body's `slots` (contract section 2). */
export interface FollowSlotUsage {
  used: number;
  limit: number;
  tier: string;
}

export const FollowPage = Page(Follow, "FollowPage");
