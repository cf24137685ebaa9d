/** Field dictionary: the caller's webhooks and their delivery log (docs/webhooks.md). */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { limitArg } from "../../../graphql/dictionary/common";
import { DELIVERIES_DEFAULT_LIMIT, DELIVERIES_MAX_LIMIT } from "./webhook.inputs";

export const webhooksDictionary: Dictionary = {
  Webhook: {
    [TYPE]:
      "A webhook of the caller's organization: events POSTed to its URL, signed per the Standard Webhooks convention (GET /api/v1/webhooks; docs/webhooks.md).",
    id: "Our id of the webhook (UUID).",
    url: "Where events are POSTed (http or https; private, loopback and link-local addresses are refused).",
    events:
      "The events it receives: signal.created, opportunity.created, opportunity.verified, unlock.completed, unlock.failed, brief.ready.",
    secret:
      "The signing secret (whsec_ and base64; the HMAC key is the base64-decoded part). Shown only in the answer that created the webhook; null everywhere else.",
    enabled: "False once the webhook was disabled after repeated failed deliveries (see disabledReason); nothing is sent to it then.",
    consecutiveFailures: "Failed delivery attempts in a row; a successful one resets it.",
    disabledAt: "When it was disabled (UTC), or null while enabled.",
    disabledReason: "Why it was disabled, with the last attempt's error; null while enabled.",
    createdAt: "When the webhook was created (UTC).",
  },
  WebhookDelivery: {
    [TYPE]: "One event for one webhook, and what became of it: the delivery log (GET /api/v1/webhooks/{id}/deliveries).",
    id: "Our id of the delivery; sent as the webhook-id header, the same on every attempt (deduplicate on it).",
    event: "The event type, e.g. unlock.completed.",
    status: "pending (waiting for its next attempt), delivered (a 2xx answer) or failed (no attempt left, or the webhook was disabled).",
    attempts: "Attempts made so far.",
    responseStatus: "The HTTP status of the last attempt's answer; null when none came (refused address, timeout, connection error).",
    lastError: "Why the last attempt failed; null after a success.",
    nextAttemptAt: "When the next attempt is due (UTC); null once delivered or failed.",
    lastAttemptAt: "When the last attempt was made (UTC).",
    deliveredAt: "When a receiver answered 2xx (UTC).",
    createdAt: "When the event happened and the delivery was written (UTC); the payload's timestamp.",
  },
  CreateWebhookInput: {
    [TYPE]: "POST /webhooks body.",
    url: "An absolute http or https URL of at most 2,048 characters, without a user name or password, on a public address.",
    events: "One or more event types (see Webhook.events), at most 100 entries; repeats are ignored.",
  },
  Query: {
    webhooks: "The webhooks of the caller's organization, oldest first, without their secrets (GET /api/v1/webhooks).",
    webhookDeliveries: "A webhook's deliveries, newest first (GET /api/v1/webhooks/{id}/deliveries).",
    "webhookDeliveries(webhookId)": "A webhook of the caller's organization.",
    "webhookDeliveries(limit)": limitArg(DELIVERIES_MAX_LIMIT, DELIVERIES_DEFAULT_LIMIT),
  },
  Mutation: {
    createWebhook:
      "A new webhook of the caller's organization, with its signing secret, shown this once (POST /api/v1/webhooks). At most 10 per organization.",
    "createWebhook(input)": "The URL and the events.",
    deleteWebhook: "Deletes a webhook and its delivery log; nothing more is sent to it (DELETE /api/v1/webhooks/{id}).",
    "deleteWebhook(webhookId)": "A webhook of the caller's organization.",
  },
};
