/**
 * Delivering webhook events (docs/webhooks.md, "Retries" and "Disabling"). The outbox rows (webhook.outbox.ts) are
 * the schedule: the worker's sweep (`dispatchDueDeliveries`, every WORKER_POLL_SECONDS) sends one `webhooks.deliver`
 * job per due pending delivery, its id made from the delivery and its attempt count, so a sweep that sees the same
 * row again adds nothing. The job makes one attempt; a failure schedules the next one on the row after
 * WEBHOOK_RETRY_BASE_SECONDS * 2^(attempts - 1), up to WEBHOOK_MAX_ATTEMPTS; WEBHOOK_DISABLE_AFTER_FAILURES failed
 * attempts in a row disable the webhook. Retries live on the row rather than in pg-boss's retry so the delivery log
 * shows the next attempt's time, and a webhook's backoff is its own, not the extraction jobs'.
 */
import type { Db } from "../../../db/client";
import { defineJob, jobIdOf, type JobContext } from "../../../jobs/job";
import type { JobQueue } from "../../../jobs/queue";
import { attemptDelivery } from "./webhook.delivery";

export interface DeliverJobData {
  deliveryId: string;
  /** Attempts made before this one: a job for an attempt already made finds nothing to do. */
  attempt: number;
}

/** How long a claimed attempt holds its row: a worker that died mid-attempt is retried after it. */
const LEASE_MS = 120_000;
/** Due deliveries one sweep hands to the queue (the rest wait for the next sweep). */
const DISPATCH_BATCH = 200;

export const deliverJob = defineJob<DeliverJobData>({
  name: "webhooks.deliver",
  async run(ctx: JobContext, data) {
    const claimedAt = new Date();
    const { count } = await ctx.db.prisma.webhookDelivery.updateMany({
      where: { id: data.deliveryId, status: "pending", attempts: data.attempt },
      data: { attempts: data.attempt + 1, last_attempt_at: claimedAt, next_attempt_at: new Date(claimedAt.getTime() + LEASE_MS) },
    });
    if (!count) return; // attempted already (a duplicate job), or settled
    const delivery = await ctx.db.prisma.webhookDelivery.findUniqueOrThrow({
      where: { id: data.deliveryId },
      include: { webhook: { select: { url: true, secret: true, disabled_at: true } } },
    });
    if (delivery.webhook.disabled_at) {
      await ctx.db.prisma.webhookDelivery.update({
        where: { id: delivery.id },
        data: { status: "failed", next_attempt_at: null, last_error: "the webhook is disabled" },
      });
      return;
    }
    // The body is the same bytes on every attempt: the event as written, with the time it happened.
    const body = JSON.stringify({ type: delivery.event_type, timestamp: delivery.created_at.toISOString(), data: delivery.payload });
    const result = await attemptDelivery(
      delivery.webhook.url,
      delivery.webhook.secret,
      delivery.id,
      Math.floor(claimedAt.getTime() / 1000),
      body,
      {
        allowPrivateHosts: ctx.env.EXTRACTION_ALLOW_PRIVATE_HOSTS === "true",
        timeoutMs: ctx.env.WEBHOOK_TIMEOUT_SECONDS * 1000,
      },
    );
    await recordAttempt(ctx, delivery.id, delivery.webhook_id, data.attempt + 1, result);
  },
});

/** Writes an attempt's outcome on the delivery and its webhook (failures in a row; disabling), one transaction. */
async function recordAttempt(
  ctx: JobContext,
  deliveryId: string,
  webhookId: string,
  attempts: number,
  result: { ok: boolean; status: number | null; error: string | null },
): Promise<void> {
  const now = new Date();
  await ctx.db.prisma.$transaction(async (tx) => {
    if (result.ok) {
      await tx.webhookDelivery.update({
        where: { id: deliveryId },
        data: { status: "delivered", response_status: result.status, last_error: null, delivered_at: now, next_attempt_at: null },
      });
      await tx.webhook.update({ where: { id: webhookId }, data: { consecutive_failures: 0 } });
      return;
    }
    const last = attempts >= ctx.env.WEBHOOK_MAX_ATTEMPTS;
    const waitMs = ctx.env.WEBHOOK_RETRY_BASE_SECONDS * 1000 * 2 ** (attempts - 1);
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: {
        status: last ? "failed" : "pending",
        response_status: result.status,
        last_error: result.error,
        next_attempt_at: last ? null : new Date(now.getTime() + waitMs),
      },
    });
    const webhook = await tx.webhook.update({
      where: { id: webhookId },
      data: { consecutive_failures: { increment: 1 } },
      select: { consecutive_failures: true, disabled_at: true },
    });
    if (webhook.disabled_at || webhook.consecutive_failures < ctx.env.WEBHOOK_DISABLE_AFTER_FAILURES) return;
    const reason = `disabled after ${webhook.consecutive_failures} failed attempts in a row (last: ${result.error})`.slice(0, 500);
    await tx.webhook.update({ where: { id: webhookId }, data: { disabled_at: now, disabled_reason: reason } });
    // Its waiting deliveries end here, so the log says what became of each.
    await tx.webhookDelivery.updateMany({
      where: { webhook_id: webhookId, status: "pending" },
      data: { status: "failed", next_attempt_at: null, last_error: "the webhook was disabled" },
    });
  });
}

/** The sweep's part: a delivery job for every due pending delivery of an enabled webhook. */
export async function dispatchDueDeliveries(db: Db, queue: JobQueue): Promise<number> {
  const due = await db.prisma.webhookDelivery.findMany({
    where: { status: "pending", next_attempt_at: { lte: new Date() }, webhook: { disabled_at: null } },
    select: { id: true, attempts: true },
    orderBy: { next_attempt_at: "asc" },
    take: DISPATCH_BATCH,
  });
  for (const d of due)
    await queue.sendNow(deliverJob, { deliveryId: d.id, attempt: d.attempts }, jobIdOf(`webhooks.deliver:${d.id}:${d.attempts}`));
  return due.length;
}
