import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { addNotices } from "../../../graphql/notices";
import { UUIDScalar } from "../../../graphql/scalars";
import { District } from "../districts/district.type";
import type { DistrictRow } from "../districts/district.service";
import { checkFedId, type PageOf } from "../../kits/common/list-kit";
import { selectionAt, selectionOf } from "../../kits/common/selection";
import { SchoolListArgs } from "./school.inputs";
import { UpdateSchoolInput } from "./school-update.inputs";
import { listSchools, type SchoolRow } from "./school.service";
import { updateSchool } from "./school-update.service";
import { School, SchoolPage } from "./school.type";

/** School queries and School.district. The nested blocks of School are block field resolvers (src/features/kits/blocks/). */
@Resolver(() => School)
export class SchoolResolver {
  @Query(() => SchoolPage)
  async schools(
    @Args(() => SchoolListArgs) args: SchoolListArgs,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ): Promise<PageOf<SchoolRow>> {
    const page = await listSchools(ctx.db, ctx.viewer, args, selectionAt(selectionOf(info), "data"));
    for (const row of page.data) ctx.loaders.schools.byId.prime(row.id, row);
    addNotices(ctx, page.notices);
    return page;
  }

  @Query(() => School, { nullable: true })
  school(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<SchoolRow | null> {
    return ctx.loaders.schools.byId.load(id);
  }

  @Query(() => School, { nullable: true })
  async schoolByFedId(@Arg("fedId") fedId: string, @Ctx() ctx: Context): Promise<SchoolRow | null> {
    const id = await ctx.loaders.schools.idByFedId.load(checkFedId("fed_id", fedId, 12));
    return id ? ctx.loaders.schools.byId.load(id) : null;
  }

  @Mutation(() => School)
  async updateSchool(
    @Arg("id", () => UUIDScalar) id: string,
    @Arg("input", () => UpdateSchoolInput) input: UpdateSchoolInput,
    @Ctx() ctx: Context,
  ): Promise<SchoolRow> {
    const row = await updateSchool(ctx.db, ctx.viewer, id, input);
    ctx.loaders.schools.byId.clear(id).prime(id, row);
    return row;
  }

  @FieldResolver(() => District, { nullable: true })
  async district(@Root() school: SchoolRow, @Ctx() ctx: Context): Promise<DistrictRow | null> {
    return school.district_id ? ctx.loaders.districts.byId.load(school.district_id) : null;
  }
}
