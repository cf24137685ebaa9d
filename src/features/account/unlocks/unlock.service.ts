/**
 * The unlock orchestrator (contract section 5, spec "States and transitions / Unlock"). One function
 * decides every unlock, single or batch, through one table of entity kinds (`UNLOCK_KINDS`): what an
 * unlock costs, whether the entity is already extracted (instant) or needs an extraction (pending),
 * whether re_extract is allowed, and the kind's own preconditions (contacts: PARENT_ENTITY_LOCKED is one
 * more precondition there, not a second orchestrator).
 *
 * Each entity is decided in one transaction that first locks the organization's row
 * (credits.service `lockOrganization`): every unlock and credit movement of one organization is
 * serialized, so N concurrent unlocks of one entity charge once (the later ones find the unlocks row
 * unlocked or pending) and N unlocks of different entities never take available credits below zero.
 * Across API processes on PostgreSQL that is the row lock; on PGlite the single connection.
 *
 *   locked|failed + extracted      -> charge, unlocked (200)
 *   locked|failed + not extracted  -> hold + extraction job, unlock_pending (202)
 *   unlock_pending                 -> the pending unlock's ids, nothing charged (202)
 *   unlocked                       -> idempotent, nothing charged (200)
 *   unlocked + re_extract          -> hold + extraction job (202); access stays while it runs
 *
 * Idempotency-Key: the rule of every mutation (src/graphql/idempotency.ts: reservation, replay of the first
 * result for 24 h, 409); here the key only becomes the unlock's `operation_key` (a generated one without it).
 */
import crypto from "node:crypto";
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { AppError, BadRequestError, httpError, NotFoundError } from "../../../graphql/errors";
import type { JobQueue } from "../../../jobs/queue";
import type { Commit } from "../../../graphql/request-budget";
import { unlockPendingSql } from "../access/access.service";
import { UNLOCK_COST } from "../credits/pricing";
import type { Viewer } from "../auth/viewer";
import { readContactForUnlock, requireParentUnlocked, type ContactUnlockTarget } from "../../catalogue/contacts/contact.service";
import { MONEY_TX, type Tx } from "../../../db/transaction";
import { faultPoint } from "../../../fault-points";
import { charge, creditSummary, hold, lockOrganization, requireAvailable } from "../credits/credits.service";
import type { UnlockEntityType, UnlockInput } from "./unlock.inputs";
import { emitUnlockEvent, extractJob } from "./unlock.jobs";
import type { UnlockBatchItem, UnlockPayload, UnlockResult, UnlockStatus } from "./unlock.type";

/** What a kind of entity needs to be unlocked (`E`: what `read` returns, handed to `preconditions`). */
export interface UnlockKind<E extends { extracted: boolean } = { extracted: boolean }> {
  /** Credits an unlock costs (`_access.unlock_cost`). */
  cost: number;
  /** Whether `re_extract` is allowed. */
  reExtract: boolean;
  /** Reads the entity: null when it does not exist; `extracted` when its unlock is instant. */
  read(tx: Tx, id: string): Promise<E | null>;
  /** Kind-specific rules checked before any credit moves (throw an AppError to refuse). */
  preconditions?(tx: Tx, viewer: Viewer, id: string, entity: E): Promise<void>;
}

/** A kind whose `read` result its `preconditions` use (the table holds kinds of any such result). */
const unlockKind = <E extends { extracted: boolean }>(kind: UnlockKind<E>): UnlockKind => kind as unknown as UnlockKind;

export const UNLOCK_KINDS: Partial<Record<UnlockEntityType, UnlockKind>> = {
  district: {
    cost: UNLOCK_COST.district,
    reExtract: true,
    read: async (tx, id) => {
      const row = await tx.district.findUnique({ where: { id }, select: { status: true } });
      return row && { extracted: row.status === "completed" };
    },
  },
  school: {
    cost: UNLOCK_COST.school,
    reExtract: true,
    read: async (tx, id) => {
      const row = await tx.school.findUnique({ where: { id }, select: { status: true } });
      return row && { extracted: row.status === "completed" };
    },
  },
  // A contact: listed only under an extracted parent; instant once enriched, else pending until its enrichment
  // runs; refused with 403 PARENT_ENTITY_LOCKED while the caller has not unlocked its parent.
  contact: unlockKind<ContactUnlockTarget>({
    cost: UNLOCK_COST.contact,
    reExtract: false,
    read: readContactForUnlock,
    preconditions: (tx, viewer, _id, contact) => requireParentUnlocked(tx, viewer, contact),
  }),
};

export interface UnlockOptions {
  /** The request's Idempotency-Key: the unlock's operation_key. */
  idempotencyKey?: string | null;
  jobs?: JobQueue;
  env: Pick<Env, "HOLD_TTL_SECONDS">;
  /** Runs each entity's transaction as a write the request answers with (the request budget's; default: as it is). */
  commit?: Commit;
}

