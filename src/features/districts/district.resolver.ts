import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Info, Int, ObjectType, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context";
import { prefetched } from "../../graphql/fields";
import { UUIDScalar } from "../../graphql/scalars";
import { Pagination } from "../common/common.type";
import { selectionAt, selectionOf } from "../common/selection";
import { DistrictAnnualStatistics } from "../statistics/statistics.type";
import { DistrictFilter, DistrictOrderField } from "./district.inputs";
import { listDistricts, type DistrictRow } from "./district.service";
import { District } from "./district.type";
import { districtBlockColumns, prefetchDistrictBlocks } from "./district-blocks";
import { districtAnnualStatistics } from "./district-statistics";

@ObjectType()
export class DistrictPage {
  @Field(() => [District]) data: District[];
  @Field(() => Pagination) pagination: Pagination;
}

@ArgsType()
export class DistrictListArgsType {
  @Field(() => DistrictFilter, { nullable: true }) filter?: DistrictFilter;
  @Field(() => DistrictOrderField, { nullable: true, defaultValue: DistrictOrderField.name }) orderBy?: DistrictOrderField;
  @Field({ nullable: true, defaultValue: true }) orderAscending?: boolean;
  @Field(() => Int, { nullable: true, defaultValue: 50, description: "1 to 200." }) limit?: number;
  @Field(() => Int, { nullable: true, defaultValue: 0 }) offset?: number;
  @Field({ nullable: true, description: "Metric query JSON (contract section 8), at most 16,000 characters." }) metricQuery?: string;
}

@Resolver(() => District)
export class DistrictResolver {
  @Query(() => DistrictPage, { description: "Search districts. Same filters as GET /api/v1/districts." })
  async districts(@Args() args: DistrictListArgsType, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo): Promise<DistrictPage> {
    const record = selectionAt(selectionOf(info), "data");
    const page = await listDistricts(ctx.db, ctx.viewer, args, districtBlockColumns(record, "d"));
    for (const row of page.data) ctx.loaders.districts.byId.prime(row.id, row);
    await prefetchDistrictBlocks(ctx, page.data, record);
    return page;
  }

  @Query(() => District, { nullable: true })
  district(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<DistrictRow | null> {
    return ctx.loaders.districts.byId.load(id);
  }

  @FieldResolver(() => DistrictAnnualStatistics)
  async annualStatistics(@Root() district: DistrictRow, @Ctx() ctx: Context): Promise<DistrictAnnualStatistics> {
    const ready = prefetched<DistrictAnnualStatistics>(district, "annualStatistics");
    return ready ?? districtAnnualStatistics(district, await ctx.loaders.districts.annualStats.load(district.id));
  }
}
