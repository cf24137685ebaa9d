/**
 * District search and lookup. A list page is one statement (filter, count, page, and the nested blocks
 * the query selects); its rows are primed into the per-request loader.
 */
import type { Db } from "../../../db/client";
import { defineAccess } from "../../account/access/access.service";
import { UNLOCK_COST } from "../../account/credits/pricing";
import type { Viewer } from "../../account/auth/viewer";
import { LOCALE_CODE_PREFIX } from "../../kits/common/enums";
import {
  anyOf,
  contains,
  equals,
  equalsIgnoringCase,
  fedIdsIn,
  inCallerLists,
  overlaps,
  range,
  checkState,
  updatedSince,
  type FilterClause,
  type PageOf,
} from "../../kits/common/list-kit";
import type { Selection } from "../../kits/common/selection";
import { defineRecords, listRecords, loadRecordsByIds, type RecordRow } from "../../kits/blocks/record.service";
import { intelligenceFilter } from "../../research/intelligence/intelligence.service";
import { District } from "./district.type";
import { DISTRICT_MAX_LIMIT, type DistrictFilter, type DistrictListArgs, type DistrictOrderField } from "./district.inputs";

const DISTRICT_ACCESS = defineAccess({
  entityType: "district",
  unlockCost: UNLOCK_COST.district,
  gatedColumns: ["ai_summary", "summary_generated_at", "strategic_priorities", "meeting_minutes_pdfs"],
});

export interface DistrictRow extends District, RecordRow {}

/** Every filter of GET /districts, in the order their parameters are checked. */
const FILTER: FilterClause<DistrictFilter, Viewer>[] = [
  equals("state", "d.state", checkState),
  contains("search", "d.name", "search"),
  equals("status", "d.status"),
  anyOf("ids", "d.id", "uuid"),
  fedIdsIn("fedIds", "d.fed_id", 7),
  updatedSince("updatedSince", "d.last_updated_at"),
  inCallerLists("listId", "d.id", "district"),
  range("minEnrollment", "maxEnrollment", "enrollment", "d.student_count", true),
  range("minSchoolCount", "maxSchoolCount", "school_count", "d.school_count", true),
  range("minRevenuePerStudent", "maxRevenuePerStudent", "revenue_per_student", "d.revenue_per_student", false),
  range("minExpendituresPerStudent", "maxExpendituresPerStudent", "expenditures_per_student", "d.expenditures_per_student", false),
  range("minStudentTeacherRatio", "maxStudentTeacherRatio", "student_teacher_ratio", "d.student_teacher_ratio", false),
  range("minTotalStaff", "maxTotalStaff", "total_staff", "d.total_staff", false),
  equals("locale", "left(d.locale_code, 1)", (locale) => LOCALE_CODE_PREFIX[locale]),
  equalsIgnoringCase("districtType", "d.district_type", "district_type"),
  contains("county", "d.county", "county"),
  overlaps("gradeLevels", "d.grade_levels"),
  intelligenceFilter("d", "district_id", "u"),
];

export const DISTRICTS = defineRecords<DistrictFilter, DistrictOrderField>({
  kind: "district",
  type: District,
  alias: "d",
  access: DISTRICT_ACCESS,
  filter: FILTER,
  orderColumns: {
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
  },
  defaultOrder: "name" as DistrictOrderField,
  maxLimit: DISTRICT_MAX_LIMIT,
});

export const loadDistrictsByIds = (db: Db, viewer: Viewer, ids: readonly string[]): Promise<DistrictRow[]> =>
  loadRecordsByIds<DistrictRow, DistrictFilter, DistrictOrderField>(db, viewer, DISTRICTS, ids);

/** A page of districts with the blocks `selection` (of one record) asks for. */
export const listDistricts = (db: Db, viewer: Viewer, args: DistrictListArgs, selection?: Selection): Promise<PageOf<DistrictRow>> =>
  listRecords<DistrictRow, DistrictFilter, DistrictOrderField>(db, viewer, DISTRICTS, args, selection);

/** Ids of the districts having these NCES ids (Prisma, a read by key; `fed_id` is unique), one per fed id in order, null when none. */
export async function loadDistrictIdsByFedIds(db: Db, fedIds: readonly string[]): Promise<(string | null)[]> {
  const rows = await db.prisma.district.findMany({ where: { fed_id: { in: [...fedIds] } }, select: { id: true, fed_id: true } });
  const ids = new Map(rows.map((row) => [row.fed_id, row.id]));
  return fedIds.map((fedId) => ids.get(fedId) ?? null);
}
