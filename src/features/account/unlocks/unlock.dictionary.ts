/** Field dictionary: unlocks. */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const unlocksDictionary: Dictionary = {
  UnlockChannel: {
    [TYPE]: "Where an unlock was requested.",
    dashboard: "The web dashboard.",
    mcp: "The MCP server (AI assistants' tools).",
    api: "The REST or GraphQL API.",
  },
  UnlockEntityType: {
    [TYPE]: "What POST /unlock unlocks.",
    district: "A district (6 credits).",
    school: "A school (6 credits).",
    contact: "A contact (2 credits; its parent must be unlocked first).",
  },
  UnlockEntityInput: {
    [TYPE]: "One entity of a batch unlock.",
    entityType: "What to unlock.",
    entityId: "Our id of the district, school or contact.",
  },
  UnlockInput: {
    [TYPE]: "POST /unlock body: a single unlock (entityType, entityId) or a batch (entities).",
    entityType: "Single unlock: what to unlock (with entityId).",
    entityId: "Single unlock: our id of the entity (with entityType).",
    channel: "Where the unlock was requested, recorded with the unlock (null when not given).",
    entities: "Batch: each item decided on its own, in order.",
    reExtract: "Districts and schools only: extract again, charged again.",
  },
  UnlockBatchItem: {
    [TYPE]: "One item of a batch unlock: its result or its error.",
    statusCode: "The HTTP status this item would have had as a single unlock.",
    result: "The item's outcome; null when it failed.",
    error: "The item's error; null when it succeeded.",
  },
  UnlockItemError: {
    [TYPE]: "A batch item that failed: the error body of a single unlock.",
    error: "Error code as in the error body, e.g. insufficient_credits, PARENT_ENTITY_LOCKED, not_found.",
    message: "What went wrong.",
    balance: "Available credits (insufficient_credits).",
    required: "Credits the unlock needs (insufficient_credits).",
    parentEntityType: "The locked parent's type, district or school (PARENT_ENTITY_LOCKED).",
    parentEntityId: "The locked parent's id (PARENT_ENTITY_LOCKED).",
    unlockCost: "Credits unlocking the parent costs (PARENT_ENTITY_LOCKED).",
  },
  UnlockPayload: {
    [TYPE]: "POST /unlock: a single result (HTTP 200 or 202) or a batch's results (HTTP 200).",
    result: "A single unlock's outcome (null for a batch).",
    results: "A batch's outcomes, in input order (null for a single unlock).",
    statusCode: "The HTTP status REST answers.",
  },
  UnlockResult: {
    [TYPE]: "The outcome of unlocking one entity (POST /unlock).",
    entityType: "district, school or contact.",
    entityId: "Our id of the entity.",
    unlocked: "true when the entity is unlocked now (gated fields readable).",
    alreadyUnlocked: "true when the organization had already unlocked it (nothing charged).",
    creditsCharged: "Credits charged by this call.",
    creditsHeld: "Credits held for a pending unlock (charged when it completes, released if it fails).",
    holdId: "Our id of the credit hold of a pending unlock.",
    operationKey: "The Idempotency-Key, or a generated key, shared by every item of one request.",
    jobId: "Id of the job that completes a pending unlock.",
    message: "A human-readable summary of the outcome.",
    outcome: "unlocked, idempotent or unlock_pending.",
    creditsRemaining: "Available credits after this unlock.",
  },
  UnlockStatus: {
    [TYPE]: "Progress of an organization's unlock of one entity (GET /unlock-status/{entityType}/{entityId}).",
    entityType: "district, school or contact.",
    entityId: "Our id of the entity.",
    jobId: "Id of the unlock job, when one ran or runs.",
    holdId: "Our id of the credit hold, when any.",
    startedAt: "When the unlock job started (UTC).",
    finishedAt: "When it finished (UTC).",
    error:
      "Why the unlock failed, when state is failed; while the job retries (state unlock_pending), the last failed attempt's error; null otherwise.",
    attempts:
      "Attempts the unlock's extraction (or enrichment) job has made, the running one included: 1 on the first, up to 1 + JOB_RETRY_LIMIT; 0 when no job ran (an instant unlock).",
    state:
      "locked, unlock_pending, unlocked or failed. unlock_pending while the unlock's credit hold is open, also during a re-extraction of an unlocked entity; the same rule as _access.isUnlocking.",
  },
  Query: {
    "unlockStatus(entityType)": "district, school or contact.",
    "unlockStatus(entityId)": "Our id of the entity.",
    unlockStatus: "Progress of the caller's unlock of one entity (GET /unlock-status/{entityType}/{entityId}).",
  },
  Mutation: {
    "unlock(input)": "A single unlock or a batch.",
    unlock: "Unlock districts, schools or contacts for the caller's organization (POST /unlock): instant, pending or idempotent.",
  },
};
