/**
 * Lists of an organization (contract section 7): districts, schools or contacts by id. Read and written
 * through the Prisma client, always scoped to the caller's organization: another organization's list is
 * a 404, never revealed. A list with its items is one statement (relationJoins).
 */
import type { Db } from "../../../db/client";
import type { Prisma } from "../../../db/generated/client";
import { AppError, BadRequestError, NotFoundError } from "../../../graphql/errors";
import type { Viewer } from "../auth/viewer";
import { LIST_ITEMS_PER_CALL, LIST_NAME_MAX, type AddListItemsInput, type CreateListInput } from "./list.inputs";
import { ListEntityType, type List } from "./list.type";

const LIST_COLUMNS = {
  id: true,
  name: true,
  entity_type: true,
  created_at: true,
  items: { select: { entity_id: true }, orderBy: [{ added_at: "asc" }, { entity_id: "asc" }] },
} satisfies Prisma.ListSelect;

type ListRow = Prisma.ListGetPayload<{ select: typeof LIST_COLUMNS }>;

const present = ({ items, ...row }: ListRow): List => ({
  ...row,
  entity_type: row.entity_type as ListEntityType,
  item_count: items.length,
  entity_ids: items.map((item) => item.entity_id),
});

/** Oldest first (ties by id): a list's place never changes. */
const LIST_ORDER: Prisma.ListOrderByWithRelationInput[] = [{ created_at: "asc" }, { id: "asc" }];

/** GET /lists: every list of the caller's organization with its entity ids, in one statement. */
export async function listLists(db: Db, viewer: Viewer): Promise<List[]> {
  const rows = await db.prisma.list.findMany({
    relationLoadStrategy: "join",
    where: { organization_id: viewer.organizationId },
    select: LIST_COLUMNS,
    orderBy: LIST_ORDER,
  });
  return rows.map(present);
}

/** One list of the caller's organization with its entity ids (one statement), or null. */
async function findList(db: Db, viewer: Viewer, listId: string): Promise<List | null> {
  const row = await db.prisma.list.findFirst({
    relationLoadStrategy: "join",
    where: { id: listId, organization_id: viewer.organizationId },
    select: LIST_COLUMNS,
  });
  return row && present(row);
}

/** POST /lists: a new, empty list. */
export async function createList(db: Db, viewer: Viewer, input: CreateListInput): Promise<List> {
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name || name.length > LIST_NAME_MAX) throw new BadRequestError(`name must be 1 to ${LIST_NAME_MAX} characters`);
  if (!Object.values(ListEntityType).includes(input.entityType)) {
    throw new BadRequestError(`entity_type must be one of ${Object.values(ListEntityType).join(", ")}`);
  }
  const row = await db.prisma.list.create({
    data: { organization_id: viewer.organizationId, name, entity_type: input.entityType },
    select: { id: true, name: true, entity_type: true, created_at: true },
  });
  return present({ ...row, items: [] });
}

/** The ids of `ids` that are entities of `type`: one statement. */
const EXISTING: Record<ListEntityType, (db: Db, ids: string[]) => Promise<{ id: string }[]>> = {
  district: (db, ids) => db.prisma.district.findMany({ where: { id: { in: ids } }, select: { id: true } }),
  school: (db, ids) => db.prisma.school.findMany({ where: { id: { in: ids } }, select: { id: true } }),
  contact: (db, ids) => db.prisma.contact.findMany({ where: { id: { in: ids } }, select: { id: true } }),
};

/** How many unknown ids a 400's message names (the body's unknown_entity_ids has all of them). */
const NAMED_IN_MESSAGE = 10;

/**
 * POST /lists/{id}/items: adds entities of the list's type. Ids already in the list are left as they
 * are (idempotent); an id that is no entity of the list's type is a 400 naming it, and then nothing is
 * added. The only write is one INSERT ... ON CONFLICT DO NOTHING.
 */
export async function addListItems(db: Db, viewer: Viewer, listId: string, input: AddListItemsInput): Promise<List> {
  const given = input.entityIds ?? [];
  if (!given.length) throw new BadRequestError("entity_ids must hold at least one id");
  if (given.length > LIST_ITEMS_PER_CALL) {
    throw new BadRequestError(`entity_ids may hold at most ${LIST_ITEMS_PER_CALL} ids per call, got ${given.length}`);
  }
  const ids = [...new Set(given)];
  const list = await db.prisma.list.findFirst({
    where: { id: listId, organization_id: viewer.organizationId },
    select: { entity_type: true },
  });
  if (!list) throw new NotFoundError(`list ${listId}`);
  const type = list.entity_type as ListEntityType;
  const known = new Set((await EXISTING[type](db, ids)).map((row) => row.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) {
    const named = unknown.slice(0, NAMED_IN_MESSAGE).join(", ");
    const more = unknown.length > NAMED_IN_MESSAGE ? ` and ${unknown.length - NAMED_IN_MESSAGE} more` : "";
    throw new AppError("BAD_USER_INPUT", `entity_ids: no ${type} with id ${named}${more} (this is a list of ${type}s)`, {
      unknown_entity_ids: unknown,
    });
  }
  await db.prisma.listItem.createMany({ data: ids.map((entity_id) => ({ list_id: listId, entity_id })), skipDuplicates: true });
  const updated = await findList(db, viewer, listId);
  if (!updated) throw new NotFoundError(`list ${listId}`);
  return updated;
}

/**
 * DELETE /lists/{id}/items/{entityId}: removes one entity. The DELETE itself checks the list is the
 * caller's; the list read after it tells a missing list (404) from an id the list does not hold (404).
 */
export async function removeListItem(db: Db, viewer: Viewer, listId: string, entityId: string): Promise<List> {
  const { count } = await db.prisma.listItem.deleteMany({
    where: { list_id: listId, entity_id: entityId, list: { organization_id: viewer.organizationId } },
  });
  const list = await findList(db, viewer, listId);
  if (!list) throw new NotFoundError(`list ${listId}`);
  if (!count) throw new NotFoundError(`entity ${entityId} in list ${listId}`);
  return list;
}
