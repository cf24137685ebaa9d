import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context";
import { UUIDScalar } from "../../graphql/scalars";
import type { PageOf } from "../common/list-kit";
import { FollowInput, FollowListArgs } from "./follow.inputs";
import { follow, listProjectFollows, unfollow } from "./follow.service";
import { Follow, FollowOutcome, FollowPage } from "./follow.type";

@Resolver(() => Follow)
export class FollowResolver {
  @Mutation(() => FollowOutcome, {
    description: "A project follows a district or school (POST /api/v1/follows); free plans within FREE_FOLLOW_SLOTS, else FOLLOW_LIMIT.",
  })
  follow(@Arg("input", () => FollowInput) input: FollowInput, @Ctx() ctx: Context): Promise<FollowOutcome> {
    return follow(ctx.db, ctx.viewer, input, ctx.env);
  }

  @Mutation(() => Follow, {
    description: "Unfollows: unfollowed_at and slot_released_at set, the slot given back (DELETE /api/v1/follows/{id}).",
  })
  unfollow(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<Follow> {
    return unfollow(ctx.db, ctx.viewer, id);
  }

  @Query(() => FollowPage, {
    description: "A project's follows, active ones unless includeUnfollowed (GET /api/v1/projects/{id}/follows).",
  })
  projectFollows(
    @Arg("projectId", () => UUIDScalar) projectId: string,
    @Args(() => FollowListArgs) args: FollowListArgs,
    @Ctx() ctx: Context,
  ): Promise<PageOf<Follow>> {
    return listProjectFollows(ctx.db, ctx.viewer, projectId, args);
  }
}
