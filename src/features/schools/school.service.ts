/**
 * School search and lookup. A list is one statement (filters, count and page together); the rows it
 * returns are primed into the per-request loader so nested blocks batch over the whole page.
 */
import type { Db } from "../../db/client";
import { SqlParams } from "../../db/sql";
import { NotFoundError } from "../../graphql/errors";
import type { Viewer } from "../auth/viewer";
import { isPaidPlan } from "../auth/viewer";
import { pagination, type Pagination } from "../common/common.type";
import {
  checkPaging,
  checkRange,
  checkState,
  checkText,
  containsPattern,
  followedSql,
  historyOpenSql,
  intelligenceClauses,
} from "../common/list-query";
import { compileMetricQuery, metricValuesFromRow, parseMetricQuery } from "../metrics/metric-query";
import type { SchoolFilter, SchoolOrderField } from "./school.inputs";
import { School } from "./school.type";

export const SCHOOL_UNLOCK_COST = 6;
export const SCHOOL_MAX_LIMIT = 200;

/** Columns readable only after an unlock (contract section 4). */
const GATED = ["ai_summary", "summary_generated_at"] as const;

export interface SchoolRow extends School {
  __unlock_state: string | null;
  __unlocked_at: Date | null;
  __credits_spent: number | null;
  __followed: boolean;
  /** Set when the record is visible to a plan/follow that lifts history gating. */
  __history_open: boolean;
}

export interface SchoolListArgs {
  filter?: SchoolFilter | null;
  orderBy?: SchoolOrderField | null;
  orderAscending?: boolean | null;
  limit?: number | null;
  offset?: number | null;
  metricQuery?: string | null;
}

export interface SchoolPage {
  data: SchoolRow[];
  pagination: Pagination;
}

/** The caller's unlock and follow state of school `s`, as extra columns (joined as `u`). */
export function accessColumns(org: string): string {
  return `u.state AS __unlock_state, u.unlocked_at AS __unlocked_at, u.credits_spent AS __credits_spent,
    ${followedSql(org, "school", "s")} AS __followed`;
}

export function unlockJoin(org: string): string {
  return `LEFT JOIN unlocks u ON u.organization_id = ${org} AND u.entity_type = 'school' AND u.entity_id = s.id`;
}

/** Turns a raw row into what the API serves to this viewer: gating, _access, class prototype. */
export function presentSchool(row: Record<string, unknown>, viewer: Viewer): SchoolRow {
  const r = row as unknown as SchoolRow;
  const unlocked = r.__unlock_state === "unlocked";
  if (!unlocked) for (const column of GATED) (r as unknown as Record<string, unknown>)[column] = null;
  r._access = {
    is_unlocked: unlocked,
    is_unlocking: r.__unlock_state === "unlock_pending",
    unlocked_at: unlocked ? r.__unlocked_at : null,
    credits_spent: r.__credits_spent ?? 0,
    unlock_cost: SCHOOL_UNLOCK_COST,
  };
  r.__history_open = isPaidPlan(viewer) || r.__followed === true;
  r.metric_values ??= null;
  return Object.setPrototypeOf(r, School.prototype) as SchoolRow;
}

export async function loadSchoolsByIds(db: Db, viewer: Viewer, ids: readonly string[]): Promise<SchoolRow[]> {
  const p = new SqlParams();
  const org = p.add(viewer.organizationId);
  const sql = `SELECT s.*, ${accessColumns(org)} FROM schools s ${unlockJoin(org)} WHERE s.id = ANY(${p.add(ids)}::uuid[])`;
  const rows = await db.query(sql, p.values);
  return rows.map((row) => presentSchool(row, viewer));
}

const ORDER_COLUMNS: Record<SchoolOrderField, string> = {
  name: "name",
  state: "state",
  student_count: "student_count",
  student_teacher_ratio: "student_teacher_ratio",
  created_at: "created_at",
  last_updated_at: "last_updated_at",
};

