import { Field, InputType, Int, registerEnumType } from "type-graphql";
import { DateScalar, DateTimeScalar, UUIDScalar } from "../../../graphql/scalars";
import { ListArgs, type ListArgsOf } from "../../kits/common/list-kit";

export const HEAD_START_MAX_LIMIT = 200;

export enum HeadStartOrderField {
  name = "name",
  state = "state",
  funded_slots = "funded_slots",
  open_site_count = "open_site_count",
  grant_amount = "grant_amount",
  grant_end = "grant_end",
  created_at = "created_at",
  updated_at = "updated_at",
}
registerEnumType(HeadStartOrderField, { name: "HeadStartOrderField" });

export enum HeadStartProgramType {
  head_start = "head_start",
  early_head_start = "early_head_start",
  migrant_seasonal = "migrant_seasonal",
  aian_head_start = "aian_head_start",
  aian_early_head_start = "aian_early_head_start",
}
registerEnumType(HeadStartProgramType, { name: "HeadStartProgramType" });

export enum HeadStartStatusFilter {
  active = "active",
  no_open_site = "no_open_site",
  all = "all",
}
registerEnumType(HeadStartStatusFilter, { name: "HeadStartStatusFilter" });

export enum DelegatesFilter {
  include = "include",
  exclude = "exclude",
  only = "only",
}
registerEnumType(DelegatesFilter, {
  name: "DelegatesFilter",
});

/** Every filter of GET /head-start-programs (interface spec). */
@InputType()
export class HeadStartFilter {
  @Field(() => [String], { nullable: true }) state?: string[];
  @Field(() => [String], { nullable: true }) county?: string[];
  @Field(() => [HeadStartProgramType], { nullable: true })
  programType?: HeadStartProgramType[];
  @Field(() => HeadStartStatusFilter, { nullable: true }) status?: HeadStartStatusFilter;
  @Field(() => Int, { nullable: true }) minFundedSlots?: number;
  @Field(() => Int, { nullable: true }) maxFundedSlots?: number;
  @Field(() => DateScalar, { nullable: true }) grantEndAfter?: string;
  @Field(() => DateScalar, { nullable: true }) grantEndBefore?: string;
  @Field(() => DelegatesFilter, { nullable: true }) delegates?: DelegatesFilter;
  @Field({ nullable: true }) districtRun?: boolean;
  @Field({ nullable: true })
  search?: string;
  @Field(() => [UUIDScalar], { nullable: true }) ids?: string[];
  @Field(() => DateTimeScalar, {
    nullable: true,
  })
  updatedSince?: Date;
  @Field(() => UUIDScalar, { nullable: true }) parentProgramId?: string;
}

/** The arguments of `headStartPrograms` (GET /head-start-programs). */
export const HeadStartListArgs = ListArgs({
  filter: HeadStartFilter,
  orderBy: { type: HeadStartOrderField, default: HeadStartOrderField.name },
  maxLimit: HEAD_START_MAX_LIMIT,
});
export type HeadStartListArgs = ListArgsOf<HeadStartFilter, HeadStartOrderField>;
