/**
 * Follows (spec "Follow" state table, contract sections 3 and 7): a project follows a district or school;
 * on the free plan that opens the entity's history to the organization (access.service.ts reads
 * `follows`), within FREE_FOLLOW_SLOTS slots. Paid plans follow without limit.
 *
 * Slots: a slot is an entity the organization follows, or unfollowed less than FOLLOW_SLOT_MIN_DAYS after
 * following it (follow.slots.ts: the slot is held until slot_released_at). Following the same entity again (in
 * the same project: the same follow, idempotent; in another project, or while its slot is still held: a second
 * follow) takes no second slot. Without the hold, follow-read-unfollow loops read any number of histories.
 *
 * Race safety: a follow runs in one transaction after locking the organization's row, as the credit
 * ledger does (credits.service.ts lockOrganization): N concurrent follows of one organization run one
 * after another, so the slot count they check cannot change under them.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import type { Env } from "../../../config/env";
import { AppError, NotFoundError } from "../../../graphql/errors";
import type { Viewer } from "../auth/viewer";
import { MONEY_TX, type Tx } from "../../../db/transaction";
import { requireProject, requireProjectEntity } from "../projects/project.service";
import {
  checkColumns,
  pageArgs,
  readPage,
  runChecks,
  sortClause,
  tablePageSql,
  type FilterCheck,
  type PageOf,
} from "../../kits/common/list-kit";
import { FOLLOW_MAX_LIMIT, type FollowInput, type FollowListArgs, type FollowOrderField } from "./follow.inputs";
import { type Follow, type FollowOutcome, type FollowSlotUsage } from "./follow.type";
import { holdsSlotSql, slotReleasedAt } from "./follow.slots";

export class FollowLimitError extends AppError {
  constructor(slots: FollowSlotUsage) {
    super(
      "FOLLOW_LIMIT",
      `all ${slots.limit} follow slots of the ${slots.tier} plan are in use; unfollow an entity or upgrade to follow more`,
      { slots },
    );
  }
}

const FOLLOW_COLUMNS = {
  id: true,
  project_id: true,
  entity_type: true,
  entity_id: true,
  followed_at: true,
  unfollowed_at: true,
  slot_released_at: true,
  created_at: true,
} as const;

/**
 * The entities holding a slot of the organization (follow.slots.ts), and whether `entity` is one of them.
 * Hand-written: Prisma counts no DISTINCT over two columns.
 */
async function slotsInUse(
  client: Tx | Db["prisma"],
  organizationId: string,
  entity?: { type: string; id: string },
): Promise<{ used: number; holds: boolean }> {
  const [row] = await client.$queryRawUnsafe<{ used: number; holds: boolean }[]>(
    `SELECT count(DISTINCT (entity_type, entity_id))::int AS used,
            coalesce(bool_or(entity_type = $2 AND entity_id = $3::uuid), false) AS holds
       FROM follows f WHERE f.organization_id = $1::uuid AND ${holdsSlotSql("f")}`,
    organizationId,
    entity?.type ?? "",
    entity?.id ?? "00000000-0000-0000-0000-000000000000",
  );
  return { used: Number(row.used), holds: row.holds };
}

/** Follow slots of a plan: FREE_FOLLOW_SLOTS on the free plan, unlimited (null) on paid plans. */
export const followSlotLimit = (plan: string, env: Pick<Env, "FREE_FOLLOW_SLOTS">): number | null =>
  plan === "free" ? env.FREE_FOLLOW_SLOTS : null;

/** Follow slots in use by the organization (GET /org's follow_slots.used). */
export async function followSlotsUsed(db: Db, organizationId: string): Promise<number> {
  return (await slotsInUse(db.prisma, organizationId)).used;
}

/**
 * Locks the organization's row until the transaction ends (the lock credits.service.ts takes) and
 * returns its plan, read under the lock. Hand-written: Prisma has no row locks.
 */
async function lockOrganizationPlan(tx: Tx, organizationId: string): Promise<string> {
  const rows = await tx.$queryRawUnsafe<{ plan: string }[]>(
    `SELECT plan FROM organizations WHERE id = $1::uuid FOR UPDATE`,
    organizationId,
  );
  if (!rows[0]) throw new NotFoundError(`organization ${organizationId}`);
  return rows[0].plan;
}

/**
 * POST /follows: the project follows the entity. Already followed by that project: the same follow
 * (created false, no slot taken). On the free plan a new entity needs a free slot, else FOLLOW_LIMIT.
 */
