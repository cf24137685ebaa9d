/**
 * District.schools: the schools feature owns the relation, so it adds the field to District. A page of
 * each district's schools, batched over every district of the parent page in one statement.
 */
import { Args, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import type { PageOf } from "../../kits/common/list-kit";
import { District } from "../districts/district.type";
import type { DistrictRow } from "../districts/district.service";
import { DistrictSchoolsArgs } from "./school.inputs";
import type { SchoolRow } from "./school.service";
import { SchoolPage } from "./school.type";

@Resolver(() => District)
export class DistrictSchoolsResolver {
  @FieldResolver(() => SchoolPage)
  schools(
    @Root() district: DistrictRow,
    @Args(() => DistrictSchoolsArgs) args: DistrictSchoolsArgs,
    @Ctx() ctx: Context,
  ): Promise<PageOf<SchoolRow>> {
    return ctx.loaders.schools.ofDistrict(args).load(district.id);
  }
}
