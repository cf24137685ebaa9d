import { Field, InputType } from "type-graphql";
import { JSONScalar } from "../../../graphql/scalars";

export const PROJECT_NAME_MAX = 200;

/** POST /projects body. GraphQL's input coercion rejects unknown properties and wrong types before the service runs. */
@InputType()
export class CreateProjectInput {
  @Field(() => String) name: string;
  @Field(() => JSONScalar, { nullable: true })
  icp?: unknown;
}

/** PATCH /projects/{id} body: what changes (an absent property stays; icp null clears the profile). */
@InputType()
export class UpdateProjectInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => JSONScalar, { nullable: true })
  icp?: unknown;
}
