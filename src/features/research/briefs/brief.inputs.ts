import { Field, InputType } from "type-graphql";
import { UUIDScalar } from "../../../graphql/scalars";
import { BriefEntityType } from "./brief.type";

/** POST /briefs body (spec: all three required). */
@InputType()
export class BriefRequestInput {
  @Field(() => UUIDScalar) projectId: string;
  @Field(() => BriefEntityType) entityType: BriefEntityType;
  @Field(() => UUIDScalar) entityId: string;
}
