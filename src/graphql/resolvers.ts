import type { NonEmptyArray } from "type-graphql";
import { DistrictAnnualStatisticsResolver } from "../features/districts/district-statistics";
import { DistrictResolver } from "../features/districts/district.resolver";
import { DistrictSchoolsResolver } from "../features/schools/district-schools";
import { SchoolAnnualStatisticsResolver } from "../features/schools/school-statistics";
import { SchoolResolver } from "../features/schools/school.resolver";

/** Every feature's resolvers. A feature adds its classes here. */
export const resolvers: NonEmptyArray<Function> = [DistrictResolver, DistrictAnnualStatisticsResolver, SchoolResolver, SchoolAnnualStatisticsResolver, DistrictSchoolsResolver];
