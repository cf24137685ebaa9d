import { Field, Int, ObjectType } from "type-graphql";
import { JSONScalar } from "../../../graphql/scalars";
import { AccessSummary } from "../../account/access/access.type";
import { Contact } from "../../catalogue/contacts/contact.type";
import { District } from "../../catalogue/districts/district.type";
import { School } from "../../catalogue/schools/school.type";
import { SemanticSearchEntityType } from "./semantic-search.inputs";

/** How much of the searched catalogue has vectors of the active model (the background job fills them in). */
@ObjectType()
export class SemanticSearchCoverage {
  @Field(() => Int) embedded: number;
  @Field(() => Int) total: number;
}

/** One passage that matched (an entry of `matches`). */
export interface SemanticMatch {
  content: string;
  source_type: string;
  url: string | null;
  source_id: string;
}

/**
 * A semantic search's answer. The records are in the list of their entity type, best first, each served
 * exactly as the catalogue serves it (gated fields, `_access`, contacts' listing rule); REST answers that list
 * as `data`.
 */
@ObjectType()
export class SemanticSearchResult {
  @Field(() => SemanticSearchEntityType, { name: "entityType" }) entity_type: SemanticSearchEntityType;
  @Field(() => [District], { nullable: true }) districts: District[] | null;
  @Field(() => [School], { nullable: true }) schools: School[] | null;
  @Field(() => [Contact], { nullable: true }) contacts: Contact[] | null;
  @Field(() => JSONScalar) relevance: Record<string, number>;
  @Field(() => JSONScalar) matches: Record<string, SemanticMatch[]>;
  @Field(() => SemanticSearchCoverage) coverage: SemanticSearchCoverage;
  @Field(() => AccessSummary, { name: "_accessSummary" }) _access_summary: AccessSummary;
}