export async function follow(db: Db, viewer: Viewer, input: FollowInput, env: Pick<Env, "FREE_FOLLOW_SLOTS">): Promise<FollowOutcome> {
  const organizationId = viewer.organizationId;
  const entity = { type: input.entityType, id: input.entityId };
  return db.prisma.$transaction(async (tx) => {
    const plan = await lockOrganizationPlan(tx, organizationId);
    await requireProject(tx, organizationId, input.projectId);
    await requireProjectEntity(tx, entity.type, entity.id);
    const existing = await tx.follow.findFirst({
      where: {
        organization_id: organizationId,
        project_id: input.projectId,
        entity_type: entity.type,
        entity_id: entity.id,
        unfollowed_at: null,
      },
      select: FOLLOW_COLUMNS,
    });
    if (existing) return { created: false, follow: existing as Follow };
    const limit = followSlotLimit(plan, env);
    if (limit !== null) {
      const slots = await slotsInUse(tx, organizationId, entity);
      if (!slots.holds && slots.used >= limit) throw new FollowLimitError({ used: slots.used, limit, tier: plan });
    }
    const created = await tx.follow.create({
      data: { organization_id: organizationId, project_id: input.projectId, entity_type: entity.type, entity_id: entity.id },
      select: FOLLOW_COLUMNS,
    });
    return { created: true, follow: created as Follow };
  }, MONEY_TX);
}

/**
 * DELETE /follows/{id}: unfollows. unfollowed_at is now, slot_released_at the later of now and followed_at +
 * FOLLOW_SLOT_MIN_DAYS: the slot stays used until then (contract section 7). A follow already unfollowed is
 * answered as it is (idempotent); another organization's follow is a 404. `now` is injectable for tests.
 */
export async function unfollow(
  db: Db,
  viewer: Viewer,
  followId: string,
  env: Pick<Env, "FOLLOW_SLOT_MIN_DAYS">,
  now = new Date(),
): Promise<Follow> {
  const where = { id: followId, organization_id: viewer.organizationId };
  const found = await db.prisma.follow.findFirst({ where, select: FOLLOW_COLUMNS });
  if (!found) throw new NotFoundError(`follow ${followId}`);
  if (found.unfollowed_at) return found as Follow;
  // Conditional: only a still active follow changes, so a concurrent or repeated call keeps the first times.
  await db.prisma.follow.updateMany({
    where: { ...where, unfollowed_at: null },
    data: { unfollowed_at: now, slot_released_at: slotReleasedAt(found.followed_at, now, env.FOLLOW_SLOT_MIN_DAYS) },
  });
  return (await db.prisma.follow.findFirst({ where, select: FOLLOW_COLUMNS })) as Follow;
}

const ORDER_COLUMNS: Record<FollowOrderField, string> = { followed_at: "followed_at", created_at: "created_at" };

const COLUMNS = "f.id, f.project_id, f.entity_type, f.entity_id, f.followed_at, f.unfollowed_at, f.slot_released_at, f.created_at";

/**
 * GET /projects/{id}/follows: the project's follows (active ones unless include_unfollowed), one page
 * and its total. Another organization's project (or none) is a 404, checked in the same statement.
 */
export async function listProjectFollows(db: Db, viewer: Viewer, projectId: string, args: FollowListArgs): Promise<PageOf<Follow>> {
  const { limit, offset } = pageArgs(args, FOLLOW_MAX_LIMIT);
  const p = new SqlParams();
  const org = p.add(viewer.organizationId);
  const project = p.add(projectId);
  const where = [`f.organization_id = ${org}::uuid`, `f.project_id = ${project}::uuid`];
  if (!args.filter?.includeUnfollowed) where.push(`f.unfollowed_at IS NULL`);
  if (args.filter?.entityType) where.push(`f.entity_type = ${p.add(args.filter.entityType)}`);
  const checks: FilterCheck[] = [
    {
      sql: `(SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM projects WHERE id = ${project}::uuid AND organization_id = ${org}::uuid))`,
      fail: () => new NotFoundError(`project ${projectId}`),
    },
  ];
  // Hand-written list page, one statement with page, total and the project check, as every list (list kit).
  const sql = tablePageSql({
    table: "follows",
    alias: "f",
    where,
    order: sortClause("f", ORDER_COLUMNS[args.orderBy ?? ("followed_at" as FollowOrderField)], args.orderAscending),
    limit: p.add(limit),
    offset: p.add(offset),
    select: `${COLUMNS}${checkColumns(checks)}`,
  });
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  runChecks(checks, rows[0]);
  return readPage(rows, limit, offset, (row) => row as unknown as Follow);
}
