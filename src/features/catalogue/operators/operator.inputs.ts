import { Field, Float, InputType, Int, registerEnumType } from "type-graphql";
import { DateTimeScalar, UUIDScalar } from "../../../graphql/scalars";
import { ListArgs, type ListArgsOf } from "../../kits/common/list-kit";

export const OPERATOR_MAX_LIMIT = 10000;

export enum OperatorOrderField {
  name = "name",
  state = "state",
  kind = "kind",
  center_count = "center_count",
  center_seats = "center_seats",
  head_start_count = "head_start_count",
  head_start_slots = "head_start_slots",
  total_revenue = "total_revenue",
  government_grants = "government_grants",
  created_at = "created_at",
  updated_at = "updated_at",
}
registerEnumType(OperatorOrderField, { name: "OperatorOrderField" });

export enum ContractorMode {
  any = "any",
  latest = "latest",
}
registerEnumType(ContractorMode, {
  name: "ContractorMode",
});

/** Every filter of GET /operators (contract section 6). */
@InputType()
export class OperatorFilter {
  @Field(() => [String], {
    nullable: true,
  })
  state?: string[];
  @Field(() => [String], { nullable: true })
  kind?: string[];
  @Field(() => Int, { nullable: true }) minCenters?: number;
  @Field(() => Int, { nullable: true }) maxCenters?: number;
  @Field(() => Int, { nullable: true }) minCapacity?: number;
  @Field(() => Int, { nullable: true }) maxCapacity?: number;
  @Field({ nullable: true })
  hasOpenHeadStart?: boolean;
  @Field(() => Float, { nullable: true }) minTotalRevenue?: number;
  @Field(() => Float, { nullable: true }) maxTotalRevenue?: number;
  @Field(() => Float, { nullable: true }) minGovernmentGrants?: number;
  @Field(() => Float, { nullable: true }) maxGovernmentGrants?: number;
  @Field({
    nullable: true,
  })
  contractor?: string;
  @Field(() => ContractorMode, { nullable: true }) contractorMode?: ContractorMode;
  @Field({ nullable: true })
  search?: string;
  @Field(() => [UUIDScalar], { nullable: true })
  ids?: string[];
  @Field(() => DateTimeScalar, {
    nullable: true,
  })
  updatedSince?: Date;
}

/** The arguments of `operators` (GET /operators). */
export const OperatorListArgs = ListArgs({
  filter: OperatorFilter,
  orderBy: { type: OperatorOrderField, default: OperatorOrderField.name },
  maxLimit: OPERATOR_MAX_LIMIT,
});
export type OperatorListArgs = ListArgsOf<OperatorFilter, OperatorOrderField>;
