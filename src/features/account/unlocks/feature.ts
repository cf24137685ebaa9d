import { HTTP_DICTIONARY } from "../../../graphql/dictionary/http";
import { defineFeature } from "../../../graphql/feature";
import { unlockTools } from "./unlock.mcp";
import { unlocksDictionary } from "./unlock.dictionary";
import type { JobDefinition } from "../../../jobs/job";
import { extractJob } from "./unlock.jobs";
import { UnlockResolver } from "./unlock.resolver";

/** Credits spent on unlocks (POST /unlock, GET /unlock-status) and the extraction job an unlock starts. */
export const unlocksFeature = defineFeature({
  name: "unlocks",
  dictionary: unlocksDictionary,
  resolvers: [UnlockResolver],
  jobs: [extractJob as JobDefinition<never>],
  rest: [
    {
      method: "POST",
      path: "/unlock",
      operation: "Unlock",
      input: "json-body",
      select: ["unlock"],
      respond: (payload) => ({
        status: payload.status_code as number,
        body: payload.results ? { results: (payload.results as Record<string, unknown>[]).map(batchItemBody) } : payload.result,
      }),
      responses: {
        200: {
          description: "Unlocked (or already unlocked); a batch answers each item's result or error body.",
          body: {
            oneOf: [
              { select: ["result"] },
              {
                object: { results: { items: { oneOf: [{ select: ["results", "result"] }, { error: true }] } } },
                descriptions: { results: HTTP_DICTIONARY.UnlockBatchResponse.results },
              },
            ],
          },
        },
        202: {
          description: "Accepted: credits held while the extraction runs; poll GET /unlock-status/{entityType}/{entityId}.",
          body: { select: ["result"] },
        },
      },
      errors: ["INSUFFICIENT_CREDITS", "PARENT_ENTITY_LOCKED", "CONFLICT"],
    },
    {
      method: "GET",
      path: "/unlock-status/:entityType/:entityId",
      operation: "UnlockStatus",
      input: "none",
      select: ["unlock_status"],
    },
  ],
  mcp: unlockTools,
});

/** A batch item as REST answers it: the single unlock's body, or its error body (generic fields + the present extras). */
function batchItemBody(item: Record<string, unknown>): unknown {
  if (item.result) return item.result;
  const error = Object.fromEntries(Object.entries(item.error as Record<string, unknown>).filter(([, v]) => v !== null));
  return { ...error, statusCode: item.status_code };
}
