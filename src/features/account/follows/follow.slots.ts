/**
 * The follow-slot rule (contract section 7), in one place for every reader: a follow holds its organization's
 * slot while it is active and, once unfollowed, until its `slot_released_at` (the later of the unfollow and
 * `followed_at` + FOLLOW_SLOT_MIN_DAYS). Slots count against FREE_FOLLOW_SLOTS (follow.service.ts), and a free
 * organization sees an entity's history while it holds the entity's slot (access.service.ts, briefs): the slot
 * is paid for, so follow-read-unfollow loops open at most FREE_FOLLOW_SLOTS histories per FOLLOW_SLOT_MIN_DAYS.
 * No imports: access.service.ts, which most features load, reads it.
 */

/** SQL true while the follow row `f` holds its slot (the database clock decides). */
export const holdsSlotSql = (f: string): string => `(${f}.unfollowed_at IS NULL OR ${f}.slot_released_at > now())`;

/**
 * SQL true when organization `org` holds a slot of the entity (`type`, `id`: SQL expressions). History gating
 * of free plans; `sf` is the subquery's own alias.
 */
export const holdsEntitySlotSql = (org: string, type: string, id: string): string =>
  `EXISTS (SELECT 1 FROM follows sf WHERE sf.organization_id = ${org} AND sf.entity_type = ${type}
             AND sf.entity_id = ${id} AND ${holdsSlotSql("sf")})`;

const DAY_MS = 86_400_000;

/** When an unfollow at `now` releases the slot of a follow made at `followedAt`. */
export const slotReleasedAt = (followedAt: Date, now: Date, minDays: number): Date =>
  new Date(Math.max(now.getTime(), followedAt.getTime() + minDays * DAY_MS));
