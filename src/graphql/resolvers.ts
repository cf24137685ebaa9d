import type { NonEmptyArray } from "type-graphql";
import { DistrictAnnualStatisticsResolver } from "../features/districts/district-statistics";
import { DistrictResolver } from "../features/districts/district.resolver";
import { DistrictSchoolsResolver } from "../features/schools/district-schools";
import { SchoolAnnualStatisticsResolver } from "../features/schools/school-statistics";
import { SchoolResolver } from "../features/schools/school.resolver";
import { DistrictAssessmentResolver, SchoolAssessmentResolver } from "../features/assessments/assessment.resolver";
import { DistrictEventsResolver, EventQueryResolver, SchoolEventsResolver } from "../features/events/event.resolver";
import { DistrictIntelligenceResolver, SchoolIntelligenceResolver } from "../features/intelligence/intelligence.resolver";
import { MetricsResolver } from "../features/metrics/metrics.resolver";
import { DistrictSpecialEducationResolver, SchoolSpecialEducationResolver } from "../features/special-education/special-education.resolver";
import { OperatorResolver } from "../features/operators/operator.resolver";
import { HeadStartProgramResolver } from "../features/head-start/head-start.resolver";
import { ChildcareCenterResolver } from "../features/childcare/childcare.resolver";

/** Every feature's resolvers. A feature adds its classes here. */
export const resolvers: NonEmptyArray<Function> = [
  DistrictResolver,
  DistrictAnnualStatisticsResolver,
  SchoolResolver,
  SchoolAnnualStatisticsResolver,
  DistrictSchoolsResolver,
  // nested blocks of districts and schools, events, metrics catalogue
  DistrictAssessmentResolver,
  SchoolAssessmentResolver,
  DistrictSpecialEducationResolver,
  SchoolSpecialEducationResolver,
  DistrictIntelligenceResolver,
  SchoolIntelligenceResolver,
  DistrictEventsResolver,
  SchoolEventsResolver,
  EventQueryResolver,
  MetricsResolver,
  // early childhood: operators, Head Start programs, childcare centers
  OperatorResolver,
  HeadStartProgramResolver,
  ChildcareCenterResolver,
];
