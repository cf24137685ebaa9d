/** Assessment blocks as field resolvers of District and School (one class per type, same factory). Public data: no gating. */
import { Ctx, FieldResolver, Resolver, Root, type ClassType } from "type-graphql";
import type { Context } from "../../graphql/context";
import { prefetched } from "../../graphql/fields";
import type { EntityKind } from "../common/entity-kind";
import { District } from "../districts/district.type";
import { School } from "../schools/school.type";
import { AssessmentGradeRow, AssessmentStateRow, AssessmentSummary } from "./assessment.type";

export function assessmentResolverFor(type: ClassType, kind: EntityKind): ClassType {
  @Resolver(() => type)
  class AssessmentResolver {
    @FieldResolver(() => AssessmentSummary, { nullable: true, description: "The latest assessment summary; null when none is loaded." })
    assessmentSummary(@Root() row: { id: string }, @Ctx() ctx: Context): Promise<AssessmentSummary | null> | AssessmentSummary | null {
      const ready = prefetched<AssessmentSummary | null>(row, "assessmentSummary");
      return ready !== undefined ? ready : ctx.loaders.assessments[kind].summary.load(row.id);
    }

    @FieldResolver(() => [AssessmentGradeRow], { description: "Grade rows of the latest school year that has any." })
    assessmentGradeRows(@Root() row: { id: string }, @Ctx() ctx: Context): Promise<AssessmentGradeRow[]> | AssessmentGradeRow[] {
      return prefetched<AssessmentGradeRow[]>(row, "assessmentGradeRows") ?? ctx.loaders.assessments[kind].gradeRows.load(row.id);
    }

    @FieldResolver(() => [AssessmentStateRow], { description: `The ${kind}'s state's rows for the school year of its grade rows.` })
    assessmentStateRows(@Root() row: { id: string }, @Ctx() ctx: Context): Promise<AssessmentStateRow[]> | AssessmentStateRow[] {
      return prefetched<AssessmentStateRow[]>(row, "assessmentStateRows") ?? ctx.loaders.assessments[kind].stateRows.load(row.id);
    }
  }
  Object.defineProperty(AssessmentResolver, "name", { value: `${type.name}AssessmentResolver` });
  return AssessmentResolver;
}

export const DistrictAssessmentResolver = assessmentResolverFor(District, "district");
export const SchoolAssessmentResolver = assessmentResolverFor(School, "school");
