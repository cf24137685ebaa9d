import { Field, InputType, Int, registerEnumType } from "type-graphql";
import { UUIDScalar } from "../../../graphql/scalars";

/** What a semantic search returns (spec "POST /semantic-search": entity_type, required). */
export enum SemanticSearchEntityType {
  district = "district",
  school = "school",
  contact = "contact",
}
registerEnumType(SemanticSearchEntityType, { name: "SemanticSearchEntityType" });

/** Limits of POST /semantic-search (spec "Limits"; contract section 1: out of range is a 400, never clamped). */
export const SEMANTIC_SEARCH_LIMITS = { defaultLimit: 50, maxLimit: 500, minQuery: 2, maxQuery: 1_000 } as const;

/** POST /semantic-search body (snake_case over REST). */
@InputType()
export class SemanticSearchInput {
  @Field(() => String) query: string;
  @Field(() => SemanticSearchEntityType) entityType: SemanticSearchEntityType;
  @Field(() => String, { nullable: true }) state?: string | null;
  @Field(() => UUIDScalar, { nullable: true }) districtId?: string | null;
  @Field(() => UUIDScalar, { nullable: true }) schoolId?: string | null;
  @Field(() => Int, { nullable: true }) limit?: number | null;
}
