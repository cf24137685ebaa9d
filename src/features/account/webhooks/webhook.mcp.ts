import { parse } from "graphql";
import { BadRequestError } from "../../../graphql/errors";
import type { McpToolSpec } from "../../../graphql/mcp-tool";
import { DELIVERIES_DEFAULT_LIMIT, DELIVERIES_MAX_LIMIT, EVENT_ENTRIES_MAX, WEBHOOK_URL_MAX } from "./webhook.inputs";
import { WEBHOOK_EVENTS } from "./webhook.outbox";

const WEBHOOK_FIELDS = "id url events enabled consecutiveFailures disabledAt disabledReason createdAt";
const LIST = parse(`query McpWebhooks { webhooks { ${WEBHOOK_FIELDS} } }`);
const CREATE = parse(
  `mutation McpCreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { id url events secret createdAt } }`,
);
const DELETE = parse(`mutation McpDeleteWebhook($id: UUID!) { deleteWebhook(webhookId: $id) { id } }`);
const DELIVERIES = parse(`query McpWebhookDeliveries($id: UUID!, $limit: Int) {
  webhookDeliveries(webhookId: $id, limit: $limit) {
    id event status attempts responseStatus lastError nextAttemptAt lastAttemptAt deliveredAt createdAt
  }
}`);

const ID = { type: "string", format: "uuid", description: "Our id of the webhook (from list_webhooks or create_webhook)." };
const EVENTS = [...WEBHOOK_EVENTS];
const stringList = (tool: string, name: string, value: unknown): string[] => {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    throw new BadRequestError(`${tool}: ${name} must be a list of strings`);
  return value as string[];
};

/** The MCP face of POST/GET /webhooks, DELETE /webhooks/{id} and GET /webhooks/{id}/deliveries (docs/webhooks.md). */
export const webhookTools: McpToolSpec[] = [
  {
    name: "list_webhooks",
    title: "List the organization's webhooks",
    description:
      "The caller's organization's webhooks, as GET /api/v1/webhooks: { data: [{ id, url, events, enabled, consecutive_failures, " +
      "disabled_at, disabled_reason, created_at }] }. The secret is never shown again after creation.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: [],
    required: [],
    plan: () => ({ document: LIST, variables: {}, shape: (data) => ({ data: data.webhooks }) }),
  },
  {
    name: "create_webhook",
    title: "Create a webhook",
    description:
      "Registers an https URL to receive signed events, as POST /api/v1/webhooks: { data: { id, url, events, secret, created_at } }; " +
      "the secret (whsec_...) is shown this once. Events: " +
      `${EVENTS.join(", ")}. Errors: bad_request (URL, events, the cap of webhooks per organization).`,
    inputSchema: {
      type: "object",
      properties: {
        url: { type: "string", maxLength: WEBHOOK_URL_MAX, description: "Where events are POSTed (http or https, public address)." },
        events: { type: "array", items: { type: "string", enum: EVENTS }, minItems: 1, maxItems: EVENT_ENTRIES_MAX },
      },
      required: ["url", "events"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    args: ["url", "events"],
    required: ["url", "events"],
    plan(args) {
      if (typeof args.url !== "string") throw new BadRequestError("create_webhook: url must be a string");
      const events = stringList("create_webhook", "events", args.events);
      return { document: CREATE, variables: { input: { url: args.url, events } }, shape: (data) => ({ data: data.create_webhook }) };
    },
  },
  {
    name: "delete_webhook",
    title: "Delete a webhook",
    description:
      "Deletes a webhook of the caller's organization and its delivery log, as DELETE /api/v1/webhooks/{id}: { data: { id } }. Errors: not_found.",
    inputSchema: { type: "object", properties: { webhook_id: ID }, required: ["webhook_id"], additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    args: ["webhook_id"],
    required: ["webhook_id"],
    plan: (args) => ({ document: DELETE, variables: { id: args.webhook_id }, shape: (data) => ({ data: data.delete_webhook }) }),
  },
  {
    name: "webhook_deliveries",
    title: "A webhook's delivery log",
    description:
      "Deliveries of one webhook, newest first, as GET /api/v1/webhooks/{id}/deliveries: { data: [{ id, event, status, attempts, " +
      "response_status, last_error, next_attempt_at, last_attempt_at, delivered_at, created_at }] }. Errors: not_found, bad_request.",
    inputSchema: {
      type: "object",
      properties: {
        webhook_id: ID,
        limit: { type: "integer", minimum: 1, maximum: DELIVERIES_MAX_LIMIT, default: DELIVERIES_DEFAULT_LIMIT },
      },
      required: ["webhook_id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["webhook_id", "limit"],
    required: ["webhook_id"],
    plan: (args) => ({
      document: DELIVERIES,
      variables: { id: args.webhook_id, ...(args.limit === undefined ? {} : { limit: args.limit }) },
      shape: (data) => ({ data: data.webhook_deliveries }),
    }),
  },
];
