/**
 * The webhooks of an organization (contract section 7, docs/webhooks.md): create (the secret shown once), list,
 * delete, and each one's delivery log. Always scoped to the caller's organization: another organization's webhook
 * is a 404, never revealed.
 */
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import type { Webhook as WebhookRow, WebhookDelivery as DeliveryRow } from "../../../db/generated/client";
import { BadRequestError, clip, echo, NotFoundError } from "../../../graphql/errors";
import type { Viewer } from "../auth/viewer";
import { checkLimit, type LimitArgsOf } from "../../kits/common/list-kit";
import { newSecret, refusedHost } from "./webhook.delivery";
import {
  DELIVERIES_DEFAULT_LIMIT,
  DELIVERIES_MAX_LIMIT,
  EVENT_ENTRIES_MAX,
  WEBHOOK_URL_MAX,
  WEBHOOKS_PER_ORGANIZATION,
  type CreateWebhookInput,
} from "./webhook.inputs";
import { WEBHOOK_EVENTS, type WebhookEvent } from "./webhook.outbox";
import type { Webhook, WebhookDelivery } from "./webhook.type";

const present = (row: WebhookRow, secret: string | null = null): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  secret,
  enabled: row.disabled_at === null,
  consecutive_failures: row.consecutive_failures,
  disabled_at: row.disabled_at,
  disabled_reason: row.disabled_reason,
  created_at: row.created_at,
});

const presentDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: row.event_type,
  status: row.status,
  attempts: row.attempts,
  response_status: row.response_status,
  last_error: row.last_error,
  next_attempt_at: row.next_attempt_at,
  last_attempt_at: row.last_attempt_at,
  delivered_at: row.delivered_at,
  created_at: row.created_at,
});

/** The target URL, or a 400 naming what is wrong with it. */
function targetUrl(text: string, env: Env): string {
  const value = typeof text === "string" ? text.trim() : "";
  if (!value) throw new BadRequestError("url is required");
  if (value.length > WEBHOOK_URL_MAX) throw new BadRequestError(`url must be at most ${WEBHOOK_URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequestError(`url ${echo(value)} is not an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new BadRequestError(`url must be http or https, not ${clip(url.protocol)}`);
  if (url.username || url.password) throw new BadRequestError("url must not carry a user name or password");
  const refused = env.EXTRACTION_ALLOW_PRIVATE_HOSTS === "true" ? null : refusedHost(url);
  if (refused)
    throw new BadRequestError(`url ${echo(url.hostname)} is a ${refused} address: webhooks are delivered to public addresses only`);
  return url.toString();
}

/** The events, deduplicated in the catalogue's order, or a 400 naming the unknown one. */
function eventsOf(events: readonly string[]): WebhookEvent[] {
  if (!events.length) throw new BadRequestError(`events must name at least one of ${WEBHOOK_EVENTS.join(", ")}`);
  if (events.length > EVENT_ENTRIES_MAX) throw new BadRequestError(`events must have at most ${EVENT_ENTRIES_MAX} entries`);
  const unknown = events.find((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown !== undefined) throw new BadRequestError(`unknown event ${echo(unknown)}: events are ${WEBHOOK_EVENTS.join(", ")}`);
  return WEBHOOK_EVENTS.filter((e) => events.includes(e));
}

/** POST /webhooks: a new webhook and its secret (the only answer that shows it). */
export async function createWebhook(db: Db, env: Env, viewer: Viewer, input: CreateWebhookInput): Promise<Webhook> {
  const url = targetUrl(input.url, env);
  const events = eventsOf(input.events);
  const secret = newSecret();
  const row = await db.prisma.$transaction(async (tx) => {
    // The organization's row serializes its creations, so two at once cannot pass the cap together.
    await tx.$queryRawUnsafe(`SELECT 1 FROM organizations WHERE id = $1::uuid FOR UPDATE`, viewer.organizationId);
    const existing = await tx.webhook.count({ where: { organization_id: viewer.organizationId } });
    if (existing >= WEBHOOKS_PER_ORGANIZATION)
      throw new BadRequestError(`an organization may have at most ${WEBHOOKS_PER_ORGANIZATION} webhooks: delete one first`);
    return tx.webhook.create({ data: { organization_id: viewer.organizationId, url, events, secret } });
  });
  return present(row, secret);
}

/** GET /webhooks: the organization's webhooks, oldest first, without secrets. */
export async function listWebhooks(db: Db, viewer: Viewer): Promise<Webhook[]> {
  const rows = await db.prisma.webhook.findMany({
    where: { organization_id: viewer.organizationId },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => present(row));
}

/** DELETE /webhooks/{id}: the webhook and its delivery log (nothing more is sent to it). */
export async function deleteWebhook(db: Db, viewer: Viewer, id: string): Promise<Webhook> {
  const row = await db.prisma.$transaction(async (tx) => {
    const found = await tx.webhook.findFirst({ where: { id, organization_id: viewer.organizationId } });
    if (!found) throw new NotFoundError("webhook");
    await tx.webhook.delete({ where: { id } });
    return found;
  });
  return present(row);
}

/** GET /webhooks/{id}/deliveries: the webhook's deliveries, newest first. */
export async function webhookDeliveries(db: Db, viewer: Viewer, id: string, args: LimitArgsOf): Promise<WebhookDelivery[]> {
  const take = checkLimit(args, DELIVERIES_MAX_LIMIT, DELIVERIES_DEFAULT_LIMIT);
  const webhook = await db.prisma.webhook.findFirst({ where: { id, organization_id: viewer.organizationId }, select: { id: true } });
  if (!webhook) throw new NotFoundError("webhook");
  const rows = await db.prisma.webhookDelivery.findMany({
    where: { webhook_id: id },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take,
  });
  return rows.map(presentDelivery);
}
