import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import type { PageOf } from "../../kits/common/list-kit";
import { FollowInput, FollowListArgs } from "./follow.inputs";
import { follow, listProjectFollows, unfollow } from "./follow.service";
import { Follow, FollowOutcome, FollowPage } from "./follow.type";

@Resolver(() => Follow)
export class FollowResolver {
  @Mutation(() => FollowOutcome)
  follow(@Arg("input", () => FollowInput) input: FollowInput, @Ctx() ctx: Context): Promise<FollowOutcome> {
    return follow(ctx.db, ctx.viewer, input, ctx.env);
  }

  @Mutation(() => Follow)
  unfollow(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<Follow> {
    return unfollow(ctx.db, ctx.viewer, id, ctx.env);
  }

  @Query(() => FollowPage)
  projectFollows(
    @Arg("projectId", () => UUIDScalar) projectId: string,
    @Args(() => FollowListArgs) args: FollowListArgs,
    @Ctx() ctx: Context,
  ): Promise<PageOf<Follow>> {
    return listProjectFollows(ctx.db, ctx.viewer, projectId, args);
  }
}
