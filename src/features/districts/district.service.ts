/**
 * District search and lookup. A list is one statement (filters, count and page together); the rows it
 * returns are primed into the per-request loader so nested blocks batch over the whole page.
 */
import type { Db } from "../../db/client";
import { SqlParams } from "../../db/sql";
import { NotFoundError } from "../../graphql/errors";
import { columnsOf, type Timestamp } from "../../graphql/fields";
import type { Viewer } from "../auth/viewer";
import { isPaidPlan } from "../auth/viewer";
import { pagination, type Pagination } from "../common/common.type";
import { isoTimestampSql, selectColumnsSql } from "../common/json-rows";
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
import { District } from "./district.type";
import type { DistrictFilter, DistrictOrderField } from "./district.inputs";

export const DISTRICT_UNLOCK_COST = 6;
export const DISTRICT_MAX_LIMIT = 200;

/** Columns readable only after an unlock (contract section 4). */
const GATED = ["ai_summary", "summary_generated_at", "strategic_priorities", "meeting_minutes_pdfs"] as const;

export interface DistrictRow extends District {
  __unlock_state: string | null;
  __unlocked_at: Timestamp | null;
  __credits_spent: number | null;
  __followed: boolean;
  /** Set when the record is visible to a plan/follow that lifts history gating. */
  __history_open: boolean;
}

export interface DistrictListArgs {
  filter?: DistrictFilter | null;
  orderBy?: DistrictOrderField | null;
  orderAscending?: boolean | null;
  limit?: number | null;
  offset?: number | null;
  metricQuery?: string | null;
}

export interface DistrictPage {
  data: DistrictRow[];
  pagination: Pagination;
}

/**
 * The table columns District publishes (metric_values is computed), timestamps as ISO text: no Date is
 * parsed only to be formatted again.
 */
const DISTRICT_COLUMNS = selectColumnsSql(
  "d",
  columnsOf(District).filter((c) => c.property !== "metric_values"),
);

/** SELECT list shared by search and by-id loads: the row plus the caller's unlock and follow state. */
function selectDistricts(p: SqlParams, viewer: Viewer): string {
  const org = p.add(viewer.organizationId);
  return `SELECT ${DISTRICT_COLUMNS}, u.state AS __unlock_state, ${isoTimestampSql("u.unlocked_at")} AS __unlocked_at, u.credits_spent AS __credits_spent,
    ${followedSql(org, "district", "d")} AS __followed
  FROM districts d
  LEFT JOIN unlocks u ON u.organization_id = ${org} AND u.entity_type = 'district' AND u.entity_id = d.id`;
}

/** Turns a raw row into what the API serves to this viewer: gating, _access, class prototype. */
export function presentDistrict(row: Record<string, unknown>, viewer: Viewer): DistrictRow {
  const r = row as unknown as DistrictRow;
  const unlocked = r.__unlock_state === "unlocked";
  if (!unlocked) for (const column of GATED) (r as unknown as Record<string, unknown>)[column] = null;
  r._access = {
    is_unlocked: unlocked,
    is_unlocking: r.__unlock_state === "unlock_pending",
    unlocked_at: unlocked ? r.__unlocked_at : null,
    credits_spent: r.__credits_spent ?? 0,
    unlock_cost: DISTRICT_UNLOCK_COST,
  };
  r.__history_open = isPaidPlan(viewer) || r.__followed === true;
  r.metric_values ??= null;
  return Object.setPrototypeOf(r, District.prototype) as DistrictRow;
}

export async function loadDistrictsByIds(db: Db, viewer: Viewer, ids: readonly string[]): Promise<DistrictRow[]> {
  const p = new SqlParams();
  const sql = `${selectDistricts(p, viewer)} WHERE d.id = ANY(${p.add(ids)}::uuid[])`;
  const rows = await db.query(sql, p.values);
  return rows.map((row) => presentDistrict(row, viewer));
}

const ORDER_COLUMNS: Record<DistrictOrderField, string> = {
  name: "name",
  state: "state",
  student_count: "student_count",
  school_count: "school_count",
  revenue_per_student: "revenue_per_student",
  expenditures_per_student: "expenditures_per_student",
  student_teacher_ratio: "student_teacher_ratio",
  total_staff: "total_staff",
  created_at: "created_at",
  last_updated_at: "last_updated_at",
};

const LOCALE_PREFIX = { city: "1", suburban: "2", town: "3", rural: "4" } as const;

