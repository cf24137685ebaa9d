import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context";
import { UUIDScalar } from "../../graphql/scalars";
import { AddListItemsInput, CreateListInput } from "./list.inputs";
import { addListItems, createList, listLists, removeListItem } from "./list.service";
import { List } from "./list.type";

@Resolver(() => List)
export class ListResolver {
  @Query(() => [List], { description: "The lists of the caller's organization, oldest first (GET /api/v1/lists)." })
  lists(@Ctx() ctx: Context): Promise<List[]> {
    return listLists(ctx.db, ctx.viewer);
  }

  @Mutation(() => List, { description: "A new, empty list (POST /api/v1/lists)." })
  createList(@Arg("input", () => CreateListInput) input: CreateListInput, @Ctx() ctx: Context): Promise<List> {
    return createList(ctx.db, ctx.viewer, input);
  }

  @Mutation(() => List, {
    description:
      "Adds entities of the list's type; ids already in it are left as they are. An unknown id is an error naming it, " +
      "and then nothing is added (POST /api/v1/lists/{id}/items).",
  })
  addListItems(
    @Arg("listId", () => UUIDScalar) listId: string,
    @Arg("input", () => AddListItemsInput) input: AddListItemsInput,
    @Ctx() ctx: Context,
  ): Promise<List> {
    return addListItems(ctx.db, ctx.viewer, listId, input);
  }

  @Mutation(() => List, {
    description:
      "Removes one entity from a list and returns the list; an id the list does not hold is NOT_FOUND (DELETE /api/v1/lists/{id}/items/{entityId}).",
  })
  removeListItem(
    @Arg("listId", () => UUIDScalar) listId: string,
    @Arg("entityId", () => UUIDScalar) entityId: string,
    @Ctx() ctx: Context,
  ): Promise<List> {
    return removeListItem(ctx.db, ctx.viewer, listId, entityId);
  }
}
