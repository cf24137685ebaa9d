/**
 * Head Start program search and lookup. A list is one hand-written statement (filters, page and total;
 * bench/statements.ts and test/rest/head-start-programs.test.ts count it); the parent program's and
 * the district's names are joined in the same statement. A lookup by id goes through the Prisma client.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { childPageColumns, childPagesSql, pageArgs, readChildPages, readPage, tablePageSql, type PageOf } from "../../kits/common/list-kit";
import { MERGED_ROOT_CTES, operatorOwnerSql } from "../operators/operator.service";
import { HEAD_START_LIST, HEAD_START_MAX_LIMIT, type HeadStartListArgs } from "./head-start.inputs";
import { HeadStartProgram } from "./head-start.type";

/** The record's columns over alias `h` (program), `pp` (its parent program) and `d` (its district: JOINS). */
const COLUMNS = `h.id, h.slug, h.name, h.grant_number, h.delegate_number, h.parent_program_id, pp.name AS parent_program_name,
    h.recipient_name, h.state, h.physical_address, h.physical_city, h.physical_zip, h.county, h.phone, h.website_url, h.email,
    h.district_id, d.name AS district_name, h.program_types, h.funded_slots, h.open_site_count, h.site_count, h.status,
    h.grant_amount, h.grant_start, h.grant_end, h.source_url, h.source_version, h.operator_id, h.created_at, h.updated_at`;
const JOINS = `LEFT JOIN head_start_programs pp ON pp.id = h.parent_program_id
  LEFT JOIN districts d ON d.id = h.district_id`;

const present = (row: Record<string, unknown>): HeadStartProgram =>
  Object.setPrototypeOf(row, HeadStartProgram.prototype) as HeadStartProgram;

/** A `@db.Date` column as the API serves it (YYYY-MM-DD); Prisma returns it as a UTC-midnight Date. */
const calendarDate = (value: Date | null): string | null => (value ? value.toISOString().slice(0, 10) : null);

/**
 * Programs by id (the loader's batch): one Prisma read with the parent program's and the district's
 * names joined (relationJoins: one statement, as the list's SQL), rows shaped as the list serves them.
 */
export async function loadHeadStartProgramsByIds(db: Db, ids: readonly string[]): Promise<HeadStartProgram[]> {
  const rows = await db.prisma.headStartProgram.findMany({
    where: { id: { in: [...ids] } },
    select: {
      id: true,
      slug: true,
      name: true,
      grant_number: true,
      delegate_number: true,
      parent_program_id: true,
      parent_program: { select: { name: true } },
      recipient_name: true,
      state: true,
      physical_address: true,
      physical_city: true,
      physical_zip: true,
      county: true,
      phone: true,
      website_url: true,
      email: true,
      district_id: true,
      district: { select: { name: true } },
      program_types: true,
      funded_slots: true,
      open_site_count: true,
      site_count: true,
      status: true,
      grant_amount: true,
      grant_start: true,
      grant_end: true,
      source_url: true,
      source_version: true,
      operator_id: true,
      created_at: true,
      updated_at: true,
    },
  });
  return rows.map(({ parent_program, district, ...row }) =>
    present({
      ...row,
      parent_program_name: parent_program?.name ?? null,
      district_name: district?.name ?? null,
      grant_start: calendarDate(row.grant_start),
      grant_end: calendarDate(row.grant_end),
    }),
  );
}

export async function listHeadStartPrograms(db: Db, args: HeadStartListArgs): Promise<PageOf<HeadStartProgram>> {
  const { limit, offset } = pageArgs(args, HEAD_START_MAX_LIMIT);
  const p = new SqlParams();
  // Hand-written list page, one statement with page and total (list kit; bench/statements.ts counts it).
  const sql = tablePageSql({
    table: "head_start_programs",
    alias: "h",
    where: HEAD_START_LIST.where(args.filter, p, undefined),
    order: HEAD_START_LIST.order("h", args.orderBy, args.orderAscending),
    limit: p.add(limit),
    offset: p.add(offset),
    select: COLUMNS,
    joins: JOINS,
  });
  return readPage(await db.query<Record<string, unknown>>(sql, p.values), limit, offset, present);
}

/** Whose programs a relation pages: a district's (district-run), a grant program's delegates, an operator's. */
export type HeadStartParent = "district" | "parentProgram" | "operator";

/**
 * The page of programs of each parent in `parentIds` (District.headStartPrograms, HeadStartProgram.delegates,
 * Operator.headStartPrograms): the list's filters (default status active), order and paging, within each
 * parent, for every parent in one statement (list kit childPagesSql: a page per parent is a list page;
 * Prisma's per-relation `take` cannot reach an operator's programs through merges). An operator's programs
 * include those of operators merged into it, as its head_start_count does.
 */
export async function loadHeadStartPagesOf(
  db: Db,
  parent: HeadStartParent,
  parentIds: readonly string[],
  args: HeadStartListArgs,
): Promise<PageOf<HeadStartProgram>[]> {
  const page = pageArgs(args, HEAD_START_MAX_LIMIT);
  const p = new SqlParams();
  const ids = p.add(parentIds);
  const where = HEAD_START_LIST.where(args.filter, p, undefined);
  const orderBy = HEAD_START_LIST.order("h", args.orderBy, args.orderAscending);
  let rows: string;
  let withClause: string | undefined;
  if (parent === "operator") {
    const operator = operatorOwnerSql("h.operator_id", ids);
    withClause = `WITH RECURSIVE ${MERGED_ROOT_CTES}`;
    rows = `SELECT ${COLUMNS}${childPageColumns(operator.owner, orderBy)}
      FROM head_start_programs h ${operator.join} ${JOINS}
      WHERE ${[operator.of, ...where].join(" AND ")}`;
  } else {
    const column = parent === "district" ? "h.district_id" : "h.parent_program_id";
    rows = `SELECT ${COLUMNS}${childPageColumns(column, orderBy)}
      FROM head_start_programs h ${JOINS}
      WHERE ${[`${column} = ANY(${ids}::uuid[])`, ...where].join(" AND ")}`;
  }
  const sql = childPagesSql({ with: withClause, rows, limit: p.add(page.limit), offset: p.add(page.offset) });
  return readChildPages(await db.query<Record<string, unknown>>(sql, p.values), parentIds, page, present);
}