/** ORDER BY of a school list over alias `s` (ties broken by id so paging is stable; nulls last). */
export function schoolOrder(orderBy: SchoolOrderField | null | undefined, ascending: boolean | null | undefined): string {
  const direction = ascending === false ? "DESC" : "ASC";
  return `s.${ORDER_COLUMNS[orderBy ?? ("name" as SchoolOrderField)]} ${direction} NULLS LAST, s.id ASC`;
}

const LOCALE_PREFIX = { city: "1", suburban: "2", town: "3", rural: "4" } as const;

function whereClauses(filter: SchoolFilter, p: SqlParams, viewer: Viewer): string[] {
  const w: string[] = [];
  if (filter.districtId != null) w.push(`s.district_id = ${p.add(filter.districtId)}::uuid`);
  if (filter.ids != null) w.push(`s.id = ANY(${p.add(filter.ids)}::uuid[])`);
  if (filter.state != null) w.push(`s.state = ${p.add(checkState(filter.state))}`);
  if (filter.search != null) w.push(`s.name ILIKE ${p.add(containsPattern(checkText("search", filter.search)))}`);
  if (filter.status != null) w.push(`s.status = ${p.add(filter.status)}`);
  checkRange("enrollment", filter.minEnrollment, filter.maxEnrollment, true);
  if (filter.minEnrollment != null) w.push(`s.student_count >= ${p.add(filter.minEnrollment)}`);
  if (filter.maxEnrollment != null) w.push(`s.student_count <= ${p.add(filter.maxEnrollment)}`);
  checkRange("student_teacher_ratio", filter.minStudentTeacherRatio, filter.maxStudentTeacherRatio, false);
  if (filter.minStudentTeacherRatio != null) w.push(`s.student_teacher_ratio >= ${p.add(filter.minStudentTeacherRatio)}`);
  if (filter.maxStudentTeacherRatio != null) w.push(`s.student_teacher_ratio <= ${p.add(filter.maxStudentTeacherRatio)}`);
  if (filter.schoolType != null) w.push(`lower(s.school_type) = lower(${p.add(checkText("school_type", filter.schoolType))})`);
  if (filter.gradeLevels != null) w.push(`s.grade_buckets && ${p.add(filter.gradeLevels)}::text[]`);
  if (filter.locale != null) w.push(`left(s.locale_code, 1) = ${p.add(LOCALE_PREFIX[filter.locale])}`);
  if (filter.county != null) w.push(`s.county ILIKE ${p.add(containsPattern(checkText("county", filter.county)))}`);
  if (filter.listId != null) {
    w.push(`s.id IN (SELECT li.entity_id FROM list_items li JOIN lists l ON l.id = li.list_id
                      WHERE l.id = ${p.add(filter.listId)}::uuid AND l.organization_id = ${p.add(viewer.organizationId)}::uuid)`);
  }
  if (filter.districtListIds != null) {
    w.push(`s.district_id IN (SELECT li.entity_id FROM list_items li JOIN lists l ON l.id = li.list_id
                      WHERE l.id = ANY(${p.add(filter.districtListIds)}::uuid[]) AND l.organization_id = ${p.add(viewer.organizationId)}::uuid)`);
  }
  w.push(...intelligenceClauses(filter, p, "school_id", "s", "u.state = 'unlocked'"));
  return w;
}

