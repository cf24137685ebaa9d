import { Field, InputType, registerEnumType } from "type-graphql";
import { UUIDScalar } from "../../graphql/scalars";

export enum UnlockEntityType {
  district = "district",
  school = "school",
  contact = "contact",
}
registerEnumType(UnlockEntityType, { name: "UnlockEntityType", description: "What POST /unlock unlocks." });

export enum UnlockChannel {
  dashboard = "dashboard",
  mcp = "mcp",
  api = "api",
}
registerEnumType(UnlockChannel, { name: "UnlockChannel", description: "Where an unlock was requested." });

@InputType({ description: "One entity of a batch unlock." })
export class UnlockEntityInput {
  @Field(() => UnlockEntityType) entityType: UnlockEntityType;
  @Field(() => UUIDScalar) entityId: string;
}

@InputType({ description: "POST /unlock body: a single unlock (entityType, entityId) or a batch (entities)." })
export class UnlockInput {
  @Field(() => UnlockEntityType, { nullable: true }) entityType?: UnlockEntityType | null;
  @Field(() => UUIDScalar, { nullable: true }) entityId?: string | null;
  @Field(() => [UnlockEntityInput], { nullable: true, description: "Batch: each item decided on its own, in order." })
  entities?: UnlockEntityInput[] | null;
  @Field(() => UnlockChannel, { nullable: true }) channel?: UnlockChannel | null;
  @Field(() => Boolean, { nullable: true, description: "Districts and schools only: extract again, charged again." })
  reExtract?: boolean | null;
}
