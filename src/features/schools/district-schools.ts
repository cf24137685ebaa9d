/**
 * District.schools: the schools feature owns the relation, so it adds the field to District. A page of
 * each district's schools, batched over every district of the parent page in one statement.
 */
import { Args, ArgsType, Ctx, Field, FieldResolver, Int, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context";
import { District } from "../districts/district.type";
import type { DistrictRow } from "../districts/district.service";
import { SchoolOrderField } from "./school.inputs";
import { DISTRICT_SCHOOLS_DEFAULT_LIMIT } from "./school.service";
import { SchoolPage } from "./school.type";

@ArgsType()
export class DistrictSchoolsArgs {
  @Field(() => SchoolOrderField, { nullable: true, defaultValue: SchoolOrderField.name }) orderBy?: SchoolOrderField;
  @Field({ nullable: true, defaultValue: true }) orderAscending?: boolean;
  @Field(() => Int, { nullable: true, defaultValue: DISTRICT_SCHOOLS_DEFAULT_LIMIT, description: "1 to 200." }) limit?: number;
  @Field(() => Int, { nullable: true, defaultValue: 0 }) offset?: number;
}

@Resolver(() => District)
export class DistrictSchoolsResolver {
  @FieldResolver(() => SchoolPage, { description: "A page of the district's schools (default order: name)." })
  schools(@Root() district: DistrictRow, @Args() args: DistrictSchoolsArgs, @Ctx() ctx: Context): Promise<SchoolPage> {
    return ctx.loaders.schools.ofDistrict(args).load(district.id);
  }
}