export async function unlock(db: Db, viewer: Viewer, input: UnlockInput, options: UnlockOptions): Promise<UnlockPayload> {
  const items = checkInput(input);
  const operationKey = options.idempotencyKey ?? crypto.randomUUID();
  const commit = options.commit ?? ((work) => work());
  if (input.entities) {
    const results: UnlockBatchItem[] = [];
    for (const item of items) {
      try {
        const result = await commit(() => unlockOne(db, viewer, item, operationKey, input, options));
        results.push({ status_code: 200, result, error: null });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const body = httpError(error.code, error.message, error.body);
        const { statusCode, ...rest } = body;
        results.push({ status_code: statusCode, result: null, error: rest as UnlockBatchItem["error"] & object });
      }
    }
    return { status_code: 200, result: null, results };
  }
  const result = await commit(() => unlockOne(db, viewer, items[0], operationKey, input, options));
  return { status_code: result.outcome === "unlock_pending" ? 202 : 200, result, results: null };
}

interface Item {
  entityType: UnlockEntityType;
  entityId: string;
}

function checkInput(input: UnlockInput): Item[] {
  if (input.entities) {
    if (input.entityType != null || input.entityId != null)
      throw new BadRequestError("send either entity_type and entity_id (single unlock) or entities (batch), not both");
    if (input.entities.length === 0) throw new BadRequestError("entities must not be empty");
    if (input.entities.length > 200) throw new BadRequestError("entities: at most 200 per request");
    if (input.reExtract && input.entities.some((e) => e.entityType === "contact"))
      throw new BadRequestError("re_extract is for districts and schools only, not contacts");
    return input.entities.map((e) => ({ entityType: e.entityType, entityId: e.entityId }));
  }
  if (input.entityType == null) throw new BadRequestError("entity_type is required (or entities for a batch)");
  if (input.entityId == null) throw new BadRequestError("entity_id is required (or entities for a batch)");
  if (input.reExtract && input.entityType === "contact")
    throw new BadRequestError("re_extract is for districts and schools only, not contacts");
  return [{ entityType: input.entityType, entityId: input.entityId }];
}

