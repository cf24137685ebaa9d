import { Field, InputType, Int, registerEnumType } from "type-graphql";
import { DateTimeScalar, UUIDScalar } from "../../../graphql/scalars";
import { ListArgs, type ListArgsOf } from "../../kits/common/list-kit";

export const CHILDCARE_MAX_LIMIT = 200;

export enum ChildcareOrderField {
  name = "name",
  state = "state",
  capacity = "capacity",
  license_type = "license_type",
  chain = "chain",
  first_licensed = "first_licensed",
  created_at = "created_at",
  updated_at = "updated_at",
}
registerEnumType(ChildcareOrderField, { name: "ChildcareOrderField" });

export enum ChildcareLicenseType {
  center = "center",
  preschool = "preschool",
  school_age = "school_age",
  infant_toddler = "infant_toddler",
  other = "other",
}
registerEnumType(ChildcareLicenseType, { name: "ChildcareLicenseType" });

export enum ChildcareStatusFilter {
  active = "active",
  inactive = "inactive",
  all = "all",
}
registerEnumType(ChildcareStatusFilter, { name: "ChildcareStatusFilter" });

/** Every filter of GET /childcare-centers (contract section 6). */
@InputType()
export class ChildcareFilter {
  @Field(() => [String], { nullable: true }) state?: string[];
  @Field(() => [String], { nullable: true })
  county?: string[];
  @Field(() => [String], { nullable: true }) city?: string[];
  @Field(() => [ChildcareLicenseType], { nullable: true }) licenseType?: ChildcareLicenseType[];
  @Field(() => ChildcareStatusFilter, { nullable: true }) status?: ChildcareStatusFilter;
  @Field(() => Int, { nullable: true }) minCapacity?: number;
  @Field(() => Int, { nullable: true }) maxCapacity?: number;
  @Field(() => [String], { nullable: true }) chain?: string[];
  @Field({ nullable: true }) acceptsSubsidy?: boolean;
  @Field({ nullable: true }) districtOperated?: boolean;
  @Field({ nullable: true })
  search?: string;
  @Field(() => [UUIDScalar], { nullable: true }) ids?: string[];
  @Field(() => DateTimeScalar, {
    nullable: true,
  })
  updatedSince?: Date;
}

/** The arguments of `childcareCenters` (GET /childcare-centers). */
export const ChildcareListArgs = ListArgs({
  filter: ChildcareFilter,
  orderBy: { type: ChildcareOrderField, default: ChildcareOrderField.name },
  maxLimit: CHILDCARE_MAX_LIMIT,
});
export type ChildcareListArgs = ListArgsOf<ChildcareFilter, ChildcareOrderField>;
