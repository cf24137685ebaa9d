/** Field dictionary: the caller's lists. */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const listsDictionary: Dictionary = {
  List: {
    [TYPE]:
      "A list of the caller's organization: districts, schools or contacts by id (GET /api/v1/lists). Use it as the list_id filter of GET /districts and GET /schools (district_list_ids of GET /schools) to read its records.",
    id: "Our id of the list (UUID).",
    name: "List name (1 to 200 characters).",
    entityType: "What the list holds: district, school or contact.",
    createdAt: "When the list was created (UTC).",
    itemCount: "How many entities the list holds.",
    entityIds: "The ids of the list's entities, first added first (ids added in one call: ascending).",
  },
  ListEntityType: {
    [TYPE]: "What a list holds.",
    district: "Districts.",
    school: "Schools.",
    contact: "Contacts.",
  },
  CreateListInput: {
    [TYPE]: "POST /lists body.",
    entityType: "What the list will hold; fixed once created.",
    name: "1 to 200 characters (surrounding spaces are trimmed).",
  },
  AddListItemsInput: {
    [TYPE]: "POST /lists/{id}/items body.",
    entityIds: "1 to 1,000 ids of entities of the list's type; ids already in the list are left as they are.",
  },
  Query: {
    lists: "The lists of the caller's organization, oldest first (GET /api/v1/lists).",
  },
  Mutation: {
    "createList(input)": "The list's name and entity type.",
    "addListItems(listId)": "A list of the caller's organization.",
    "addListItems(input)": "The ids to add.",
    "removeListItem(listId)": "A list of the caller's organization.",
    "removeListItem(entityId)": "The id to remove.",
    createList: "A new, empty list (POST /api/v1/lists).",
    addListItems:
      "Adds entities of the list's type; ids already in it are left as they are. An unknown id is an error naming it, and then nothing is added (POST /api/v1/lists/{id}/items).",
    removeListItem:
      "Removes one entity from a list and returns the list; an id the list does not hold is NOT_FOUND (DELETE /api/v1/lists/{id}/items/{entityId}).",
  },
};
