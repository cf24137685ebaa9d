import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, Info, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { addNotices } from "../../../graphql/notices";
import { UUIDScalar } from "../../../graphql/scalars";
import { checkFedId, type PageOf } from "../../kits/common/list-kit";
import { selectionAt, selectionOf } from "../../kits/common/selection";
import { DistrictListArgs } from "./district.inputs";
import { listDistricts, type DistrictRow } from "./district.service";
import { District, DistrictPage } from "./district.type";

/** District queries. The nested blocks of District are block field resolvers (src/features/kits/blocks/). */
@Resolver(() => District)
export class DistrictResolver {
  @Query(() => DistrictPage)
  async districts(
    @Args(() => DistrictListArgs) args: DistrictListArgs,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ): Promise<PageOf<DistrictRow>> {
    const page = await listDistricts(ctx.db, ctx.viewer, args, selectionAt(selectionOf(info), "data"));
    for (const row of page.data) ctx.loaders.districts.byId.prime(row.id, row);
    addNotices(ctx, page.notices);
    return page;
  }

  @Query(() => District, { nullable: true })
  district(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<DistrictRow | null> {
    return ctx.loaders.districts.byId.load(id);
  }

  @Query(() => District, { nullable: true })
  async districtByFedId(@Arg("fedId") fedId: string, @Ctx() ctx: Context): Promise<DistrictRow | null> {
    const id = await ctx.loaders.districts.idByFedId.load(checkFedId("fed_id", fedId, 7));
    return id ? ctx.loaders.districts.byId.load(id) : null;
  }
}
