import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { AddListItemsInput, CreateListInput } from "./list.inputs";
import { addListItems, createList, listLists, removeListItem } from "./list.service";
import { List } from "./list.type";

@Resolver(() => List)
export class ListResolver {
  @Query(() => [List])
  lists(@Ctx() ctx: Context): Promise<List[]> {
    return listLists(ctx.db, ctx.viewer);
  }

  @Mutation(() => List)
  createList(@Arg("input", () => CreateListInput) input: CreateListInput, @Ctx() ctx: Context): Promise<List> {
    return createList(ctx.db, ctx.viewer, input);
  }

  @Mutation(() => List)
  addListItems(
    @Arg("listId", () => UUIDScalar) listId: string,
    @Arg("input", () => AddListItemsInput) input: AddListItemsInput,
    @Ctx() ctx: Context,
  ): Promise<List> {
    return addListItems(ctx.db, ctx.viewer, listId, input);
  }

  @Mutation(() => List)
  removeListItem(
    @Arg("listId", () => UUIDScalar) listId: string,
    @Arg("entityId", () => UUIDScalar) entityId: string,
    @Ctx() ctx: Context,
  ): Promise<List> {
    return removeListItem(ctx.db, ctx.viewer, listId, entityId);
  }
}
