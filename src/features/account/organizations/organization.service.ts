/**
 * Organizations and their credits, written through the Prisma client. Credits are a ledger (contract
 * section 5, src/features/account/credits/): a grant is a movement of the ledger and organizations.credit_balance
 * a cache written in the same transaction. Inside a transaction only the transaction client `tx` is used: a statement on the root
 * client would wait for the connection the transaction holds (embedded PGlite has exactly one).
 */
import type { Db } from "../../../db/client";
import { Prisma } from "../../../db/generated/client";
import { BadRequestError, NotFoundError } from "../../../graphql/errors";
import type { Env } from "../../../config/env";
import { PLANS, type Plan, type Viewer } from "../auth/viewer";
import { checkProjectInput, createProject as createProjectOf } from "../projects/project.service";
import { MONEY_TX } from "../../../db/transaction";
import { checkGrantAmount, creditSummary, grant } from "../credits/credits.service";
import { followSlotLimit, followSlotsUsed } from "../follows/follow.service";
import { seedBuiltinTemplates } from "../email-templates/email-template.service";
import type { Organization } from "./organization.type";

export interface CreateOrganizationInput {
  name: string;
  plan: string;
  credits?: number;
  entitlements?: string[];
}

export async function createOrganization(db: Db, input: CreateOrganizationInput): Promise<{ organizationId: string }> {
  if (!input.name?.trim()) throw new BadRequestError("name is required");
  if (!PLANS.includes(input.plan as Plan)) throw new BadRequestError(`plan must be one of ${PLANS.join(", ")}`);
  const credits = input.credits ?? 0;
  if (credits !== 0) checkGrantAmount(credits, "credits"); // whole credits, 0 for none (issue 20 point 10)
  return db.prisma.$transaction(async (tx) => {
    const org = await tx.organization.create({
      data: { name: input.name.trim(), plan: input.plan, entitlements: [...new Set(input.entitlements ?? [])] },
      select: { id: true },
    });
    if (credits > 0) await addGrant(tx, org.id, credits, "initial grant");
    await seedBuiltinTemplates(tx, org.id); // its own copies of the built-in e-mail templates (docs/outreach.md)
    return { organizationId: org.id };
  });
}

export async function grantCredits(db: Db, organizationId: string, amount: number): Promise<{ balance: number }> {
  checkGrantAmount(amount);
  checkOrganizationId(organizationId);
  return db.prisma.$transaction(async (tx) => ({ balance: await addGrant(tx, organizationId, amount, "grant") }), MONEY_TX);
}

/** A grant is a ledger movement (src/features/account/credits/credits.service.ts); 404 for an unknown organization. */
const addGrant = (tx: Prisma.TransactionClient, organizationId: string, amount: number, note: string): Promise<number> =>
  grant(tx, organizationId, amount, note);

/**
 * `project create` of the admin CLI and the demo organizations: the organization must exist (404); the
 * rules and the INSERT are POST /projects' own (projects/project.service.ts).
 */
export async function createProject(db: Db, organizationId: string, name: string, icp?: unknown): Promise<{ projectId: string }> {
  checkProjectInput({ name, icp }); // the caller's input first (400), then the organization (404)
  await requireOrganization(db, organizationId);
  const project = await createProjectOf(db, organizationId, { name, icp });
  return { projectId: project.id };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An organization id that is not a UUID names no organization (the uuid column would refuse it). */
function checkOrganizationId(organizationId: string): void {
  if (!UUID_RE.test(organizationId)) throw new NotFoundError(`organization ${organizationId}`);
}

/** Throws 404 unless the organization exists (a read by key). */
export async function requireOrganization(db: Db, organizationId: string): Promise<void> {
  checkOrganizationId(organizationId);
  const org = await db.prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!org) throw new NotFoundError(`organization ${organizationId}`);
}

/** GET /org: the caller's organization with its credits and follow slots (contract section 7). */
export async function organizationOfViewer(db: Db, viewer: Viewer, env: Pick<Env, "FREE_FOLLOW_SLOTS">): Promise<Organization> {
  const org = await db.prisma.organization.findUnique({
    where: { id: viewer.organizationId },
    select: { id: true, name: true, plan: true, entitlements: true },
  });
  if (!org) throw new NotFoundError(`organization ${viewer.organizationId}`);
  const credits = await creditSummary(db.prisma, org.id);
  const used = await followSlotsUsed(db, org.id);
  return { ...org, credits, follow_slots: { used, limit: followSlotLimit(org.plan, env) } };
}
