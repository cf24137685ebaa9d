/**
 * District.specialEducationFinance and School.parentDistrictSpecialEducationFinance: the same district
 * rows through one loader, gated by the record's own history state (plan, or follow on free).
 */
import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context";
import { prefetched } from "../../graphql/fields";
import type { DistrictRow } from "../districts/district.service";
import { District } from "../districts/district.type";
import type { SchoolRow } from "../schools/school.service";
import { School } from "../schools/school.type";
import { ParentDistrictSpecialEducationFinance, SpecialEducationFinance } from "../statistics/statistics.type";
import { parentDistrictSpecialEducationFinance, specialEducationFinance } from "./special-education.service";

@Resolver(() => District)
export class DistrictSpecialEducationResolver {
  @FieldResolver(() => SpecialEducationFinance, { description: "IDEA child counts with F-33 special-education finance, by fiscal year." })
  async specialEducationFinance(@Root() district: DistrictRow, @Ctx() ctx: Context): Promise<SpecialEducationFinance> {
    const ready = prefetched<SpecialEducationFinance>(district, "specialEducationFinance");
    if (ready) return ready;
    return specialEducationFinance(await ctx.loaders.specialEducation.byDistrict.load(district.id), district.__history_open);
  }
}

@Resolver(() => School)
export class SchoolSpecialEducationResolver {
  @FieldResolver(() => ParentDistrictSpecialEducationFinance, {
    nullable: true,
    description: "The parent district's special-education finance; null when the school has no parent district.",
  })
  async parentDistrictSpecialEducationFinance(
    @Root() school: SchoolRow,
    @Ctx() ctx: Context,
  ): Promise<ParentDistrictSpecialEducationFinance | null> {
    if (!school.district_id) return null;
    return parentDistrictSpecialEducationFinance(
      await ctx.loaders.specialEducation.byDistrict.load(school.district_id),
      school.__history_open,
    );
  }
}
