import { Field, InputType, registerEnumType } from "type-graphql";
import { UUIDScalar } from "../../../graphql/scalars";

export enum UnlockEntityType {
  district = "district",
  school = "school",
  contact = "contact",
}
registerEnumType(UnlockEntityType, { name: "UnlockEntityType" });

export enum UnlockChannel {
  dashboard = "dashboard",
  mcp = "mcp",
  api = "api",
}
registerEnumType(UnlockChannel, { name: "UnlockChannel" });

@InputType()
export class UnlockEntityInput {
  @Field(() => UnlockEntityType) entityType: UnlockEntityType;
  @Field(() => UUIDScalar) entityId: string;
}

@InputType()
export class UnlockInput {
  @Field(() => UnlockEntityType, { nullable: true }) entityType?: UnlockEntityType | null;
  @Field(() => UUIDScalar, { nullable: true }) entityId?: string | null;
  @Field(() => [UnlockEntityInput], { nullable: true })
  entities?: UnlockEntityInput[] | null;
  @Field(() => UnlockChannel, { nullable: true }) channel?: UnlockChannel | null;
  @Field(() => Boolean, { nullable: true })
  reExtract?: boolean | null;
}
