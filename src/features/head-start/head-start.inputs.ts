import { Field, InputType, Int, registerEnumType } from "type-graphql";
import { DateScalar, DateTimeScalar, UUIDScalar } from "../../graphql/scalars";
import { ListArgs, type ListArgsOf } from "../common/list-kit";

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
registerEnumType(HeadStartStatusFilter, { name: "HeadStartStatusFilter", description: "Default active." });

export enum DelegatesFilter {
  include = "include",
  exclude = "exclude",
  only = "only",
}
registerEnumType(DelegatesFilter, {
  name: "DelegatesFilter",
  description: "include (default): recipients and delegates; exclude: grant recipients only; only: delegate agencies only.",
});

/** Every filter of GET /head-start-programs (interface spec). */
@InputType()
export class HeadStartFilter {
  @Field(() => [String], { nullable: true, description: "Two-letter state abbreviations." }) state?: string[];
  @Field(() => [String], { nullable: true, description: "County names (exact, case-insensitive)." }) county?: string[];
  @Field(() => [HeadStartProgramType], { nullable: true, description: "Programs having any of these types." })
  programType?: HeadStartProgramType[];
  @Field(() => HeadStartStatusFilter, { nullable: true, description: "Default active." }) status?: HeadStartStatusFilter;
  @Field(() => Int, { nullable: true, description: "Funded seats at open sites." }) minFundedSlots?: number;
  @Field(() => Int, { nullable: true }) maxFundedSlots?: number;
  @Field(() => DateScalar, { nullable: true, description: "Grant ends on or after this date." }) grantEndAfter?: string;
  @Field(() => DateScalar, { nullable: true, description: "Grant ends on or before this date." }) grantEndBefore?: string;
  @Field(() => DelegatesFilter, { nullable: true }) delegates?: DelegatesFilter;
  @Field({ nullable: true, description: "true: only school-district-run programs; false: none of them." }) districtRun?: boolean;
  @Field({ nullable: true, description: "Program or recipient name (contains, case-insensitive), or grant number (equals)." })
  search?: string;
  @Field(() => [UUIDScalar], { nullable: true }) ids?: string[];
  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "Programs whose record changed at or after this instant (updated_at), for incremental sync.",
  })
  updatedSince?: Date;
  @Field(() => UUIDScalar, { nullable: true, description: "Only delegates under this recipient's program." }) parentProgramId?: string;
}

/** The arguments of `headStartPrograms` (GET /head-start-programs). */
export const HeadStartListArgs = ListArgs({
  filter: HeadStartFilter,
  orderBy: { type: HeadStartOrderField, default: HeadStartOrderField.name },
  maxLimit: HEAD_START_MAX_LIMIT,
});
export type HeadStartListArgs = ListArgsOf<HeadStartFilter, HeadStartOrderField>;
