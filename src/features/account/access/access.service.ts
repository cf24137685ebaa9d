/**
 * Access to gated records (contract section 4), in one place for every gated resource (districts,
 * schools; contacts and later ones declare their own policy the same way):
 *
 * - a record's unlock state for the caller's organization (`unlocks`), read with the record by
 *   `accessJoinSql` + `accessColumnsSql`, and its follow state (`follows`);
 * - `presentGated`: the gated columns nulled unless unlocked, `_access`, and `__history_open`;
 * - history gating: free plans see only a series' latest year unless they follow the record
 *   (`__history_open`, and `historyOpenSql` for the metric query);
 * - gated blocks and filters (the intelligence lists): revealed or matched only for unlocked records
 *   (`isUnlocked`, `unlockedSql`; src/features/kits/blocks/ applies them to blocks declared `gated`).
 */
import type { SqlParams } from "../../../db/sql";
import type { Tx } from "../../../db/transaction";
import type { Timestamp } from "../../../graphql/fields";
import { isPaidPlan, type Viewer } from "../auth/viewer";
import { isoTimestampSql } from "../../kits/common/json-rows";
import type { Access } from "./access.type";
import { holdsEntitySlotSql } from "../follows/follow.slots";

/** How a resource is gated: one declaration per gated resource. */
export interface AccessPolicy {
  /** `unlocks.entity_type` / `follows.entity_type` of its records (a fixed identifier, never user input). */
  readonly entityType: string;
  /** Credits an unlock costs (`_access.unlock_cost`). */
  readonly unlockCost: number;
  /** Columns readable only once unlocked: null for every other caller. */
  readonly gatedColumns: readonly string[];
}

export function defineAccess(policy: AccessPolicy): AccessPolicy {
  if (!/^[a-z_]+$/.test(policy.entityType)) throw new Error(`access: bad entity type ${policy.entityType}`);
  return policy;
}

/** What `presentGated` leaves on a record row (the `__` columns are never served). */
export interface GatedRow {
  id: string;
  _access: Access;
  __unlock_state: string | null;
  /** unlockPendingSql of the caller's unlock. */
  __unlock_pending: boolean | null;
  __unlocked_at: Timestamp | null;
  __credits_spent: number | null;
  __followed: boolean;
  /** The caller sees the record's whole history: a paid plan, or a free plan following it. */
  __history_open: boolean;
}

/** The caller's unlock of the record `alias` (as `unlock`; NULL columns without one). */
export const accessJoinSql = (policy: AccessPolicy, alias: string, unlock: string, org: string): string =>
  `LEFT JOIN unlocks ${unlock} ON ${unlock}.organization_id = ${org} AND ${unlock}.entity_type = '${policy.entityType}' AND ${unlock}.entity_id = ${alias}.id`;

/**
 * SQL true while an unlock (`unlock`: an alias of `unlocks`) is pending: a first unlock waiting for its
 * extraction, or a re-extraction of an unlocked record (state stays `unlocked`), i.e. its hold is open.
 * The one definition of "pending": `_access.is_unlocking` and GET /unlock-status's `unlock_pending` both
 * read it (issue 20 point 11: they disagreed during re-extractions).
 */
export const unlockPendingSql = (unlock: string): string =>
  `(${unlock}.state = 'unlock_pending' OR EXISTS (SELECT 1 FROM credit_holds pending_hold
      WHERE pending_hold.id = ${unlock}.hold_id AND pending_hold.status = 'open'))`;

/** The access columns of a record row (`unlock`: the alias of accessJoinSql). */
export const accessColumnsSql = (policy: AccessPolicy, alias: string, unlock: string, org: string): string =>
  `${unlock}.state AS __unlock_state, ${unlockPendingSql(unlock)} AS __unlock_pending,
    ${isoTimestampSql(`${unlock}.unlocked_at`)} AS __unlocked_at, ${unlock}.credits_spent AS __credits_spent,
    ${followedSql(policy, alias, org)} AS __followed`;

/** SQL true when the caller unlocked the record (`unlock`: the alias of accessJoinSql). */
export const unlockedSql = (unlock: string): string => `${unlock}.state = 'unlocked'`;

/** SQL true when organization `org` holds a follow slot of the record `alias` (follow.slots.ts: followed, or unfollowed within its slot's time). */
const followedSql = (policy: AccessPolicy, alias: string, org: string): string =>
  holdsEntitySlotSql(org, `'${policy.entityType}'`, `${alias}.id`);

/**
 * History gating in SQL (the metric query): true where the caller sees the record's whole history (it
 * follows the record), or null when its plan opens history for every record.
 */
export function historyOpenSql(viewer: Viewer, policy: AccessPolicy, alias: string, p: SqlParams): string | null {
  return isPaidPlan(viewer) ? null : followedSql(policy, alias, p.add(viewer.organizationId));
}

export const isUnlocked = (row: { __unlock_state: string | null }): boolean => row.__unlock_state === "unlocked";

/**
 * Whether organization `organizationId` has unlocked the entity now (unlockedSql's rule, read by key through
 * Prisma): a pending first unlock is still locked. Bid filings and outreach e-mails ask it.
 */
export async function hasUnlocked(tx: Pick<Tx, "unlock">, organizationId: string, entityType: string, entityId: string): Promise<boolean> {
  const row = await tx.unlock.findUnique({
    where: { organization_id_entity_type_entity_id: { organization_id: organizationId, entity_type: entityType, entity_id: entityId } },
    select: { state: true },
  });
  return isUnlocked({ __unlock_state: row?.state ?? null });
}

/** A row read with accessColumnsSql -> what the caller may see of it: gated columns, `_access`, `__history_open`. */
export function presentGated<T extends GatedRow>(row: Record<string, unknown>, viewer: Viewer, policy: AccessPolicy): T {
  const r = row as unknown as T;
  const unlocked = r.__unlock_state === "unlocked";
  if (!unlocked) for (const column of policy.gatedColumns) row[column] = null;
  r._access = {
    is_unlocked: unlocked,
    is_unlocking: r.__unlock_pending === true,
    unlocked_at: unlocked ? r.__unlocked_at : null,
    credits_spent: r.__credits_spent ?? 0,
    unlock_cost: policy.unlockCost,
  };
  r.__history_open = isPaidPlan(viewer) || r.__followed === true;
  return r;
}
