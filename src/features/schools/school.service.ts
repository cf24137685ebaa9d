/**
 * School search and lookup. A list page is one statement (filter, count, page, and the nested blocks
 * the query selects), like the district list; its rows are primed into the per-request loader.
 */
import type { Db } from "../../db/client";
import { SqlParams } from "../../db/sql";
import { defineAccess, UNLOCK_COST } from "../access/access.service";
import type { Viewer } from "../auth/viewer";
import { pagination } from "../common/common.type";
import { LOCALE_CODE_PREFIX } from "../common/enums";
import {
  anyOf,
  checkState,
  contains,
  equals,
  equalsIgnoringCase,
  inCallerLists,
  overlaps,
  pageArgs,
  range,
  sortClause,
  type FilterClause,
  type PageOf,
} from "../common/list-kit";
import type { Selection } from "../common/selection";
import { defineRecords, listRecords, loadRecordsByIds, presentRecord, selectRecordsSql, type RecordRow } from "../blocks/record.service";
import { intelligenceFilter } from "../intelligence/intelligence.service";
import {
  DISTRICT_SCHOOLS_DEFAULT_LIMIT,
  SCHOOL_MAX_LIMIT,
  type DistrictSchoolsArgs,
  type SchoolFilter,
  type SchoolListArgs,
  type SchoolOrderField,
} from "./school.inputs";
import { School } from "./school.type";

const SCHOOL_ACCESS = defineAccess({
  entityType: "school",
  unlockCost: UNLOCK_COST.school,
  gatedColumns: ["ai_summary", "summary_generated_at"],
});

export interface SchoolRow extends School, RecordRow {}

/** Every filter of GET /schools, in the order their parameters are checked. */
const FILTER: FilterClause<SchoolFilter, Viewer>[] = [
  equals("districtId", "s.district_id", undefined, "::uuid"),
  anyOf("ids", "s.id", "uuid"),
  equals("state", "s.state", checkState),
  contains("search", "s.name", "search"),
  equals("status", "s.status"),
  range("minEnrollment", "maxEnrollment", "enrollment", "s.student_count", true),
  range("minStudentTeacherRatio", "maxStudentTeacherRatio", "student_teacher_ratio", "s.student_teacher_ratio", false),
  equalsIgnoringCase("schoolType", "s.school_type", "school_type"),
  overlaps("gradeLevels", "s.grade_buckets"),
  equals("locale", "left(s.locale_code, 1)", (locale) => LOCALE_CODE_PREFIX[locale]),
  contains("county", "s.county", "county"),
  inCallerLists("listId", "s.id", "school"),
  inCallerLists("districtListIds", "s.district_id", "district"),
  intelligenceFilter("s", "school_id", "u"),
];

const ORDER_COLUMNS: Record<SchoolOrderField, string> = {
  name: "name",
  state: "state",
  student_count: "student_count",
  student_teacher_ratio: "student_teacher_ratio",
  created_at: "created_at",
  last_updated_at: "last_updated_at",
};

export const SCHOOLS = defineRecords<SchoolFilter, SchoolOrderField>({
  kind: "school",
  type: School,
  alias: "s",
  access: SCHOOL_ACCESS,
  filter: FILTER,
  orderColumns: ORDER_COLUMNS,
  defaultOrder: "name" as SchoolOrderField,
  maxLimit: SCHOOL_MAX_LIMIT,
});

export const loadSchoolsByIds = (db: Db, viewer: Viewer, ids: readonly string[]): Promise<SchoolRow[]> =>
  loadRecordsByIds<SchoolRow, SchoolFilter, SchoolOrderField>(db, viewer, SCHOOLS, ids);

/** A page of schools with the blocks `selection` (of one record) asks for. */
export const listSchools = (db: Db, viewer: Viewer, args: SchoolListArgs, selection?: Selection): Promise<PageOf<SchoolRow>> =>
  listRecords<SchoolRow, SchoolFilter, SchoolOrderField>(db, viewer, SCHOOLS, args, selection);

/**
 * One page of schools per district, for every district of `districtIds` in one statement: the window
 * numbers each district's schools in page order; row 1 always comes back too so a district whose page
 * lies past its end still reports its total. Pages are returned in key order.
 */
export async function loadSchoolPagesOfDistricts(
  db: Db,
  viewer: Viewer,
  districtIds: readonly string[],
  args: DistrictSchoolsArgs,
): Promise<PageOf<SchoolRow>[]> {
  const { limit, offset } = pageArgs(args, SCHOOL_MAX_LIMIT, DISTRICT_SCHOOLS_DEFAULT_LIMIT);
  const p = new SqlParams();
  const order = sortClause("s", ORDER_COLUMNS[args.orderBy ?? ("name" as SchoolOrderField)], args.orderAscending);
  const numbered = `,
        (row_number() OVER (PARTITION BY s.district_id ORDER BY ${order}))::int AS __rn,
        (count(*) OVER (PARTITION BY s.district_id))::int AS __page_total`;
  const sql = `SELECT * FROM (
      ${selectRecordsSql(SCHOOLS, p.add(viewer.organizationId), numbered)}
      WHERE s.district_id = ANY(${p.add(districtIds)}::uuid[])
    ) x
    WHERE x.__rn <= ${p.add(offset + limit)} AND (x.__rn > ${p.add(offset)} OR x.__rn = 1)
    ORDER BY x.district_id, x.__rn`;
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  const pages = new Map<string, PageOf<SchoolRow>>(districtIds.map((id) => [id, { data: [], pagination: pagination(0, limit, offset) }]));
  for (const row of rows) {
    const page = pages.get(row.district_id as string);
    if (!page) continue;
    page.pagination = pagination(Number(row.__page_total), limit, offset);
    if (Number(row.__rn) <= offset) continue;
    page.data.push(presentRecord<SchoolRow>(SCHOOLS, row, viewer));
  }
  return districtIds.map((id) => pages.get(id)!);
}
