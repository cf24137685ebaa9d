/**
 * The extraction job of a pending unlock (`unlock.extract`) and the hold sweeper.
 *
 * A pending unlock is a hold plus this job. The job runs the extraction (the pipeline of
 * src/features/research/extraction for entities with a website_url, else the demo layer's), then in one transaction commits the hold and
 * marks the unlock unlocked. When its last retry fails, it releases the hold and marks the unlock failed
 * (a re-extraction keeps its access and records the error). Settling is a conditional update of the
 * hold (credits.service `settleHold`): a duplicated or retried job, or the sweeper, cannot settle twice.
 *
 * The sweeper (run by the worker every WORKER_POLL_SECONDS) releases holds past `expires_at` the same way:
 * an extraction that never finishes does not keep credits forever.
 */
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { defineJob, type JobContext } from "../../../jobs/job";
import { logger } from "../../../logger";
import { MONEY_TX, type Tx } from "../../../db/transaction";
import { expiredHolds, settleHold } from "../credits/credits.service";

export interface ExtractJobData {
  holdId: string;
  organizationId: string;
  entityType: string;
  entityId: string;
}

/** The job attempt an extraction runs in (absent when a test calls an extractor directly). */
export interface ExtractionRun {
  env: Env;
  jobId: string;
  retryCount: number;
}

/** Runs an entity's extraction (writes its intelligence); throws when it fails. */
export type Extractor = (db: Db, entityType: string, entityId: string, run?: ExtractionRun) => Promise<void>;

export const demoExtractor: Extractor = async (db, entityType, entityId) => {
  if (entityType === "contact") {
    const { enrichDemoContact } = await import("../../../seed/demo/enrich-contact");
    if (!(await enrichDemoContact(db, entityId))) throw new Error(`contact ${entityId} no longer exists`);
    return;
  }
  const { extractDemoEntity } = await import("../../../seed/demo/extract-entity");
  if (entityType !== "district" && entityType !== "school") throw new Error(`no extraction for ${entityType}`);
  const found = await db.transaction((q) => extractDemoEntity(q, entityType, entityId));
  if (!found) throw new Error(`${entityType} ${entityId} no longer exists`);
};

/**
 * The worker's extractor: the real pipeline (src/features/research/extraction) for a district or school with a
 * website_url, the demo extraction for one without (EXTRACTION_DEMO_FALLBACK) and for contacts.
 * Tests replace it with useExtractor.
 */
export const pipelineExtractor: Extractor = async (db, entityType, entityId, run) => {
  const { extractEntity } = await import("../../research/extraction/extraction.extractor");
  await extractEntity(db, entityType, entityId, run, demoExtractor);
};

let extractor: Extractor = pipelineExtractor;
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
      const now = new Date();
      const row = await unlockOf(tx, data);
      if (!row || row.hold_id !== data.holdId) return;
      await tx.unlock.update({
        where: { id: row.id },
        data: { state: "unlocked", credits_spent: { increment: amount }, unlocked_at: now, finished_at: now, error: null },
      });
    }, MONEY_TX);
  },
  async onFinalFailure(ctx, data, error) {
    await releaseHold(ctx.db, data.holdId, `extraction failed: ${error.message}`.slice(0, 500));
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

/** Releases an open hold and fails its unlock (a re-extraction keeps access). False when it was not open. */
async function releaseHold(db: Db, holdId: string, reason: string): Promise<boolean> {
  return db.prisma.$transaction(async (tx) => {
    const held = await tx.creditHold.findUnique({ where: { id: holdId } });
    if (!held) return false;
    const amount = await settleHold(tx, holdId, "released", reason);
    if (amount === null) return false;
    const row = await unlockOf(tx, { organizationId: held.organization_id, entityType: held.entity_type, entityId: held.entity_id });
    if (row && row.hold_id === holdId)
      await tx.unlock.update({
        where: { id: row.id },
        data: { state: row.state === "unlocked" ? "unlocked" : "failed", error: reason, finished_at: new Date() },
      });
    return true;
  }, MONEY_TX);
}

/** Releases every open hold past its expiry; returns how many this call released. */
export async function sweepExpiredHolds(db: Db, now = new Date()): Promise<number> {
  let released = 0;
  for (const expired of await expiredHolds(db, now))
    if (await releaseHold(db, expired.id, "hold expired before the extraction finished")) released += 1;
  if (released) logger.info("expired holds released", { released });
  return released;
}