function whereClauses(filter: DistrictFilter, p: SqlParams, viewer: Viewer): string[] {
  const w: string[] = [];
  if (filter.state != null) w.push(`d.state = ${p.add(checkState(filter.state))}`);
  if (filter.search != null) w.push(`d.name ILIKE ${p.add(containsPattern(checkText("search", filter.search)))}`);
  if (filter.status != null) w.push(`d.status = ${p.add(filter.status)}`);
  if (filter.ids != null) w.push(`d.id = ANY(${p.add(filter.ids)}::uuid[])`);
  if (filter.listId != null) {
    w.push(`d.id IN (SELECT li.entity_id FROM list_items li JOIN lists l ON l.id = li.list_id
                      WHERE l.id = ${p.add(filter.listId)} AND l.organization_id = ${p.add(viewer.organizationId)})`);
  }
  const ranges: [keyof DistrictFilter, keyof DistrictFilter, string, string, boolean][] = [
    ["minEnrollment", "maxEnrollment", "enrollment", "student_count", true],
    ["minSchoolCount", "maxSchoolCount", "school_count", "school_count", true],
    ["minRevenuePerStudent", "maxRevenuePerStudent", "revenue_per_student", "revenue_per_student", false],
    ["minExpendituresPerStudent", "maxExpendituresPerStudent", "expenditures_per_student", "expenditures_per_student", false],
    ["minStudentTeacherRatio", "maxStudentTeacherRatio", "student_teacher_ratio", "student_teacher_ratio", false],
    ["minTotalStaff", "maxTotalStaff", "total_staff", "total_staff", false],
  ];
  for (const [minKey, maxKey, name, column, integer] of ranges) {
    const min = filter[minKey] as number | undefined;
    const max = filter[maxKey] as number | undefined;
    checkRange(name, min, max, integer);
    if (min != null) w.push(`d.${column} >= ${p.add(min)}`);
    if (max != null) w.push(`d.${column} <= ${p.add(max)}`);
  }
  if (filter.locale != null) w.push(`left(d.locale_code, 1) = ${p.add(LOCALE_PREFIX[filter.locale])}`);
  if (filter.districtType != null) w.push(`lower(d.district_type) = lower(${p.add(checkText("district_type", filter.districtType))})`);
  if (filter.county != null) w.push(`d.county ILIKE ${p.add(containsPattern(checkText("county", filter.county)))}`);
  if (filter.gradeLevels != null) w.push(`d.grade_levels && ${p.add(filter.gradeLevels)}::text[]`);
  w.push(...intelligenceClauses(filter, p, "district_id", "d", "u.state = 'unlocked'"));
  return w;
}

/**
 * `columns`: more columns of each page row, computed from the districts row `d` (a page's nested
 * blocks, district-blocks.ts); they are evaluated for the page's rows only.
 */
export async function listDistricts(
  db: Db,
  viewer: Viewer,
  args: DistrictListArgs,
  columns: readonly { column: string; sql: string }[] = [],
): Promise<DistrictPage> {
  const limit = args.limit ?? 50;
  const offset = args.offset ?? 0;
  checkPaging(limit, offset, DISTRICT_MAX_LIMIT);
  const p = new SqlParams();
  const select = selectDistricts(p, viewer);
  const where = whereClauses(args.filter ?? {}, p, viewer);
  const metric =
    args.metricQuery != null
      ? compileMetricQuery("district", parseMetricQuery("district", args.metricQuery), p, "d", historyOpenSql(viewer, "district", "d", p))
      : null;
  if (metric) where.push(...metric.where);
  const direction = args.orderAscending === false ? "DESC" : "ASC";
  const order = metric?.orderBy ?? `d.${ORDER_COLUMNS[args.orderBy ?? ("name" as DistrictOrderField)]} ${direction} NULLS LAST`;
  const extraSelect = [...(metric?.selects ?? []), ...columns].map((s) => `, ${s.sql} AS ${s.column}`).join("");
  // One statement. The filter, count and sort run over narrow (id, sort key) tuples: a window count over
  // whole district rows would materialise and sort every wide row of the filtered set. Only the page's
  // rows are then read in full, with the caller's unlock and follow state, the selected metrics and blocks.
  // Unfiltered, the total is a plain count (an index-only scan); filtered, the window count reads the
  // filtered set once for both the count and the page.
  const totalSql = where.length ? "count(*) OVER ()" : "(SELECT count(*) FROM districts)";
  const sql = `WITH page AS MATERIALIZED (
      SELECT ranked.*, row_number() OVER () AS __position FROM (
        SELECT d.id AS __id, ${totalSql} AS __total
          FROM districts d
          LEFT JOIN unlocks u ON u.organization_id = ${p.add(viewer.organizationId)} AND u.entity_type = 'district' AND u.entity_id = d.id
          ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY ${order}, d.id ASC
         LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}) ranked)
    ${select.replace("SELECT ", `SELECT page.__total${extraSelect}, `)}
    JOIN page ON page.__id = d.id
    ORDER BY page.__position`;
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  let total = rows.length ? Number(rows[0].__total) : 0;
  if (!rows.length && offset > 0) {
    // Past the end the window function has no row to ride on; count separately (rare path).
    const c = new SqlParams();
    const countSql = `SELECT count(*)::int AS n FROM districts d
      LEFT JOIN unlocks u ON u.organization_id = ${c.add(viewer.organizationId)} AND u.entity_type = 'district' AND u.entity_id = d.id`;
    const cw = whereClauses(args.filter ?? {}, c, viewer);
    const cm =
      args.metricQuery != null
        ? compileMetricQuery("district", parseMetricQuery("district", args.metricQuery), c, "d", historyOpenSql(viewer, "district", "d", c))
        : null;
    if (cm) cw.push(...cm.where);
    total = (await db.query<{ n: number }>(`${countSql} ${cw.length ? `WHERE ${cw.join(" AND ")}` : ""}`, c.values))[0].n;
  }
  const data = rows.map((row) => {
    if (metric) row.metric_values = metricValuesFromRow(metric.selects, row);
    return presentDistrict(row, viewer);
  });
  return { data, pagination: pagination(total, limit, offset) };
}

export async function getDistrictOrThrow(load: (id: string) => Promise<DistrictRow | null>, id: string): Promise<DistrictRow> {
  const row = await load(id);
  if (!row) throw new NotFoundError(`district ${id}`);
  return row;
}
