import { Field, Float, InputType, Int, registerEnumType } from "type-graphql";
import { DateTimeScalar, UUIDScalar } from "../../graphql/scalars";
import { BidStatus, FundingSource, GradeLevel, LocaleBucket, PainPointCategory, PipelineStatus, VendorCategory } from "../common/enums";
import { ListArgs, type ListArgsOf } from "../common/list-kit";

export enum SchoolOrderField {
  name = "name",
  state = "state",
  student_count = "student_count",
  student_teacher_ratio = "student_teacher_ratio",
  created_at = "created_at",
  last_updated_at = "last_updated_at",
}
registerEnumType(SchoolOrderField, { name: "SchoolOrderField" });

/**
 * Every filter of GET /schools (contract section 6). Intelligence filters (vendors, pain points,
 * funding, contracts, bids) only match schools the caller's organization has unlocked.
 */
@InputType()
export class SchoolFilter {
  @Field(() => UUIDScalar, { nullable: true, description: "The parent district." }) districtId?: string;
  @Field(() => [UUIDScalar], { nullable: true }) ids?: string[];
  @Field(() => [String], { nullable: true, description: "NCES school ids (NCESSCH, 12 digits), at most 1,000." })
  fedIds?: string[];
  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "Schools whose record changed at or after this instant (last_updated_at), for incremental sync.",
  })
  updatedSince?: Date;
  @Field({ nullable: true, description: "Two-letter state abbreviation." }) state?: string;
  @Field({ nullable: true, description: "Text contained in the school name (case-insensitive)." }) search?: string;
  @Field(() => PipelineStatus, { nullable: true }) status?: PipelineStatus;
  @Field(() => Int, { nullable: true }) minEnrollment?: number;
  @Field(() => Int, { nullable: true }) maxEnrollment?: number;
  @Field(() => Float, { nullable: true }) minStudentTeacherRatio?: number;
  @Field(() => Float, { nullable: true }) maxStudentTeacherRatio?: number;
  @Field({ nullable: true, description: "Federal school type (NCES school type text), exact, case-insensitive." })
  schoolType?: string;
  @Field(() => [GradeLevel], { nullable: true, description: "Schools offering any of these levels." })
  gradeLevels?: GradeLevel[];
  @Field(() => LocaleBucket, { nullable: true }) locale?: LocaleBucket;
  @Field({ nullable: true, description: "Partial county name." }) county?: string;
  @Field(() => UUIDScalar, { nullable: true, description: "A list of the caller's organization." }) listId?: string;
  @Field(() => [UUIDScalar], {
    nullable: true,
    description: "Schools whose district is in any of these lists of the caller's organization.",
  })
  districtListIds?: string[];
  @Field(() => [UUIDScalar], { nullable: true }) vendorIds?: string[];
  @Field(() => VendorCategory, { nullable: true }) vendorCategory?: VendorCategory;
  @Field(() => PainPointCategory, { nullable: true }) painPointCategory?: PainPointCategory;
  @Field({ nullable: true }) hasPainPoints?: boolean;
  @Field(() => FundingSource, { nullable: true }) fundingSource?: FundingSource;
  @Field({ nullable: true }) hasFunding?: boolean;
  @Field({ nullable: true, description: "A contract expires within 6 months." })
  hasExpiringContracts?: boolean;
  @Field(() => BidStatus, { nullable: true }) rfpStatus?: BidStatus;
}

export const SCHOOL_MAX_LIMIT = 200;
export const DISTRICT_SCHOOLS_DEFAULT_LIMIT = 50;

/** The arguments of `schools` (GET /schools). */
export const SchoolListArgs = ListArgs({
  filter: SchoolFilter,
  orderBy: { type: SchoolOrderField, default: SchoolOrderField.name },
  maxLimit: SCHOOL_MAX_LIMIT,
  metricQuery: true,
});
export type SchoolListArgs = ListArgsOf<SchoolFilter, SchoolOrderField>;

/** The arguments of District.schools: a page of the district's schools (no filter). */
export const DistrictSchoolsArgs = ListArgs<never, SchoolOrderField>({
  orderBy: { type: SchoolOrderField, default: SchoolOrderField.name },
  maxLimit: SCHOOL_MAX_LIMIT,
  defaultLimit: DISTRICT_SCHOOLS_DEFAULT_LIMIT,
});
export type DistrictSchoolsArgs = Omit<ListArgsOf<never, SchoolOrderField>, "filter" | "metricQuery">;
