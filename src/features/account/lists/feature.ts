import { defineFeature } from "../../../graphql/feature";
import { listsDictionary } from "./list.dictionary";
import { ListResolver } from "./list.resolver";

/** The caller's lists of districts, schools or contacts (GET/POST /lists, items). */
export const listsFeature = defineFeature({
  name: "lists",
  dictionary: listsDictionary,
  resolvers: [ListResolver],
  rest: [
    { method: "GET", path: "/lists", operation: "Lists", input: "none", select: ["lists"], wrap: true },
    {
      method: "POST",
      path: "/lists",
      operation: "CreateList",
      input: "json-body",
      select: ["create_list"],
      wrap: true,
      status: 201,
    },
    {
      method: "POST",
      path: "/lists/:id/items",
      operation: "AddListItems",
      input: "json-body",
      select: ["add_list_items"],
      wrap: true,
    },
    {
      method: "DELETE",
      path: "/lists/:id/items/:entity_id",
      operation: "RemoveListItem",
      input: "none",
      select: ["remove_list_item"],
      status: 204,
    },
  ],
});
