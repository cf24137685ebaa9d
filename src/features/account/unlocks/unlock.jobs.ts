/**
 * The extraction job of a pending unlock (`unlock.extract`), and what releasing an unlock's hold means.
 *
 * A pending unlock is a hold plus this job. The job runs the extraction (an `Extractor`: the pipeline of
 * src/features/research/extraction, whose fallback for entities without a website_url the composition root sets),
 * then in one transaction commits the hold and marks the unlock unlocked. When its last retry fails, it releases
 * the hold and marks the unlock failed (a re-extraction keeps its access and records the error). Settling is a
 * conditional update of the hold (credits.service `settleHold`): a duplicated or retried job, or the credits
 * feature's hold sweeper (credits.jobs.ts, passed `unlockHoldReleased`), cannot settle twice.
 */
import type { Db } from "../../../db/client";
import { MONEY_TX, type Tx } from "../../../db/transaction";
import { faultPoint } from "../../../fault-points";
import { defineJob, type JobContext } from "../../../jobs/job";
import { pipelineExtractor, type Extractor } from "../../research/extraction/extraction.extractor";
import { releaseHold, type OnHoldReleased } from "../credits/credits.jobs";
import { settleHold } from "../credits/credits.service";
import { emitEvent } from "../webhooks/webhook.outbox";

export interface ExtractJobData {
  holdId: string;
  organizationId: string;
  entityType: string;
  entityId: string;
}

let extractor: Extractor = pipelineExtractor;
/** Replaces the job's extractor (tests: the demo extractor, a failing one). */
export function useExtractor(next: Extractor): void {
  extractor = next;
}

export const extractJob = defineJob<ExtractJobData>({
  name: "unlock.extract",
  async run(ctx: JobContext, data, attempt) {
    const open = await ctx.db.prisma.creditHold.count({ where: { id: data.holdId, status: "open" } });
    if (!open) return; // settled already (expired and released, or a duplicate delivery)
    // unlock-status shows the attempts made and, while the job retries, the last failed attempt's error.
    await recordAttempt(ctx.db, data, { attempts: attempt.retryCount + 1 });
    try {
      await extractor(ctx.db, data.entityType, data.entityId, { env: ctx.env, jobId: attempt.id, retryCount: attempt.retryCount });
    } catch (error) {
      await recordAttempt(ctx.db, data, { error: `${(error as Error).message}`.slice(0, 500) }).catch(() => undefined);
      throw error;
    }
    await ctx.db.prisma.$transaction(async (tx) => {
      const amount = await settleHold(tx, data.holdId, "committed", "extraction completed");
      if (amount === null) return;
      await faultPoint("unlock.settle");
      const now = new Date();
      const row = await unlockOf(tx, data);
      if (!row || row.hold_id !== data.holdId) return;
      const unlocked = await tx.unlock.update({
        where: { id: row.id },
        data: { state: "unlocked", credits_spent: { increment: amount }, unlocked_at: now, finished_at: now, error: null },
      });
      await emitUnlockEvent(tx, "unlock.completed", unlocked);
    }, MONEY_TX);
  },
  async onFinalFailure(ctx, data, error) {
    await releaseHold(ctx.db, data.holdId, `extraction failed: ${error.message}`.slice(0, 500), unlockHoldReleased);
  },
});

/** Writes on the unlock this job's hold belongs to (none when another unlock of the entity replaced it). */
const recordAttempt = (db: Db, data: ExtractJobData, values: { attempts?: number; error?: string }) =>
  db.prisma.unlock.updateMany({
    where: { organization_id: data.organizationId, entity_type: data.entityType, entity_id: data.entityId, hold_id: data.holdId },
    data: values,
  });

const unlockOf = (tx: Tx, data: { organizationId: string; entityType: string; entityId: string }) =>
  tx.unlock.findUnique({
    where: {
      organization_id_entity_type_entity_id: {
        organization_id: data.organizationId,
        entity_type: data.entityType,
        entity_id: data.entityId,
      },
    },
  });

/** A released hold fails its unlock, when the unlock still has that hold (a re-extraction keeps access). */
export const unlockHoldReleased: OnHoldReleased = async (tx, held, reason) => {
  const row = await unlockOf(tx, { organizationId: held.organization_id, entityType: held.entity_type, entityId: held.entity_id });
  if (!row || row.hold_id !== held.id) return;
  const settled = await tx.unlock.update({
    where: { id: row.id },
    data: { state: row.state === "unlocked" ? "unlocked" : "failed", error: reason, finished_at: new Date() },
  });
  // A failed re-extraction keeps its access: only an unlock that ends failed is reported as one.
  if (settled.state === "failed") await emitUnlockEvent(tx, "unlock.failed", settled);
};

/** The webhook event of an unlock that ended (docs/webhooks.md, "Events"), in the transaction that ended it. */
export const emitUnlockEvent = (
  tx: Tx,
  type: "unlock.completed" | "unlock.failed",
  row: {
    organization_id: string;
    entity_type: string;
    entity_id: string;
    state: string;
    credits_spent: number;
    error: string | null;
    unlocked_at: Date | null;
    finished_at: Date | null;
  },
) =>
  emitEvent(tx, type, row.organization_id, {
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    state: row.state,
    credits_spent: row.credits_spent,
    unlocked_at: row.unlocked_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    error: row.error,
  });
