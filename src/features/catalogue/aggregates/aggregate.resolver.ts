import { Args, Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { addNotices } from "../../../graphql/notices";
import { DISTRICTS } from "../districts/district.service";
import { SCHOOLS } from "../schools/school.service";
import { DistrictAggregateArgs, SchoolAggregateArgs } from "./aggregate.inputs";
import { aggregateRecords } from "./aggregate.service";
import { AggregateSummary } from "./aggregate.type";

/** Summaries of the district and school lists (GET /districts/summary, /schools/summary). */
@Resolver()
export class AggregateResolver {
  @Query(() => AggregateSummary)
  async districtAggregates(@Args(() => DistrictAggregateArgs) args: DistrictAggregateArgs, @Ctx() ctx: Context): Promise<AggregateSummary> {
    const result = await aggregateRecords(ctx.db, ctx.viewer, DISTRICTS, args);
    addNotices(ctx, result.notices);
    return { data: result.data };
  }

  @Query(() => AggregateSummary)
  async schoolAggregates(@Args(() => SchoolAggregateArgs) args: SchoolAggregateArgs, @Ctx() ctx: Context): Promise<AggregateSummary> {
    const result = await aggregateRecords(ctx.db, ctx.viewer, SCHOOLS, args);
    addNotices(ctx, result.notices);
    return { data: result.data };
  }
}