async function unlockOne(
  db: Db,
  viewer: Viewer,
  item: Item,
  operationKey: string,
  input: UnlockInput,
  options: UnlockOptions,
): Promise<UnlockResult> {
  const kind = UNLOCK_KINDS[item.entityType];
  if (!kind) throw new BadRequestError(`unlocking a ${item.entityType} is not available yet`);
  const org = viewer.organizationId;
  const reExtract = input.reExtract === true;
  const base = { entity_type: item.entityType, entity_id: item.entityId, operation_key: operationKey };
  return db.prisma.$transaction(async (tx) => {
    // The balance as of the lock (nothing below moves it before the charge or hold): not read again. The open holds
    // are read after the lock, by a statement of their own: one that waited for the lock sees the holds committed meanwhile.
    const balance = await lockOrganization(tx, org);
    const entity = await kind.read(tx, item.entityId);
    if (!entity) throw new NotFoundError(`${item.entityType} ${item.entityId}`);
    await kind.preconditions?.(tx, viewer, item.entityId, entity);
    const where = {
      organization_id_entity_type_entity_id: { organization_id: org, entity_type: item.entityType, entity_id: item.entityId },
    };
    const existing = await tx.unlock.findUnique({ where });
    const remaining = async () => (await creditSummary(tx, org, balance)).available;

    if (existing?.state === "unlocked" && !reExtract)
      return {
        ...base,
        outcome: "idempotent",
        unlocked: true,
        already_unlocked: true,
        credits_charged: 0,
        credits_held: 0,
        credits_remaining: await remaining(),
        hold_id: null,
        job_id: null,
        message: `this ${item.entityType} is already unlocked; nothing was charged`,
      };
    const openHold = existing?.hold_id
      ? await tx.creditHold.findFirst({ where: { id: existing.hold_id, status: "open" }, select: { id: true } })
      : null;
    if (existing?.state === "unlock_pending" || openHold)
      return {
        ...base,
        outcome: "unlock_pending",
        unlocked: existing?.state === "unlocked",
        already_unlocked: existing?.state === "unlocked",
        credits_charged: 0,
        credits_held: 0,
        credits_remaining: await remaining(),
        hold_id: existing!.hold_id,
        job_id: existing!.job_id,
        message: `an extraction of this ${item.entityType} is already running; nothing more was held`,
      };
    if (reExtract && existing?.state !== "unlocked")
      throw new BadRequestError(`re_extract needs an unlocked ${item.entityType}; unlock it first`);
    if (reExtract && !kind.reExtract) throw new BadRequestError(`re_extract is not available for a ${item.entityType}`);

    // Under the organization's lock nothing else moves its credits: after this unlock's charge or hold,
    // `available` is what it was less the cost (no second read of the summary).
    const { available } = await requireAvailable(tx, org, kind.cost, balance);
    const now = new Date();
    const refs = { entityType: item.entityType, entityId: item.entityId, operationKey };

    if (entity.extracted && !reExtract) {
      await charge(tx, org, kind.cost, refs);
      const data = {
        state: "unlocked",
        credits_spent: (existing?.credits_spent ?? 0) + kind.cost,
        hold_id: null,
        job_id: null,
        operation_key: operationKey,
        channel: input.channel ?? null,
        error: null,
        attempts: 0,
        started_at: now,
        finished_at: now,
        unlocked_at: now,
      };
      const unlocked = await tx.unlock.upsert({
        where,
        create: { organization_id: org, entity_type: item.entityType, entity_id: item.entityId, ...data },
        update: data,
      });
      await emitUnlockEvent(tx, "unlock.completed", unlocked);
      return {
        ...base,
        outcome: "unlocked",
        unlocked: true,
        already_unlocked: false,
        credits_charged: kind.cost,
        credits_held: 0,
        credits_remaining: available - kind.cost,
        hold_id: null,
        job_id: null,
        message: `${item.entityType} unlocked; ${kind.cost} credits charged`,
      };
    }

    // Pending: a hold and an extraction job, both committed with this transaction or not at all.
    if (!options.jobs) throw new Error("unlock: the job queue is not running in this process");
    const holdId = await hold(tx, org, {
      amount: kind.cost,
      entityType: item.entityType,
      entityId: item.entityId,
      expiresAt: new Date(now.getTime() + options.env.HOLD_TTL_SECONDS * 1000),
      operationKey,
    });
    const jobId = crypto.randomUUID();
    await tx.creditHold.update({ where: { id: holdId }, data: { job_id: jobId }, select: { id: true } });
    const pending = {
      hold_id: holdId,
      job_id: jobId,
      operation_key: operationKey,
      channel: input.channel ?? null,
      error: null,
      attempts: 0,
      started_at: now,
      finished_at: null,
    };
    // A re-extraction keeps the organization's access (state stays unlocked) while it runs.
    const state = reExtract ? "unlocked" : "unlock_pending";
    await tx.unlock.upsert({
      where,
      create: { organization_id: org, entity_type: item.entityType, entity_id: item.entityId, state, ...pending },
      update: { state, ...pending },
    });
    await options.jobs.send(tx, extractJob, { holdId, entityType: item.entityType, entityId: item.entityId, organizationId: org }, jobId);
    await faultPoint("unlock.hold");
    return {
      ...base,
      outcome: "unlock_pending",
      unlocked: reExtract,
      already_unlocked: reExtract,
      credits_charged: 0,
      credits_held: kind.cost,
      credits_remaining: available - kind.cost,
      hold_id: holdId,
      job_id: jobId,
      message: reExtract
        ? `re-extraction started; ${kind.cost} credits held and charged when it completes`
        : `extraction started (a few minutes); ${kind.cost} credits held and charged when it completes`,
    };
  }, MONEY_TX);
}

/** GET /unlock-status/{entityType}/{entityId}. */
export async function unlockStatus(db: Db, viewer: Viewer, entityType: UnlockEntityType, entityId: string): Promise<UnlockStatus> {
  const kind = UNLOCK_KINDS[entityType];
  if (!kind) throw new BadRequestError(`unlocking a ${entityType} is not available yet`);
  const entity = await kind.read(db.prisma, entityId);
  if (!entity) throw new NotFoundError(`${entityType} ${entityId}`);
  // SQL rather than a Prisma read: "pending" is unlockPendingSql, the definition _access.is_unlocking reads.
  const [row] = await db.query<{
    state: string;
    pending: boolean;
    job_id: string | null;
    hold_id: string | null;
    started_at: Date;
    finished_at: Date | null;
    error: string | null;
    attempts: number;
  }>(
    `SELECT u.state, ${unlockPendingSql("u")} AS pending, u.job_id, u.hold_id, u.started_at, u.finished_at, u.error, u.attempts
       FROM unlocks u
      WHERE u.organization_id = $1::uuid AND u.entity_type = $2 AND u.entity_id = $3::uuid`,
    [viewer.organizationId, entityType, entityId],
  );
  if (!row)
    return {
      entity_type: entityType,
      entity_id: entityId,
      state: "locked",
      job_id: null,
      hold_id: null,
      started_at: null,
      finished_at: null,
      error: null,
      attempts: 0,
    };
  return {
    entity_type: entityType,
    entity_id: entityId,
    // A re-extraction of an unlocked entity is pending too (its state stays unlocked: access is kept).
    state: row.pending ? "unlock_pending" : row.state,
    job_id: row.job_id,
    hold_id: row.hold_id,
    started_at: row.started_at,
    finished_at: row.finished_at,
    // While the job retries: the last failed attempt's error; after the last one: why the unlock failed.
    error: row.error,
    attempts: row.attempts,
  };
}
