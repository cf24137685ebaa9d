import { Field, Float, InputType, Int, registerEnumType } from "type-graphql";
import { DateTimeScalar, UUIDScalar } from "../../../graphql/scalars";
import {
  BidStatus,
  FundingSource,
  GradeLevel,
  LocaleBucket,
  PainPointCategory,
  PipelineStatus,
  VendorCategory,
} from "../../kits/common/enums";
import { ListArgs, type ListArgsOf } from "../../kits/common/list-kit";

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
  @Field(() => UUIDScalar, { nullable: true }) districtId?: string;
  @Field(() => [UUIDScalar], { nullable: true }) ids?: string[];
  @Field(() => [String], { nullable: true })
  fedIds?: string[];
  @Field(() => DateTimeScalar, {
    nullable: true,
  })
  updatedSince?: Date;
  @Field({ nullable: true }) state?: string;
  @Field({ nullable: true }) search?: string;
  @Field(() => PipelineStatus, { nullable: true }) status?: PipelineStatus;
  @Field(() => Int, { nullable: true }) minEnrollment?: number;
  @Field(() => Int, { nullable: true }) maxEnrollment?: number;
  @Field(() => Float, { nullable: true }) minStudentTeacherRatio?: number;
  @Field(() => Float, { nullable: true }) maxStudentTeacherRatio?: number;
  @Field({ nullable: true })
  schoolType?: string;
  @Field(() => [GradeLevel], { nullable: true })
  gradeLevels?: GradeLevel[];
  @Field(() => LocaleBucket, { nullable: true }) locale?: LocaleBucket;
  @Field({ nullable: true }) county?: string;
  @Field(() => UUIDScalar, { nullable: true }) listId?: string;
  @Field(() => [UUIDScalar], {
    nullable: true,
  })
  districtListIds?: string[];
  @Field(() => [UUIDScalar], { nullable: true }) vendorIds?: string[];
  @Field(() => VendorCategory, { nullable: true }) vendorCategory?: VendorCategory;
  @Field(() => PainPointCategory, { nullable: true }) painPointCategory?: PainPointCategory;
  @Field({ nullable: true }) hasPainPoints?: boolean;
  @Field(() => FundingSource, { nullable: true }) fundingSource?: FundingSource;
  @Field({ nullable: true }) hasFunding?: boolean;
  @Field({ nullable: true })
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
