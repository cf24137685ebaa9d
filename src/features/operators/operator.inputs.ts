import { Field, Float, InputType, Int, registerEnumType } from "type-graphql";
import { DateTimeScalar, UUIDScalar } from "../../graphql/scalars";
import { ListArgs, type ListArgsOf } from "../common/list-kit";

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
  description: "Which of an operator's Form 990 returns the contractor filter reads: any current return, or only the latest.",
});

/** Every filter of GET /operators (contract section 6). */
@InputType()
export class OperatorFilter {
  @Field(() => [String], {
    nullable: true,
    description: "Two-letter states where it runs active centers or open Head Start programs; also scopes the counts to them.",
  })
  state?: string[];
  @Field(() => [String], { nullable: true, description: "Any case: nonprofit, company, government, tribe, church, other." })
  kind?: string[];
  @Field(() => Int, { nullable: true, description: "Active centers, 0 to 2147483647." }) minCenters?: number;
  @Field(() => Int, { nullable: true }) maxCenters?: number;
  @Field(() => Int, { nullable: true, description: "Summed licensed capacity of its active centers." }) minCapacity?: number;
  @Field(() => Int, { nullable: true }) maxCapacity?: number;
  @Field({ nullable: true, description: "Runs a Head Start program with an open site (true) or none (false)." })
  hasOpenHeadStart?: boolean;
  @Field(() => Float, { nullable: true, description: "Total revenue of the latest Form 990." }) minTotalRevenue?: number;
  @Field(() => Float, { nullable: true }) maxTotalRevenue?: number;
  @Field(() => Float, { nullable: true, description: "Government grants of the latest Form 990." }) minGovernmentGrants?: number;
  @Field(() => Float, { nullable: true }) maxGovernmentGrants?: number;
  @Field({
    nullable: true,
    description:
      "Paid a contractor over $100,000 whose name contains one of these names (joined by |, at most 20, each at most 200 characters), ignoring case, spaces and punctuation. 990-EZ returns never match.",
  })
  contractor?: string;
  @Field(() => ContractorMode, { nullable: true, description: "Default any." }) contractorMode?: ContractorMode;
  @Field({ nullable: true, description: "Name contains it (case-insensitive), or the EIN equals it; at most 200 characters." })
  search?: string;
  @Field(() => [UUIDScalar], { nullable: true, description: "An id merged into another operator reads as the operator it became." })
  ids?: string[];
  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "Operators whose record changed at or after this instant (updated_at), for incremental sync.",
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
