/**
 * Childcare center search and lookup. A list is one hand-written statement (filters, page and total;
 * bench/statements.ts and test/rest/childcare-centers.test.ts count it); lookups by id and the people,
 * batched by a loader over every center asked for, go through the Prisma client.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { childPageColumns, childPagesSql, pageArgs, readChildPages, readPage, tablePageSql, type PageOf } from "../../kits/common/list-kit";
import { CHILDCARE_LIST, CHILDCARE_MAX_LIMIT, type ChildcareListArgs } from "./childcare.inputs";
import { MERGED_ROOT_CTES, operatorOwnerSql } from "../operators/operator.service";
import { ChildcareCenter, ChildcarePerson } from "./childcare.type";

/** The record's columns over alias `c`. */
const COLUMNS = `c.id, c.slug, c.name, c.state, c.license_number, c.source, c.physical_address, c.physical_city, c.physical_zip,
    c.county, c.latitude, c.longitude, c.phone, c.email, c.website_url, c.license_type, c.license_type_raw, c.license_status,
    c.license_status_raw, c.first_licensed, c.license_expires, c.capacity, c.capacity_by_age, c.ages_served, c.licensee_name,
    c.chain, c.director_name, c.quality_rating, c.accepts_subsidy, c.district_operated, c.source_url, c.source_version,
    c.operator_id, c.district_id, c.created_at, c.updated_at`;

const present = (row: Record<string, unknown>): ChildcareCenter => Object.setPrototypeOf(row, ChildcareCenter.prototype) as ChildcareCenter;

/** A `@db.Date` column as the API serves it (YYYY-MM-DD); Prisma returns it as a UTC-midnight Date. */
const calendarDate = (value: Date | null): string | null => (value ? value.toISOString().slice(0, 10) : null);

/** Centers by id (the loader's batch): one Prisma read, rows shaped as the list serves them. */
export async function loadChildcareCentersByIds(db: Db, ids: readonly string[]): Promise<ChildcareCenter[]> {
  const rows = await db.prisma.childcareCenter.findMany({
    where: { id: { in: [...ids] } },
    select: {
      id: true,
      slug: true,
      name: true,
      state: true,
      license_number: true,
      source: true,
      physical_address: true,
      physical_city: true,
      physical_zip: true,
      county: true,
      latitude: true,
      longitude: true,
      phone: true,
      email: true,
      website_url: true,
      license_type: true,
      license_type_raw: true,
      license_status: true,
      license_status_raw: true,
      first_licensed: true,
      license_expires: true,
      capacity: true,
      capacity_by_age: true,
      ages_served: true,
      licensee_name: true,
      chain: true,
      director_name: true,
      quality_rating: true,
      accepts_subsidy: true,
      district_operated: true,
      source_url: true,
      source_version: true,
      operator_id: true,
      district_id: true,
      created_at: true,
      updated_at: true,
    },
  });
  return rows.map((row) =>
    present({
      ...row,
      first_licensed: calendarDate(row.first_licensed),
      license_expires: calendarDate(row.license_expires),
    }),
  );
}

/** The people of several centers (the loader's batch): one Prisma read, by center, name and id. */
export async function loadChildcarePeople(db: Db, centerIds: readonly string[]): Promise<(ChildcarePerson & { center_id: string })[]> {
  return db.prisma.childcarePerson.findMany({
    where: { center_id: { in: [...centerIds] } },
    select: { id: true, center_id: true, name: true, title: true, role: true },
    orderBy: [{ center_id: "asc" }, { name: "asc" }, { id: "asc" }],
  });
}

export async function listChildcareCenters(db: Db, args: ChildcareListArgs): Promise<PageOf<ChildcareCenter>> {
  const { limit, offset } = pageArgs(args, CHILDCARE_MAX_LIMIT);
  const p = new SqlParams();
  // Hand-written list page, one statement with page and total (list kit; bench/statements.ts counts it).
  const sql = tablePageSql({
    table: "childcare_centers",
    alias: "c",
    where: CHILDCARE_LIST.where(args.filter, p, undefined),
    order: CHILDCARE_LIST.order("c", args.orderBy, args.orderAscending),
    limit: p.add(limit),
    offset: p.add(offset),
    select: COLUMNS,
  });
  return readPage(await db.query<Record<string, unknown>>(sql, p.values), limit, offset, present);
}

/**
 * The page of centers of each (live) operator in `operatorIds` (Operator.childcareCenters), with those of
 * operators merged into it, as its center_count counts them: the list's filters (default status active),
 * order and paging within each operator, for every operator in one statement (list kit childPagesSql: a
 * page per parent is a list page, and merges are beyond a Prisma relation).
 */
export async function loadChildcarePagesOfOperators(
  db: Db,
  operatorIds: readonly string[],
  args: ChildcareListArgs,
): Promise<PageOf<ChildcareCenter>[]> {
  const page = pageArgs(args, CHILDCARE_MAX_LIMIT);
  const p = new SqlParams();
  const operator = operatorOwnerSql("c.operator_id", p.add(operatorIds));
  const where = [operator.of, ...CHILDCARE_LIST.where(args.filter, p, undefined)];
  const sql = childPagesSql({
    with: `WITH RECURSIVE ${MERGED_ROOT_CTES}`,
    rows: `SELECT ${COLUMNS}${childPageColumns(operator.owner, CHILDCARE_LIST.order("c", args.orderBy, args.orderAscending))}
      FROM childcare_centers c ${operator.join}
      WHERE ${where.join(" AND ")}`,
    limit: p.add(page.limit),
    offset: p.add(page.offset),
  });
  return readChildPages(await db.query<Record<string, unknown>>(sql, p.values), operatorIds, page, present);
}
