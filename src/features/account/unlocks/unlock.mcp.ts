import { parse } from "graphql";
import { definedOnly, oneOf, type McpToolSpec } from "../../../graphql/mcp-tool";

const UNLOCK = parse(`
  mutation McpUnlock($input: UnlockInput!) {
    unlock(input: $input) {
      statusCode
      result {
        entityType entityId outcome unlocked alreadyUnlocked creditsCharged creditsHeld creditsRemaining holdId jobId
        operationKey message
      }
    }
  }`);

const ENTITIES = ["district", "school", "contact"] as const;

/** The MCP face of POST /unlock (channel mcp). */
export const unlockTools: McpToolSpec[] = [
  {
    name: "unlock",
    title: "Unlock a district, school or contact",
    description:
      "Unlocks one district or school (6 credits) or contact (2 credits; its district or school must be unlocked first) for the caller's " +
      "organization, as POST /api/v1/unlock with channel mcp. Instant when the record is processed (outcome unlocked), else pending " +
      "(outcome unlock_pending, credits held until the job finishes); an already unlocked record is not charged again (idempotent). " +
      "Errors: insufficient_credits, PARENT_ENTITY_LOCKED, not_found.",
    inputSchema: {
      type: "object",
      properties: {
        entity_type: { type: "string", enum: [...ENTITIES], description: "What to unlock." },
        entity_id: { type: "string", format: "uuid", description: "Our id of the record (UUID)." },
        re_extract: { type: "boolean", description: "Districts and schools only: extract again, charged again." },
      },
      required: ["entity_type", "entity_id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    args: ["entity_type", "entity_id", "re_extract"],
    required: ["entity_type", "entity_id"],
    plan(args) {
      const entityType = oneOf("unlock", "entity_type", args.entity_type, ENTITIES);
      const input = definedOnly({ entityType, entityId: args.entity_id, reExtract: args.re_extract, channel: "mcp" });
      return {
        document: UNLOCK,
        variables: { input },
        shape: (data) => {
          const payload = data.unlock as { status_code: number; result: Record<string, unknown> | null };
          return { status_code: payload.status_code, ...(payload.result ?? {}) };
        },
      };
    },
  },
];
