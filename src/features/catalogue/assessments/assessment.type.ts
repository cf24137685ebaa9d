/**
 * Assessment results as the spec lists them: the latest summary of a district or school, its grade rows
 * and the matching state rows. Summary sub-objects (metrics, coverage) are JSON columns whose keys are
 * already the spec's snake_case names, so the types read them in place.
 */
import { Field, ObjectType } from "type-graphql";
import { Col } from "../../../graphql/fields";

@ObjectType()
export class AssessmentMetric {
  @Col("float") proficiency_pct: number | null;
  @Col("float") tested_count: number | null;
  @Col("float") participation_rate: number | null;
  @Col("float") state_proficiency_pct: number | null;
  @Col("float") vs_state_pp: number | null;
  @Col("string") basis: string | null;
}

@ObjectType()
export class AssessmentMetrics {
  @Field(() => AssessmentMetric, { nullable: true }) ela: AssessmentMetric | null;
  @Field(() => AssessmentMetric, { nullable: true }) math: AssessmentMetric | null;
  @Field(() => AssessmentMetric, { nullable: true }) science: AssessmentMetric | null;
}

@ObjectType()
export class AssessmentCoverage {
  @Col("string") source_id: string | null;
  @Col("string") source_name: string | null;
  @Col("string") publication_status: string | null;
  @Col("string") published_at: string | null;
  @Col("string") canonical_artifact_uri: string | null;
  @Col("string") canonical_artifact_format: string | null;
  @Col("string") manifest_uri: string | null;
  @Col("json") quality_summary: Record<string, unknown> | null;
}

@ObjectType()
export class AssessmentSummary {
  @Col("string", { required: true }) data_source: string;
  @Col("string", { required: true }) source_id: string;
  @Col("string", { required: true }) state: string;
  @Col("int", { required: true }) school_year: number;
  @Col("string") data_quality: string | null;
  @Col("strings") subjects_available: string[] | null;
  @Field(() => AssessmentMetrics, { nullable: true }) metrics: AssessmentMetrics | null;
  @Col("json") grade_summary: Record<string, unknown> | null;
  @Col("string") source_manifest_uri: string | null;
  @Col("string") canonical_artifact_uri: string | null;
  @Field(() => AssessmentCoverage, { nullable: true }) coverage: AssessmentCoverage | null;
  @Col("string") comparability_warning: string | null;
}

@ObjectType()
export class AssessmentStateRow {
  @Col("string", { required: true }) data_source: string;
  @Col("string", { required: true }) source_id: string;
  @Col("string", { required: true }) state: string;
  @Col("int", { required: true }) school_year: number;
  @Col("string", { required: true }) grade: string;
  @Col("string", { required: true }) subject: string;
  @Col("string") student_group_type: string | null;
  @Col("string") student_group: string | null;
  @Col("string") student_group_id: string | null;
  @Col("float") enrolled_count: number | null;
  @Col("float") tested_count: number | null;
  @Col("float") tested_with_scores_count: number | null;
  @Col("float") proficiency_count: number | null;
  @Col("float") proficiency_pct: number | null;
  @Col("float") participation_rate: number | null;
  @Col("float") mean_scale_score: number | null;
  @Col("string") data_quality: string | null;
  @Col("string") suppression_code: string | null;
}

@ObjectType()
export class AssessmentGradeRow extends AssessmentStateRow {
  @Col("uuid", { required: true }) id: string;
}
