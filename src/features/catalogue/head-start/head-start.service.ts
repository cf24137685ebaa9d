/**
 * Head Start program search and lookup. A list is one hand-written statement (filters, page and total;
 * bench/statements.ts and test/rest/head-start-programs.test.ts count it); the parent program's and
 * the district's names are joined in the same statement. A lookup by id goes through the Prisma client.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { BadRequestError } from "../../../graphql/errors";
import {
  checkList,
  checkRange,
  checkState,
  checkText,
  updatedSinceValue,
  childPageColumns,
  childPagesSql,
  containsPattern,
  countyClause,
  pageArgs,
  pageSql,
  readChildPages,
  readPage,
  sortClause,
  type PageOf,
} from "../../kits/common/list-kit";
import { MERGED_ROOT_CTES, operatorOwnerSql } from "../operators/operator.service";
import {
  DelegatesFilter,
  HEAD_START_MAX_LIMIT,
  HeadStartStatusFilter,
  type HeadStartFilter,
  type HeadStartListArgs,
  type HeadStartOrderField,
} from "./head-start.inputs";
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

const ORDER_COLUMNS: Record<HeadStartOrderField, string> = {
  name: "name",
  state: "state",
  funded_slots: "funded_slots",
  open_site_count: "open_site_count",
  grant_amount: "grant_amount",
  grant_end: "grant_end",
  created_at: "created_at",
  updated_at: "updated_at",
};

function order(orderBy: HeadStartOrderField | null | undefined, ascending: boolean | null | undefined) {
  return (alias: string) => sortClause(alias, ORDER_COLUMNS[orderBy ?? ("name" as HeadStartOrderField)], ascending);
}

function whereClauses(filter: HeadStartFilter, p: SqlParams): string[] {
  const w: string[] = [];
  if (filter.state != null) w.push(`h.state = ANY(${p.add(checkList("state", filter.state, checkState))}::text[])`);
  if (filter.county != null) w.push(countyClause("h.county", filter.county, p));
  if (filter.programType != null) {
    if (!filter.programType.length) throw new BadRequestError("program_type must be a non-empty comma-separated list");
    w.push(`h.program_types && ${p.add(filter.programType)}::text[]`);
  }
  const status = filter.status ?? HeadStartStatusFilter.active;
  if (status !== HeadStartStatusFilter.all) w.push(`h.status = ${p.add(status)}`);
  checkRange("funded_slots", filter.minFundedSlots, filter.maxFundedSlots, true);
  if (filter.minFundedSlots != null) w.push(`h.funded_slots >= ${p.add(filter.minFundedSlots)}`);
  if (filter.maxFundedSlots != null) w.push(`h.funded_slots <= ${p.add(filter.maxFundedSlots)}`);
  if (filter.grantEndAfter != null && filter.grantEndBefore != null && filter.grantEndAfter > filter.grantEndBefore) {
    throw new BadRequestError("grant_end_after must not be later than grant_end_before");
  }
  if (filter.grantEndAfter != null) w.push(`h.grant_end >= ${p.add(filter.grantEndAfter)}::date`);
  if (filter.grantEndBefore != null) w.push(`h.grant_end <= ${p.add(filter.grantEndBefore)}::date`);
  if (filter.delegates === DelegatesFilter.exclude) w.push(`h.delegate_number IS NULL`);
  if (filter.delegates === DelegatesFilter.only) w.push(`h.delegate_number IS NOT NULL`);
  if (filter.districtRun != null) w.push(filter.districtRun ? `h.district_id IS NOT NULL` : `h.district_id IS NULL`);
  if (filter.search != null) {
    const text = checkText("search", filter.search);
    const pattern = p.add(containsPattern(text));
    // A grant number matches exactly (any case), also as grant-delegate (01CH010841-001).
    const grant = p.add(text.toUpperCase());
    w.push(`(h.name ILIKE ${pattern} OR h.recipient_name ILIKE ${pattern}
             OR h.grant_number = ${grant} OR h.grant_number || '-' || h.delegate_number = ${grant})`);
  }
  if (filter.ids != null) {
    if (!filter.ids.length) throw new BadRequestError("ids must be a non-empty comma-separated list");
    w.push(`h.id = ANY(${p.add(filter.ids)}::uuid[])`);
  }
  if (filter.parentProgramId != null) w.push(`h.parent_program_id = ${p.add(filter.parentProgramId)}::uuid`);
  const since = updatedSinceValue(filter.updatedSince);
  if (since != null) w.push(`h.updated_at >= ${p.add(since)}::timestamptz`);
  return w;
}

export async function listHeadStartPrograms(db: Db, args: HeadStartListArgs): Promise<PageOf<HeadStartProgram>> {
  const { limit, offset } = pageArgs(args, HEAD_START_MAX_LIMIT);
  const p = new SqlParams();
  const where = whereClauses(args.filter ?? {}, p);
  // Hand-written list page, one statement with page and total (list kit; bench/statements.ts counts it).
  const sql = pageSql({
    from: "head_start_programs h",
    where,
    order: order(args.orderBy, args.orderAscending)("h"),
    keep: "h.id AS __id",
    countAll: "(SELECT count(*) FROM head_start_programs)",
    limit: p.add(limit),
    offset: p.add(offset),
    select: COLUMNS,
    join: `JOIN head_start_programs h ON h.id = page.__id ${JOINS}`,
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
  const where = whereClauses(args.filter ?? {}, p);
  const orderBy = order(args.orderBy, args.orderAscending)("h");
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
