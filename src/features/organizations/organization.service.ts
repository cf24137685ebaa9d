/**
 * Organizations and their credits, written through the Prisma client. Credits are a ledger (contract
 * section 5): every grant is a row and organizations.credit_balance is a cache written in the same
 * transaction. Inside a transaction only the transaction client `tx` is used: a statement on the root
 * client would wait for the connection the transaction holds (embedded PGlite has exactly one).
 */
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { BadRequestError, NotFoundError } from "../../graphql/errors";
import { PLANS, type Plan } from "../auth/viewer";

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
  if (!Number.isFinite(credits) || credits < 0) throw new BadRequestError("credits must be a number >= 0");
  return db.prisma.$transaction(async (tx) => {
    const org = await tx.organization.create({
      data: { name: input.name.trim(), plan: input.plan, entitlements: [...new Set(input.entitlements ?? [])] },
      select: { id: true },
    });
    if (credits > 0) await addGrant(tx, org.id, credits, "initial grant");
    return { organizationId: org.id };
  });
}

export async function grantCredits(db: Db, organizationId: string, amount: number): Promise<{ balance: number }> {
  if (!Number.isFinite(amount) || amount <= 0) throw new BadRequestError("amount must be a number > 0");
  checkOrganizationId(organizationId);
  return db.prisma.$transaction(async (tx) => ({ balance: await addGrant(tx, organizationId, amount, "grant") }));
}

async function addGrant(tx: Prisma.TransactionClient, organizationId: string, amount: number, note: string): Promise<number> {
  // updateManyAndReturn: one UPDATE ... RETURNING, and no row (not an exception) for an unknown id.
  const [org] = await tx.organization.updateManyAndReturn({
    where: { id: organizationId },
    data: { credit_balance: { increment: amount }, updated_at: new Date() },
    select: { credit_balance: true },
  });
  if (!org) throw new NotFoundError(`organization ${organizationId}`);
  await tx.creditLedgerEntry.create({ data: { organization_id: organizationId, kind: "grant", amount, note }, select: { id: true } });
  return org.credit_balance;
}

export async function createProject(db: Db, organizationId: string, name: string, icp?: unknown): Promise<{ projectId: string }> {
  if (!name?.trim()) throw new BadRequestError("name is required");
  await requireOrganization(db, organizationId);
  const project = await db.prisma.project.create({
    data: { organization_id: organizationId, name: name.trim(), icp: icp == null ? Prisma.DbNull : (icp as Prisma.InputJsonValue) },
    select: { id: true },
  });
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
