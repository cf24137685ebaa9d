import { Field, InputType, registerEnumType } from "type-graphql";
import { UUIDScalar } from "../../../graphql/scalars";
import { LimitArgs, ListArgs, type LimitArgsOf, type ListArgsOf } from "../../kits/common/list-kit";

export const ASSOCIATION_MAX_LIMIT = 200;
/** Association.people and Association.sections: at most this many per association (GET /associations/{id} asks for the maximum). */
export const ASSOCIATION_NESTED_MAX_LIMIT = 200;
export const ASSOCIATION_NESTED_DEFAULT_LIMIT = 50;

/** The arguments of Association.people and Association.sections. */
export const AssociationNestedArgs = LimitArgs({ defaultLimit: ASSOCIATION_NESTED_DEFAULT_LIMIT, maxLimit: ASSOCIATION_NESTED_MAX_LIMIT });
export type AssociationNestedArgs = LimitArgsOf;

export enum AssociationOrderField {
  name = "name",
  state = "state",
  member_school_count = "member_school_count",
  created_at = "created_at",
}
registerEnumType(AssociationOrderField, { name: "AssociationOrderField" });

/** Association kinds (contract section 9). */
export enum AssociationKind {
  state_athletic_association = "state_athletic_association",
  state_activities_association = "state_activities_association",
  superintendents_association = "superintendents_association",
  school_boards_association = "school_boards_association",
  principals_association = "principals_association",
  other = "other",
}
registerEnumType(AssociationKind, { name: "AssociationKind" });

/** Every filter of GET /associations (contract section 6). */
@InputType()
export class AssociationFilter {
  @Field(() => [String], { nullable: true }) state?: string[];
  @Field(() => [AssociationKind], { nullable: true }) kind?: AssociationKind[];
  @Field({ nullable: true })
  search?: string;
  @Field(() => [UUIDScalar], { nullable: true }) ids?: string[];
  @Field(() => UUIDScalar, { nullable: true })
  parentAssociationId?: string;
}

/** The arguments of `associations` (GET /associations). */
export const AssociationListArgs = ListArgs({
  filter: AssociationFilter,
  orderBy: { type: AssociationOrderField, default: AssociationOrderField.name },
  maxLimit: ASSOCIATION_MAX_LIMIT,
});
export type AssociationListArgs = ListArgsOf<AssociationFilter, AssociationOrderField>;
