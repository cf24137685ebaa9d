/**
 * School search and lookup. A list page is one statement (filter, count, page, and the nested blocks
 * the query selects), like the district list; its rows are primed into the per-request loader.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { defineAccess } from "../../account/access/access.service";
import { UNLOCK_COST } from "../../account/credits/pricing";
import type { Viewer } from "../../account/auth/viewer";
import { childPageColumns, childPagesSql, pageArgs, readChildPages, type PageOf } from "../../kits/common/list-kit";
import type { Selection } from "../../kits/common/selection";
import {
  defineRecords,
  listRecords,
  loadRecordsByIds,
  presentRecord,
  selectRecordsSql,
  type RecordRow,
} from "../../kits/blocks/record.service";
import {
  DISTRICT_SCHOOLS_DEFAULT_LIMIT,
  SCHOOL_LIST,
  SCHOOL_MAX_LIMIT,
  type DistrictSchoolsArgs,
  type SchoolFilter,
  type SchoolListArgs,
  type SchoolOrderField,
} from "./school.inputs";
import { School } from "./school.type";

export const SCHOOL_ACCESS = defineAccess({
  entityType: "school",
  unlockCost: UNLOCK_COST.school,
  gatedColumns: ["ai_summary", "summary_generated_at"],
});

export interface SchoolRow extends School, RecordRow {}

export const SCHOOLS = defineRecords<SchoolFilter, SchoolOrderField>({
  kind: "school",
  type: School,
  alias: "s",
  access: SCHOOL_ACCESS,
  list: SCHOOL_LIST,
});

export const loadSchoolsByIds = (db: Db, viewer: Viewer, ids: readonly string[]): Promise<SchoolRow[]> =>
  loadRecordsByIds<SchoolRow, SchoolFilter, SchoolOrderField>(db, viewer, SCHOOLS, ids);

/** A page of schools with the blocks `selection` (of one record) asks for. */
export const listSchools = (db: Db, viewer: Viewer, args: SchoolListArgs, selection?: Selection): Promise<PageOf<SchoolRow>> =>
  listRecords<SchoolRow, SchoolFilter, SchoolOrderField>(db, viewer, SCHOOLS, args, selection);

/**
 * One page of schools per district, for every district of `districtIds` in one statement (list kit
 * `childPagesSql`: a page per parent is a list page, which Prisma cannot read in one statement for many
 * parents with their access columns). Pages are returned in key order.
 */
export async function loadSchoolPagesOfDistricts(
  db: Db,
  viewer: Viewer,
  districtIds: readonly string[],
  args: DistrictSchoolsArgs,
): Promise<PageOf<SchoolRow>[]> {
  const page = pageArgs(args, SCHOOL_MAX_LIMIT, DISTRICT_SCHOOLS_DEFAULT_LIMIT);
  const p = new SqlParams();
  const order = SCHOOL_LIST.order("s", args.orderBy, args.orderAscending);
  const sql = childPagesSql({
    rows: `${selectRecordsSql(SCHOOLS, p.add(viewer.organizationId), childPageColumns("s.district_id", order))}
      WHERE s.district_id = ANY(${p.add(districtIds)}::uuid[])`,
    limit: p.add(page.limit),
    offset: p.add(page.offset),
  });
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  return readChildPages(rows, districtIds, page, (row) => presentRecord<SchoolRow>(SCHOOLS, row, viewer));
}

/** Ids of the schools having these NCES ids (Prisma, a read by key; `fed_id` is unique), one per fed id in order, null when none. */
export async function loadSchoolIdsByFedIds(db: Db, fedIds: readonly string[]): Promise<(string | null)[]> {
  const rows = await db.prisma.school.findMany({ where: { fed_id: { in: [...fedIds] } }, select: { id: true, fed_id: true } });
  const ids = new Map(rows.map((row) => [row.fed_id, row.id]));
  return fedIds.map((fedId) => ids.get(fedId) ?? null);
}
