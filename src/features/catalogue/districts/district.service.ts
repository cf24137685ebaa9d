/**
 * District search and lookup. A list page is one statement (filter, count, page, and the nested blocks
 * the query selects); its rows are primed into the per-request loader.
 */
import type { Db } from "../../../db/client";
import { defineAccess } from "../../account/access/access.service";
import { UNLOCK_COST } from "../../account/credits/pricing";
import type { Viewer } from "../../account/auth/viewer";
import type { PageOf } from "../../kits/common/list-kit";
import type { Selection } from "../../kits/common/selection";
import { defineRecords, listRecords, loadRecordsByIds, type RecordRow } from "../../kits/blocks/record.service";
import { District } from "./district.type";
import { DISTRICT_LIST, type DistrictFilter, type DistrictListArgs, type DistrictOrderField } from "./district.inputs";

export const DISTRICT_ACCESS = defineAccess({
  entityType: "district",
  unlockCost: UNLOCK_COST.district,
  gatedColumns: ["ai_summary", "summary_generated_at", "strategic_priorities", "meeting_minutes_pdfs"],
});

export interface DistrictRow extends District, RecordRow {}

export const DISTRICTS = defineRecords<DistrictFilter, DistrictOrderField>({
  kind: "district",
  type: District,
  alias: "d",
  access: DISTRICT_ACCESS,
  list: DISTRICT_LIST,
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
