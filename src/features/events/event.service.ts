/**
 * Timeline events of a district or school, chronological: event_date, then created_at, then id (so
 * events of one day keep a stable order). Events are public (contract section 4).
 */
import type { Db } from "../../db/client";
import { ENTITY_SQL, type EntityKind } from "../common/entity-kind";
import type { TimelineEvent } from "./event.type";

const ORDER_COLUMNS = ["event_date", "created_at", "id"];
/** The events' order (alias `e`). */
export const CHRONOLOGICAL = (e: string): string => ORDER_COLUMNS.map((c) => `${e}.${c}`).join(", ");
/** The same order reversed: the latest first. */
export const LATEST_FIRST = (e: string): string => ORDER_COLUMNS.map((c) => `${e}.${c} DESC`).join(", ");
const COLUMNS = "e.id, e.entity_id, e.entity_type, e.event_date, e.event_type, e.title, e.description, e.source_url, e.created_at";

/** The events of one entity, or null when no such entity exists. One statement. */
export async function listEntityEvents(db: Db, kind: EntityKind, id: string): Promise<TimelineEvent[] | null> {
  // LEFT JOIN from the entity: no row means no entity; one row with a null id means no events.
  const rows = await db.query<TimelineEvent & { id: string | null }>(
    `SELECT ${COLUMNS} FROM ${ENTITY_SQL[kind].table} x
       LEFT JOIN timeline_events e ON e.entity_type = $2 AND e.entity_id = x.id
      WHERE x.id = $1 ORDER BY ${CHRONOLOGICAL("e")}`,
    [id, kind],
  );
  if (!rows.length) return null;
  return rows.filter((row) => row.id !== null) as TimelineEvent[];
}
