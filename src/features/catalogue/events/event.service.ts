/**
 * Timeline events of a district or school, chronological: event_date, then created_at, then id (so
 * events of one day keep a stable order). Events are public (contract section 4), those restating gated
 * intelligence in their public form unless the caller's organization unlocked the entity (event.access.ts).
 */
import type { Db } from "../../../db/client";
import { accessJoinSql, unlockedSql } from "../../account/access/access.service";
import type { Viewer } from "../../account/auth/viewer";
import { ENTITY_SQL, type EntityKind } from "../../kits/common/entity-kind";
import { EVENT_ACCESS, presentEvent } from "./event.access";
import type { TimelineEvent } from "./event.type";

const ORDER_COLUMNS = ["event_date", "created_at", "id"];
/** The events' order (alias `e`). */
export const CHRONOLOGICAL = (e: string): string => ORDER_COLUMNS.map((c) => `${e}.${c}`).join(", ");
/** The same order reversed: the latest first. */
export const LATEST_FIRST = (e: string): string => ORDER_COLUMNS.map((c) => `${e}.${c} DESC`).join(", ");
const COLUMNS = "e.id, e.entity_id, e.entity_type, e.event_date, e.event_type, e.title, e.description, e.source_url, e.created_at";

/** The events of one entity as the viewer may see them, or null when no such entity exists. One statement. */
export async function listEntityEvents(db: Db, viewer: Viewer, kind: EntityKind, id: string): Promise<TimelineEvent[] | null> {
  // LEFT JOIN from the entity: no row means no entity; one row with a null id means no events.
  const rows = await db.query<TimelineEvent & { id: string | null; __unlocked: boolean }>(
    `SELECT ${COLUMNS}, coalesce(${unlockedSql("u")}, false) AS __unlocked FROM ${ENTITY_SQL[kind].table} x
       ${accessJoinSql(EVENT_ACCESS[kind], "x", "u", "$3")}
       LEFT JOIN timeline_events e ON e.entity_type = $2 AND e.entity_id = x.id
      WHERE x.id = $1 ORDER BY ${CHRONOLOGICAL("e")}`,
    [id, kind, viewer.organizationId],
  );
  if (!rows.length) return null;
  return rows.filter((row) => row.id !== null).map(({ __unlocked, ...event }) => presentEvent(event as TimelineEvent, __unlocked));
}
