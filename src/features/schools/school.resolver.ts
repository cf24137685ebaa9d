import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context";
import { UUIDScalar } from "../../graphql/scalars";
import { District } from "../districts/district.type";
import type { DistrictRow } from "../districts/district.service";
import { SchoolAnnualStatistics } from "../statistics/statistics.type";
import { SchoolFilter, SchoolOrderField } from "./school.inputs";
import { UpdateSchoolInput } from "./school-update.inputs";
import { listSchools, type SchoolRow } from "./school.service";
import { updateSchool } from "./school-update.service";
import { School, SchoolPage } from "./school.type";
import { schoolAnnualStatistics } from "./school-statistics";

@ArgsType()
export class SchoolListArgsType {
  @Field(() => SchoolFilter, { nullable: true }) filter?: SchoolFilter;
  @Field(() => SchoolOrderField, { nullable: true, defaultValue: SchoolOrderField.name }) orderBy?: SchoolOrderField;
  @Field({ nullable: true, defaultValue: true }) orderAscending?: boolean;
  @Field(() => Int, { nullable: true, defaultValue: 50, description: "1 to 200." }) limit?: number;
  @Field(() => Int, { nullable: true, defaultValue: 0 }) offset?: number;
  @Field({ nullable: true, description: "Metric query JSON (contract section 8), at most 16,000 characters." }) metricQuery?: string;
}

@Resolver(() => School)
export class SchoolResolver {
  @Query(() => SchoolPage, { description: "Search schools. Same filters as GET /api/v1/schools." })
  async schools(@Args() args: SchoolListArgsType, @Ctx() ctx: Context): Promise<SchoolPage> {
    const page = await listSchools(ctx.db, ctx.viewer, args);
    for (const row of page.data) ctx.loaders.schools.byId.prime(row.id, row);
    return page;
  }

  @Query(() => School, { nullable: true })
  school(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<SchoolRow | null> {
    return ctx.loaders.schools.byId.load(id);
  }

  @Mutation(() => School, { description: "Edit a school's directory fields (internal plan only). PATCH /api/v1/schools/{id}." })
  async updateSchool(
    @Arg("id", () => UUIDScalar) id: string,
    @Arg("input", () => UpdateSchoolInput) input: UpdateSchoolInput,
    @Ctx() ctx: Context,
  ): Promise<SchoolRow> {
    const row = await updateSchool(ctx.db, ctx.viewer, id, input);
    ctx.loaders.schools.byId.clear(id).prime(id, row);
    return row;
  }

  @FieldResolver(() => SchoolAnnualStatistics)
  async annualStatistics(@Root() school: SchoolRow, @Ctx() ctx: Context): Promise<SchoolAnnualStatistics> {
    return schoolAnnualStatistics(school, await ctx.loaders.schools.annualStats.load(school.id));
  }

  @FieldResolver(() => District, { nullable: true, description: "The parent district." })
  async district(@Root() school: SchoolRow, @Ctx() ctx: Context): Promise<DistrictRow | null> {
    return school.district_id ? ctx.loaders.districts.byId.load(school.district_id) : null;
  }
}
