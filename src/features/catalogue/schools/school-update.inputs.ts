import { Field, Float, InputType, Int } from "type-graphql";

/**
 * PATCH /schools/{id} body (every property optional; at least one). Except `name` and `fedId`, a
 * property may be null, which clears the column. GraphQL's own input coercion rejects unknown
 * properties and wrong types before the service runs.
 */
@InputType()
export class UpdateSchoolInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) websiteUrl?: string | null;
  @Field(() => String, { nullable: true })
  gradeLevels?: string | null;
  @Field(() => Int, { nullable: true }) studentCount?: number | null;
  @Field(() => String, { nullable: true }) fedId?: string | null;
  @Field(() => String, { nullable: true }) localeType?: string | null;
  @Field(() => String, { nullable: true }) schoolType?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String, { nullable: true }) county?: string | null;
  @Field(() => String, { nullable: true }) physicalAddress?: string | null;
  @Field(() => String, { nullable: true }) physicalCity?: string | null;
  @Field(() => String, { nullable: true }) physicalState?: string | null;
  @Field(() => String, { nullable: true }) physicalZip?: string | null;
  @Field(() => String, { nullable: true }) mailingAddress?: string | null;
  @Field(() => String, { nullable: true }) mailingCity?: string | null;
  @Field(() => String, { nullable: true }) mailingState?: string | null;
  @Field(() => String, { nullable: true }) mailingZip?: string | null;
  @Field(() => Float, { nullable: true }) studentTeacherRatio?: number | null;
}