export async function listSchools(db: Db, viewer: Viewer, args: SchoolListArgs): Promise<SchoolPage> {
  const limit = args.limit ?? 50;
  const offset = args.offset ?? 0;
  checkPaging(limit, offset, SCHOOL_MAX_LIMIT);
  const p = new SqlParams();
  const org = p.add(viewer.organizationId);
  const where = whereClauses(args.filter ?? {}, p, viewer);
  const metric =
    args.metricQuery != null
      ? compileMetricQuery("school", parseMetricQuery("school", args.metricQuery), p, "s", historyOpenSql(viewer, "school", "s", p))
      : null;
  if (metric) where.push(...metric.where);
  const order = metric?.orderBy ? `${metric.orderBy}, s.id ASC` : schoolOrder(args.orderBy, args.orderAscending);
  const metricSelect = metric?.selects.map((s) => `, ${s.sql} AS ${s.column}`).join("") ?? "";
  // One statement: the window count is the total of the filtered set, computed before LIMIT.
  const sql = `SELECT s.*${metricSelect}, count(*) OVER () AS __total, ${accessColumns(org)}
    FROM schools s ${unlockJoin(org)}
    ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
    ORDER BY ${order}
    LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`;
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  let total = rows.length ? Number(rows[0].__total) : 0;
  if (!rows.length && offset > 0) {
    // Past the end the window function has no row to ride on; count separately (rare path).
    const c = new SqlParams();
    const corg = c.add(viewer.organizationId);
    const cw = whereClauses(args.filter ?? {}, c, viewer);
    const cm =
      args.metricQuery != null
        ? compileMetricQuery("school", parseMetricQuery("school", args.metricQuery), c, "s", historyOpenSql(viewer, "school", "s", c))
        : null;
    if (cm) cw.push(...cm.where);
    const countSql = `SELECT count(*)::int AS n FROM schools s ${unlockJoin(corg)} ${cw.length ? `WHERE ${cw.join(" AND ")}` : ""}`;
    total = (await db.query<{ n: number }>(countSql, c.values))[0].n;
  }
  const data = rows.map((row) => {
    if (metric) row.metric_values = metricValuesFromRow(metric.selects, row);
    delete row.__total;
    return presentSchool(row, viewer);
  });
  return { data, pagination: pagination(total, limit, offset) };
}

export async function getSchoolOrThrow(load: (id: string) => Promise<SchoolRow | null>, id: string): Promise<SchoolRow> {
  const row = await load(id);
  if (!row) throw new NotFoundError(`school ${id}`);
  return row;
}

export interface SchoolPageArgs {
  orderBy?: SchoolOrderField | null;
  orderAscending?: boolean | null;
  limit?: number | null;
  offset?: number | null;
}

export const DISTRICT_SCHOOLS_DEFAULT_LIMIT = 50;

/**
 * One page of schools per district, for every district of `districtIds` in one statement: the window
 * numbers each district's schools in page order; row 1 always comes back too so a district whose page
 * lies past its end still reports its total. Pages are returned in key order.
 */
export async function loadSchoolPagesOfDistricts(
  db: Db,
  viewer: Viewer,
  districtIds: readonly string[],
  args: SchoolPageArgs,
): Promise<SchoolPage[]> {
  const limit = args.limit ?? DISTRICT_SCHOOLS_DEFAULT_LIMIT;
  const offset = args.offset ?? 0;
  checkPaging(limit, offset, SCHOOL_MAX_LIMIT);
  const p = new SqlParams();
  const org = p.add(viewer.organizationId);
  const order = schoolOrder(args.orderBy, args.orderAscending);
  const sql = `SELECT * FROM (
      SELECT s.*, ${accessColumns(org)},
        (row_number() OVER (PARTITION BY s.district_id ORDER BY ${order}))::int AS __rn,
        (count(*) OVER (PARTITION BY s.district_id))::int AS __total
      FROM schools s ${unlockJoin(org)}
      WHERE s.district_id = ANY(${p.add(districtIds)}::uuid[])
    ) x
    WHERE x.__rn <= ${p.add(offset + limit)} AND (x.__rn > ${p.add(offset)} OR x.__rn = 1)
    ORDER BY x.district_id, x.__rn`;
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  const pages = new Map<string, SchoolPage>(districtIds.map((id) => [id, { data: [], pagination: pagination(0, limit, offset) }]));
  for (const row of rows) {
    const page = pages.get(row.district_id as string);
    if (!page) continue;
    page.pagination = pagination(Number(row.__total), limit, offset);
    if (Number(row.__rn) <= offset) continue;
    delete row.__rn;
    delete row.__total;
    page.data.push(presentSchool(row, viewer));
  }
  return districtIds.map((id) => pages.get(id)!);
}
