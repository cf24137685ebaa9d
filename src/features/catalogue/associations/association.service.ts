/**
 * Association search and lookup. A list is one hand-written statement (filters, page and total, the
 * parent's name joined; test/associations/associations.test.ts counts it), as every list (list kit).
 * Lookups by id, the people and the sections under an association go through the Prisma client, each a
 * batch over every association a request asks for (association.loaders.ts).
 */
import { byKeys } from "../../../db/batch";
import type { Db } from "../../../db/client";
import type { Prisma } from "../../../db/generated/client";
import { SqlParams } from "../../../db/sql";
import { pageArgs, readPage, tablePageSql, type PageOf } from "../../kits/common/list-kit";
import { ASSOCIATION_LIST, ASSOCIATION_MAX_LIMIT, type AssociationListArgs } from "./association.inputs";
import { Association, AssociationPerson, REDACTED_NAME } from "./association.type";

/** The record's columns over alias `a` (the association) and `pa` (its parent: JOIN). */
const COLUMNS = `a.id, a.slug, a.name, a.short_name, a.kind, a.state, a.parent_association_id, pa.name AS parent_association_name,
    a.website_url, a.phone, a.physical_address, a.physical_city, a.physical_zip, a.member_school_count,
    a.member_count_source_url, a.source_url, a.verified_at, a.data_source, a.created_at, a.updated_at`;
const JOIN = `LEFT JOIN associations pa ON pa.id = a.parent_association_id`;

/** The same record read by the Prisma client (the parent's name by relationJoins: one statement). */
const RECORD = {
  id: true,
  slug: true,
  name: true,
  short_name: true,
  kind: true,
  state: true,
  parent_association_id: true,
  parent: { select: { name: true } },
  website_url: true,
  phone: true,
  physical_address: true,
  physical_city: true,
  physical_zip: true,
  member_school_count: true,
  member_count_source_url: true,
  source_url: true,
  verified_at: true,
  data_source: true,
  created_at: true,
  updated_at: true,
} satisfies Prisma.AssociationSelect;

type RecordRow = Prisma.AssociationGetPayload<{ select: typeof RECORD }>;

const present = (row: Record<string, unknown>): Association => Object.setPrototypeOf(row, Association.prototype) as Association;

const fromPrisma = ({ parent, ...row }: RecordRow): Association => present({ ...row, parent_association_name: parent?.name ?? null });

/** Associations by id (the loader's batch): one statement. */
export async function loadAssociationsByIds(db: Db, ids: readonly string[]): Promise<Association[]> {
  const rows = await db.prisma.association.findMany({ relationLoadStrategy: "join", where: { id: { in: [...ids] } }, select: RECORD });
  return rows.map(fromPrisma);
}

/**
 * The sections under each of several associations, at most `limit` each, by name and id (the loader's
 * batch): one statement, the parents read with their sections (relationJoins: a LATERAL join per
 * parent with its own LIMIT), one list per parent in `parentIds` order.
 */
export async function loadAssociationSections(db: Db, parentIds: readonly string[], limit: number): Promise<Association[][]> {
  const rows = await db.prisma.association.findMany({
    relationLoadStrategy: "join",
    where: { id: { in: [...parentIds] } },
    select: { id: true, sections: { select: RECORD, orderBy: [{ name: "asc" }, { id: "asc" }], take: limit } },
  });
  return byKeys(parentIds, rows, (r) => r.id).map((row) => row?.sections.map(fromPrisma) ?? []);
}

/**
 * The people of each of several associations, at most `limit` each (the loader's batch): one statement,
 * as the sections; named people first, then by name and id. A redacted person's name is never served,
 * whatever the source stored for it.
 */
export async function loadAssociationPeople(db: Db, associationIds: readonly string[], limit: number): Promise<AssociationPerson[][]> {
  const rows = await db.prisma.association.findMany({
    relationLoadStrategy: "join",
    where: { id: { in: [...associationIds] } },
    select: {
      id: true,
      people: {
        select: { id: true, name: true, title: true, redacted: true },
        orderBy: [{ redacted: "asc" }, { name: "asc" }, { id: "asc" }],
        take: limit,
      },
    },
  });
  return byKeys(associationIds, rows, (r) => r.id).map(
    (row) => row?.people.map((person) => (person.redacted ? { ...person, name: REDACTED_NAME } : person)) ?? [],
  );
}

/** GET /associations: one page and its total. */
export async function listAssociations(db: Db, args: AssociationListArgs): Promise<PageOf<Association>> {
  const { limit, offset } = pageArgs(args, ASSOCIATION_MAX_LIMIT);
  const p = new SqlParams();
  // Hand-written list page, one statement with page and total, as every list (list kit): Prisma would
  // need a second statement for the total.
  const sql = tablePageSql({
    table: "associations",
    alias: "a",
    where: ASSOCIATION_LIST.where(args.filter, p, undefined),
    order: ASSOCIATION_LIST.order("a", args.orderBy, args.orderAscending),
    limit: p.add(limit),
    offset: p.add(offset),
    select: COLUMNS,
    joins: JOIN,
  });
  return readPage(await db.query<Record<string, unknown>>(sql, p.values), limit, offset, present);
}
