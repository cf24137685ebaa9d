import { Field, InputType, registerEnumType } from "type-graphql";
import { UUIDScalar } from "../../../graphql/scalars";
import { ListArgs, type ListArgsOf } from "../../kits/common/list-kit";
import { FollowEntityType } from "./follow.type";

export const FOLLOW_MAX_LIMIT = 200;

/** POST /follows body (spec: all three required). */
@InputType()
export class FollowInput {
  @Field(() => UUIDScalar) projectId: string;
  @Field(() => FollowEntityType) entityType: FollowEntityType;
  @Field(() => UUIDScalar) entityId: string;
}

export enum FollowOrderField {
  followed_at = "followed_at",
  created_at = "created_at",
}
registerEnumType(FollowOrderField, { name: "FollowOrderField" });

@InputType()
export class FollowFilter {
  @Field({ nullable: true })
  includeUnfollowed?: boolean;
  @Field(() => FollowEntityType, { nullable: true }) entityType?: FollowEntityType;
}

/** The arguments of `projectFollows` (GET /projects/{id}/follows) beside the project id. */
export const FollowListArgs = ListArgs({
  filter: FollowFilter,
  orderBy: { type: FollowOrderField, default: FollowOrderField.followed_at },
  maxLimit: FOLLOW_MAX_LIMIT,
});
export type FollowListArgs = ListArgsOf<FollowFilter, FollowOrderField>;
