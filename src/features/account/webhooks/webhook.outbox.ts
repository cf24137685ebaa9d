/**
 * The webhook outbox (docs/webhooks.md): the one way a feature reports an event. Called inside the transaction of
 * the change, it writes one `webhook_deliveries` row per enabled webhook of the organization subscribed to the event,
 * so an event exists exactly when its change was committed (never lost, never sent for a rolled-back change). The
 * worker's sweep hands due rows to the delivery job (webhook.jobs.ts).
 *
 * This file imports no feature: the features that emit (unlocks, briefs, opportunities, news) import it, and the
 * webhooks feature never imports them back.
 */
import type { Tx } from "../../../db/transaction";
import { SqlParams } from "../../../db/sql";
import { compile, type SqlFragment } from "../../../db/sql-template";

/** Every event a webhook may subscribe to (contract section 7). */
export const WEBHOOK_EVENTS = [
  "signal.created",
  "opportunity.created",
  "opportunity.verified",
  "unlock.completed",
  "unlock.failed",
  "brief.ready",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The subscribed, enabled webhooks `w` of an event. */
const SUBSCRIBED = (type: string) => `w.disabled_at IS NULL AND ${type}::text = ANY(w.events)`;

/** Reports `type` with `data` (the payload's `data` object) to the organization's subscribed webhooks. */
export async function emitEvent(tx: Tx, type: WebhookEvent, organizationId: string, data: object): Promise<void> {
  await emitEvents(tx, type, organizationId, [data]);
}

/**
 * Reports `type` once per item of `data`, in its order, to the organization's subscribed webhooks. One statement,
 * however many events: the opportunity agent's transaction sent one per created opportunity, and under load its
 * hundreds of round trips outlasted the transaction's timeout.
 */
export async function emitEvents(tx: Tx, type: WebhookEvent, organizationId: string, data: readonly object[]): Promise<void> {
  if (!data.length) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO webhook_deliveries (webhook_id, organization_id, event_type, payload, next_attempt_at)
     SELECT w.id, w.organization_id, $1::text, d.value, now()
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY d, webhooks w
      WHERE w.organization_id = $3::uuid AND ${SUBSCRIBED("$1")}
      ORDER BY d.ordinality, w.id`,
    type,
    JSON.stringify(data),
    organizationId,
  );
}

/**
 * Reports `type` once per row of `eventsFor(org)` to every subscribed webhook, for events whose audience depends on
 * the organization (a signal goes to the organizations that may read it). `eventsFor` gets the SQL expression of the
 * webhook's organization id and returns a statement selecting one `data` (jsonb) column per event. One statement.
 */
export async function emitEventsFor(tx: Tx, type: WebhookEvent, eventsFor: (org: string) => SqlFragment): Promise<void> {
  const p = new SqlParams();
  const typeParam = p.add(type);
  const events = compile(eventsFor("w.organization_id"), p);
  await tx.$executeRawUnsafe(
    `INSERT INTO webhook_deliveries (webhook_id, organization_id, event_type, payload, next_attempt_at)
     SELECT w.id, w.organization_id, ${typeParam}::text, e.data, now()
       FROM webhooks w CROSS JOIN LATERAL (${events}) e
      WHERE ${SUBSCRIBED(typeParam)}`,
    ...p.values,
  );
}
