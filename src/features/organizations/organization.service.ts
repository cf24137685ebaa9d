/**
 * Organizations and their credits. Credits are a ledger (contract section 5): every grant is a row and
 * organizations.credit_balance is a cache written in the same transaction.
 */
import type { Db, Queryable } from "../../db/client";
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
  return db.transaction(async (q) => {
    const [org] = await q.query<{ id: string }>(`INSERT INTO organizations (name, plan, entitlements) VALUES ($1, $2, $3) RETURNING id`, [
      input.name.trim(),
      input.plan,
      [...new Set(input.entitlements ?? [])],
    ]);
    if (credits > 0) await addGrant(q, org.id, credits, "initial grant");
    return { organizationId: org.id };
  });
}

export async function grantCredits(db: Db, organizationId: string, amount: number): Promise<{ balance: number }> {
  if (!Number.isFinite(amount) || amount <= 0) throw new BadRequestError("amount must be a number > 0");
  return db.transaction(async (q) => {
    const balance = await addGrant(q, organizationId, amount, "grant");
    return { balance };
  });
}

async function addGrant(q: Queryable, organizationId: string, amount: number, note: string): Promise<number> {
  const rows = await q.query<{ credit_balance: number }>(
    `UPDATE organizations SET credit_balance = credit_balance + $2, updated_at = now() WHERE id = $1 RETURNING credit_balance`,
    [organizationId, amount],
  );
  if (!rows.length) throw new NotFoundError(`organization ${organizationId}`);
  await q.query(`INSERT INTO credit_ledger (organization_id, kind, amount, note) VALUES ($1, 'grant', $2, $3)`, [
    organizationId,
    amount,
    note,
  ]);
  return rows[0].credit_balance;
}

export async function createProject(db: Db, organizationId: string, name: string, icp?: unknown): Promise<{ projectId: string }> {
  if (!name?.trim()) throw new BadRequestError("name is required");
  const orgs = await db.query(`SELECT 1 FROM organizations WHERE id = $1`, [organizationId]);
  if (!orgs.length) throw new NotFoundError(`organization ${organizationId}`);
  const [row] = await db.query<{ id: string }>(`INSERT INTO projects (organization_id, name, icp) VALUES ($1, $2, $3) RETURNING id`, [
    organizationId,
    name.trim(),
    icp === undefined ? null : JSON.stringify(icp),
  ]);
  return { projectId: row.id };
}
