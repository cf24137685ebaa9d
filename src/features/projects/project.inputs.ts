import { Field, InputType } from "type-graphql";
import { JSONScalar } from "../../graphql/scalars";

export const PROJECT_NAME_MAX = 200;

/** POST /projects body. GraphQL's input coercion rejects unknown properties and wrong types before the service runs. */
@InputType()
export class CreateProjectInput {
  @Field(() => String, { description: `1 to ${PROJECT_NAME_MAX} characters (surrounding spaces are trimmed).` }) name: string;
  @Field(() => JSONScalar, { nullable: true, description: "The ideal-customer profile: any JSON object, or null." })
  icp?: unknown;
}
