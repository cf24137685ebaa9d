import { Field, InputType } from "type-graphql";
import { UUIDScalar } from "../../../graphql/scalars";
import { ListEntityType } from "./list.type";

export const LIST_NAME_MAX = 200;
/** Entity ids one POST /lists/{id}/items may add. */
export const LIST_ITEMS_PER_CALL = 1000;

/** POST /lists body. GraphQL's input coercion rejects unknown properties, wrong types and entity types before the service runs. */
@InputType()
export class CreateListInput {
  @Field(() => String) name: string;
  @Field(() => ListEntityType) entityType: ListEntityType;
}

/** POST /lists/{id}/items body. */
@InputType()
export class AddListItemsInput {
  @Field(() => [UUIDScalar])
  entityIds: string[];
}
