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

export const DISTRICT_MAX_LIMIT = 200;

export enum DistrictOrderField {
  name = "name",
  state = "state",
  student_count = "student_count",
  school_count = "school_count",
  revenue_per_student = "revenue_per_student",
  expenditures_per_student = "expenditures_per_student",
  student_teacher_ratio = "student_teacher_ratio",
  total_staff = "total_staff",
  created_at = "created_at",
  last_updated_at = "last_updated_at",
}
registerEnumType(DistrictOrderField, { name: "DistrictOrderField" });

/**
 * Every filter of GET /districts (contract section 6). Intelligence filters (vendors, pain points,
 * funding, contracts, bids) only match districts the caller's organization has unlocked.
 */
@InputType()
export class DistrictFilter {
  @Field({ nullable: true }) state?: string;
  @Field({ nullable: true }) search?: string;
  @Field(() => PipelineStatus, { nullable: true }) status?: PipelineStatus;
  @Field(() => [UUIDScalar], { nullable: true }) ids?: string[];
  @Field(() => [String], { nullable: true })
  fedIds?: string[];
  @Field(() => DateTimeScalar, {
    nullable: true,
  })
  updatedSince?: Date;
  @Field(() => UUIDScalar, { nullable: true }) listId?: string;
  @Field(() => Int, { nullable: true }) minEnrollment?: number;
  @Field(() => Int, { nullable: true }) maxEnrollment?: number;
  @Field(() => Int, { nullable: true }) minSchoolCount?: number;
  @Field(() => Int, { nullable: true }) maxSchoolCount?: number;
  @Field(() => Float, { nullable: true }) minRevenuePerStudent?: number;
  @Field(() => Float, { nullable: true }) maxRevenuePerStudent?: number;
  @Field(() => Float, { nullable: true }) minExpendituresPerStudent?: number;
  @Field(() => Float, { nullable: true }) maxExpendituresPerStudent?: number;
  @Field(() => Float, { nullable: true }) minStudentTeacherRatio?: number;
  @Field(() => Float, { nullable: true }) maxStudentTeacherRatio?: number;
  @Field(() => Float, { nullable: true }) minTotalStaff?: number;
  @Field(() => Float, { nullable: true }) maxTotalStaff?: number;
  @Field(() => LocaleBucket, { nullable: true }) locale?: LocaleBucket;
  @Field({ nullable: true })
  districtType?: string;
  @Field({ nullable: true }) county?: string;
  @Field(() => [GradeLevel], { nullable: true })
  gradeLevels?: GradeLevel[];
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

/** The arguments of `districts` (GET /districts). */
export const DistrictListArgs = ListArgs({
  filter: DistrictFilter,
  orderBy: { type: DistrictOrderField, default: DistrictOrderField.name },
  maxLimit: DISTRICT_MAX_LIMIT,
  metricQuery: true,
});
export type DistrictListArgs = ListArgsOf<DistrictFilter, DistrictOrderField>;
