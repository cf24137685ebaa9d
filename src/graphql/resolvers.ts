import type { NonEmptyArray } from "type-graphql";
import { DistrictAnnualStatisticsResolver } from "../features/districts/district-statistics";
import { DistrictResolver } from "../features/districts/district.resolver";

/** Every feature's resolvers. A feature adds its classes here. */
export const resolvers: NonEmptyArray<Function> = [DistrictResolver, DistrictAnnualStatisticsResolver];
