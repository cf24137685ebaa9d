/**
 * Which timeline events are gated intelligence, and what an organization that has not unlocked the entity
 * sees of them: the one definition every reader of events applies (GET /districts|schools/{id}/events and
 * GraphQL districtEvents / schoolEvents, the District.events / School.events block, brief dossiers, and so
 * the MCP tools that serve them).
 *
 * An event of a gated type restates the entity's gated intelligence (contract section 4) or quotes a gated
 * document: extraction writes one per contract (contract_award), per funding sentence (grant_award,
 * budget_adopted), per bid (rfp_posted), per board minutes PDF (board_meeting, whose source is a
 * `meeting_minutes_pdfs` entry), and leadership_change from sentences of the same documents (minutes
 * included). Locked, such an event keeps its id, type and dates, its title becomes the type's generic title
 * and the columns carrying facts (description, source_url) are null. Other
 * types (news: a dated page of the public site; press_release) are served as stored.
 */
import { defineAccess, type AccessPolicy } from "../../account/access/access.service";
import { UNLOCK_COST } from "../../account/credits/pricing";
import type { EntityKind } from "../../kits/common/entity-kind";

/** The gated event types and their public titles (no vendor, amount, date or quote). */
export const GATED_EVENT_TITLES: Readonly<Record<string, string>> = {
  contract_award: "Contract award recorded",
  grant_award: "Grant award recorded",
  budget_adopted: "Budget adoption recorded",
  rfp_posted: "Request for proposals recorded",
  board_meeting: "Board meeting recorded",
  leadership_change: "Leadership change recorded",
};

/** The columns of a gated event that carry its facts (the title is replaced, being required). */
const GATED_EVENT_COLUMNS = ["description", "source_url"];

/** A gated event is revealed by unlocking its district or school: the same unlock as the entity's intelligence. */
export const EVENT_ACCESS: Readonly<Record<EntityKind, AccessPolicy>> = {
  district: defineAccess({ entityType: "district", unlockCost: UNLOCK_COST.district, gatedColumns: GATED_EVENT_COLUMNS }),
  school: defineAccess({ entityType: "school", unlockCost: UNLOCK_COST.school, gatedColumns: GATED_EVENT_COLUMNS }),
};

/** The suffix of demo events' titles (src/seed/demo/news.ts). */
const DEMO_MARKER = / \(demo event\)$/;

export const isGatedEvent = (eventType: string): boolean => Object.hasOwn(GATED_EVENT_TITLES, eventType);

/** What a caller sees of one event: as stored when `unlocked` or of a public type, else its public form (a copy). */
export function presentEvent<T extends { event_type: string; title: string }>(event: T, unlocked: boolean): T {
  if (unlocked || !isGatedEvent(event.event_type)) return event;
  // A demo event keeps its marker (docs/demo-data.md): the public form must not pass invented rows off as real.
  const marker = DEMO_MARKER.exec(event.title)?.[0] ?? "";
  const shown: Record<string, unknown> = { ...event, title: `${GATED_EVENT_TITLES[event.event_type]}${marker}` };
  for (const column of GATED_EVENT_COLUMNS) shown[column] = null;
  return shown as T;
}
