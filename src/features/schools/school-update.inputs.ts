import { Field, Float, InputType, Int } from "type-graphql";

/**
 * PATCH /schools/{id} body (every property optional; at least one). Except `name` and `fedId`, a
 * property may be null, which clears the column. GraphQL's own input coercion rejects unknown
 * properties and wrong types before the service runs.
 */
@InputType()
export class UpdateSchoolInput {
  @Field(() => String, { nullable: true, description: "Not null." }) name?: string | null;
  @Field(() => String, { nullable: true, description: "An http(s) URL." }) websiteUrl?: string | null;
  @Field(() => String, { nullable: true, description: "A CCD grade span LOW-HIGH, e.g. KG-05, 09-12, PK-08." })
  gradeLevels?: string | null;
  @Field(() => Int, { nullable: true }) studentCount?: number | null;
  @Field(() => String, { nullable: true, description: "Not null; unique among schools." }) fedId?: string | null;
  @Field(() => String, { nullable: true }) localeType?: string | null;
  @Field(() => String, { nullable: true }) schoolType?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String, { nullable: true }) county?: string | null;
  @Field(() => String, { nullable: true }) physicalAddress?: string | null;
  @Field(() => String, { nullable: true }) physicalCity?: string | null;
  @Field(() => String, { nullable: true, description: "Two-letter abbreviation." }) physicalState?: string | null;
  @Field(() => String, { nullable: true, description: "ZIP or ZIP+4." }) physicalZip?: string | null;
  @Field(() => String, { nullable: true }) mailingAddress?: string | null;
  @Field(() => String, { nullable: true }) mailingCity?: string | null;
  @Field(() => String, { nullable: true, description: "Two-letter abbreviation." }) mailingState?: string | null;
  @Field(() => String, { nullable: true, description: "ZIP or ZIP+4." }) mailingZip?: string | null;
  @Field(() => Float, { nullable: true }) studentTeacherRatio?: number | null;
}
