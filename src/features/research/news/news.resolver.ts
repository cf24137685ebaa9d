import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import type { DistrictRow } from "../../catalogue/districts/district.service";
import { District } from "../../catalogue/districts/district.type";
import type { SchoolRow } from "../../catalogue/schools/school.service";
import { School } from "../../catalogue/schools/school.type";
import { FeedArgs } from "./news.inputs";
import { listFeed, requireSignals, type FeedPage } from "./news.service";
import { NewsArticle, NewsArticlePage } from "./news.type";

/** The feed: `signals` (GET /signals, the signals module), `news` and `newsArticle` (GET /news, /news/{id}: the organization's scope). */
@Resolver(() => NewsArticle)
export class NewsResolver {
  @Query(() => NewsArticlePage)
  signals(@Args(() => FeedArgs) args: FeedArgs, @Ctx() ctx: Context): Promise<FeedPage> {
    requireSignals(ctx.viewer, ctx.env.SALES_CONTACT);
    return listFeed(ctx.db, { kind: "all" }, args);
  }

  @Query(() => NewsArticlePage)
  news(@Args(() => FeedArgs) args: FeedArgs, @Ctx() ctx: Context): Promise<FeedPage> {
    return listFeed(ctx.db, { kind: "scoped", organizationId: ctx.viewer.organizationId }, args);
  }

  @Query(() => NewsArticle, { nullable: true })
  newsArticle(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<NewsArticle | null> {
    return ctx.loaders.news.scopedArticle.load(id);
  }
}

/** District.signals: the feed within the district (the news feature owns signals, so it adds the relation). */
@Resolver(() => District)
export class DistrictSignalsResolver {
  @FieldResolver(() => NewsArticlePage)
  signals(@Root() district: DistrictRow, @Args(() => FeedArgs) args: FeedArgs, @Ctx() ctx: Context): Promise<FeedPage> {
    return ctx.loaders.news.ofDistrict(args).load(district.id);
  }
}

/** School.signals: the feed within the school. */
@Resolver(() => School)
export class SchoolSignalsResolver {
  @FieldResolver(() => NewsArticlePage)
  signals(@Root() school: SchoolRow, @Args(() => FeedArgs) args: FeedArgs, @Ctx() ctx: Context): Promise<FeedPage> {
    return ctx.loaders.news.ofSchool(args).load(school.id);
  }
}
