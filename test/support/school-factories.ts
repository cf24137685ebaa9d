/** Test rows for schools and the caller-specific rows (unlocks, follows, lists) their queries read. */
import type { Db } from "../../src/db/client";
import { insert } from "./factories";

let counter = 0;
const next = () => (counter += 1);

export async function insertSchool(db: Db, values: Record<string, unknown> = {}): Promise<string> {
  const n = next();
  return insert(db, "schools", {
    fed_id: `88${String(n).padStart(10, "0")}`,
    name: `Test School ${n}`,
    state: "NE",
    data_source: "test",
    ...values,
  });
}

export async function insertSchoolStats(db: Db, schoolId: string, year: number, values: Record<string, unknown> = {}): Promise<string> {
  return insert(db, "school_annual_stats", { school_id: schoolId, school_year_start: year, ...values });
}

export async function insertSchoolBreakdown(
  db: Db,
  schoolId: string,
  year: number,
  key: string,
  category: string,
  subgroup: string,
  value: number,
): Promise<void> {
  await insert(db, "school_stat_breakdowns", {
    school_id: schoolId,
    school_year_start: year,
    breakdown_key: key,
    category,
    subgroup,
    value,
    source_version: `test ${year}`,
  });
}

export async function insertUnlock(
  db: Db,
  organizationId: string,
  entityType: string,
  entityId: string,
  state = "unlocked",
): Promise<string> {
  return insert(db, "unlocks", {
    organization_id: organizationId,
    entity_type: entityType,
    entity_id: entityId,
    state,
    credits_spent: state === "unlocked" ? 6 : 0,
    unlocked_at: state === "unlocked" ? new Date("2026-01-02T03:04:05.678Z") : null,
  });
}

export async function insertFollow(db: Db, organizationId: string, entityType: string, entityId: string): Promise<string> {
  const projectId = await insert(db, "projects", { organization_id: organizationId, name: `Project ${next()}` });
  return insert(db, "follows", { organization_id: organizationId, project_id: projectId, entity_type: entityType, entity_id: entityId });
}

export async function insertList(db: Db, organizationId: string, entityType: string, entityIds: string[]): Promise<string> {
  const listId = await insert(db, "lists", { organization_id: organizationId, name: `List ${next()}`, entity_type: entityType });
  for (const entityId of entityIds) {
    await db.query(`INSERT INTO list_items (list_id, entity_id) VALUES ($1, $2)`, [listId, entityId]);
  }
  return listId;
}
