/**
 * The hold sweeper and the release of a hold. A hold past `expires_at` is released by the worker's sweeper
 * (every WORKER_POLL_SECONDS, src/jobs/worker.ts): work that never finishes does not keep credits forever.
 *
 * Releasing is a conditional update of the hold (`settleHold`), so a sweeper racing a job, or two sweepers,
 * release it once. What a release means beyond the ledger belongs to the feature that took the hold: it passes
 * `onReleased`, which runs in the releasing transaction (unlocks fail the hold's unlock, unlock.jobs.ts).
 */
import type { Db } from "../../../db/client";
import { MONEY_TX, type Tx } from "../../../db/transaction";
import { logger } from "../../../logger";
import { expiredHolds, settleHold } from "./credits.service";

/** The hold a release settled: what it reserved credits for. */
export interface ReleasedHold {
  id: string;
  organization_id: string;
  entity_type: string;
  entity_id: string;
}

/** Runs inside the releasing transaction once the hold was released (never when it was not open). */
export type OnHoldReleased = (tx: Tx, hold: ReleasedHold, reason: string) => Promise<void>;

/** Releases an open hold (its credits go back to available). False when it was not open. */
export async function releaseHold(db: Db, holdId: string, reason: string, onReleased: OnHoldReleased): Promise<boolean> {
  return db.prisma.$transaction(async (tx) => {
    const held = await tx.creditHold.findUnique({ where: { id: holdId } });
    if (!held) return false;
    const amount = await settleHold(tx, holdId, "released", reason);
    if (amount === null) return false;
    await onReleased(tx, held, reason);
    return true;
  }, MONEY_TX);
}

/** Releases every open hold past its expiry; returns how many this call released. */
export async function sweepExpiredHolds(db: Db, onReleased: OnHoldReleased, now = new Date()): Promise<number> {
  let released = 0;
  for (const expired of await expiredHolds(db, now))
    if (await releaseHold(db, expired.id, "hold expired before the extraction finished", onReleased)) released += 1;
  if (released) logger.info("expired holds released", { released });
  return released;
}
