import { defineFeature } from "../../../graphql/feature";
import type { JobDefinition } from "../../../jobs/job";
import { webhooksDictionary } from "./webhook.dictionary";
import { deliverJob } from "./webhook.jobs";
import { webhookTools } from "./webhook.mcp";
import { WebhookResolver } from "./webhook.resolver";

/** The organization's webhooks and their delivery (POST/GET /webhooks, DELETE /webhooks/{id}, GET /webhooks/{id}/deliveries). */
export const webhooksFeature = defineFeature({
  name: "webhooks",
  dictionary: webhooksDictionary,
  resolvers: [WebhookResolver],
  jobs: [deliverJob as JobDefinition<never>],
  mcp: webhookTools,
  rest: [
    { method: "GET", path: "/webhooks", operation: "Webhooks", input: "none", select: ["webhooks"], wrap: true },
    {
      method: "POST",
      path: "/webhooks",
      operation: "CreateWebhook",
      input: "json-body",
      select: ["create_webhook"],
      wrap: true,
      status: 201,
    },
    { method: "DELETE", path: "/webhooks/:id", operation: "DeleteWebhook", input: "none", select: ["delete_webhook"], status: 204 },
    {
      method: "GET",
      path: "/webhooks/:id/deliveries",
      operation: "WebhookDeliveries",
      input: "query",
      select: ["webhook_deliveries"],
      wrap: true,
    },
  ],
});
