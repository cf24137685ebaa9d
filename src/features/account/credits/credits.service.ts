/**
 * The credit ledger (contract section 5). Append-only and double-entry: every movement is two rows of
 * `credit_ledger` with the same `transfer_id` whose amounts sum to zero. Accounts:
 *
 * - `available` (the organization's spendable credits) and `held` (credits reserved by open holds): the
 *   organization's balance is the sum of both, its available credits the first;
 * - `issued` (where grants come from) and `spent` (where charges and committed holds go): counter-accounts.
 *
 * | movement      | from        | to          | balance |
 * |---------------|-------------|-------------|---------|
 * | grant         | issued      | available   | +n      |
 * | charge        | available   | spent       | -n      |
 * | hold          | available   | held        | 0       |
 * | hold_commit   | held        | spent       | -n      |
 * | hold_release  | held        | available   | 0       |
 *
 * `organizations.credit_balance` caches the balance and is written in the transaction that writes the
 * rows. A hold is settled by a conditional update (`open` -> `committed`/`released`), so a retried or
 * duplicated settlement finds no open hold and writes nothing: exactly once.
 *
 * Every function taking `tx` runs inside the caller's transaction, after `lockOrganization`: the row lock
 * serializes every movement of one organization (on PGlite the single connection does too), so the check
 * "available >= amount" and the movement it allows cannot interleave with another.
 *
 * Credits are whole numbers (issue 20 point 10): the amounts and the cached balance are BIGINT columns, a grant
 * is 1..MAX_CREDIT_GRANT and no grant takes a balance above MAX_CREDIT_BALANCE. The bound keeps every balance
 * well within 2^53, so the JS numbers this module returns (JSON numbers over REST, GraphQL Float) are exact; a
 * 1e20 balance in double precision had swallowed a 6-credit charge.
 */
import crypto from "node:crypto";
import type { Db } from "../../../db/client";
import type { Tx } from "../../../db/transaction";
import { AppError, BadRequestError, NotFoundError } from "../../../graphql/errors";

export type LedgerAccount = "available" | "held" | "issued" | "spent";
export type LedgerKind = "grant" | "charge" | "hold" | "hold_commit" | "hold_release";

export interface CreditSummary {
  balance: number;
  held: number;
  available: number;
}

/** What a movement is about (copied onto both rows). */
export interface LedgerRefs {
  entityType?: string;
  entityId?: string;
  operationKey?: string | null;
  holdId?: string;
  note?: string;
}

export class InsufficientCreditsError extends AppError {
  constructor(available: number, required: number) {
    super("INSUFFICIENT_CREDITS", `this needs ${required} credits; ${available} are available`, { balance: available, required });
  }
}

/** The most credits one grant may add. */
export const MAX_CREDIT_GRANT = 1_000_000_000_000;
/** The most credits an organization may own (1e15 < 2^53 ≈ 9.007e15: every balance is an exact JS number). */
export const MAX_CREDIT_BALANCE = 1_000_000_000_000_000;

/** Throws 400 unless `amount` is a whole number of credits a grant may add (1..MAX_CREDIT_GRANT). */
export function checkGrantAmount(amount: number, name = "amount"): void {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_CREDIT_GRANT)
    throw new BadRequestError(
      `${name} must be a whole number of credits from 1 to ${MAX_CREDIT_GRANT}, got ${String(amount).slice(0, 40)}`,
    );
}

/**
 * Locks the organization's row until the transaction ends and returns its cached balance.
 * Hand-written: Prisma has no row locks (SELECT ... FOR UPDATE).
 */
export async function lockOrganization(tx: Tx, organizationId: string): Promise<number> {
  const rows = await tx.$queryRawUnsafe<{ credit_balance: number }[]>(
    `SELECT credit_balance FROM organizations WHERE id = $1::uuid FOR UPDATE`,
    organizationId,
  );
  if (!rows[0]) throw new NotFoundError(`organization ${organizationId}`);
  return Number(rows[0].credit_balance);
}

/**
 * Balance, open holds and available credits of one organization (inside or outside a transaction). `lockedBalance`:
 * the balance lockOrganization returned in this transaction (the row cannot have moved since): not read again.
 * The holds are not read by the lock's own statement: on PostgreSQL a statement that waited for the row lock re-reads
 * the locked row, but its subqueries keep the snapshot taken before the wait (concurrent unlocks then overdrew).
 */
export async function creditSummary(client: Tx | Db["prisma"], organizationId: string, lockedBalance?: number): Promise<CreditSummary> {
  // One after the other: a transaction client runs one statement at a time.
  const org =
    lockedBalance === undefined
      ? await client.organization.findUnique({ where: { id: organizationId }, select: { credit_balance: true } })
      : { credit_balance: lockedBalance };
  // Hand-written (as the lock): Prisma's aggregate took twice the client time of a raw statement, on every search's
  // and unlock's charge (bench:semantic).
  const [holds] = await client.$queryRawUnsafe<{ held: bigint | number | null }[]>(
    `SELECT sum(amount)::bigint AS held FROM credit_holds WHERE organization_id = $1::uuid AND status = 'open'`,
    organizationId,
  );
  if (!org) throw new NotFoundError(`organization ${organizationId}`);
  // BIGINT columns come back as bigint; bounded by MAX_CREDIT_BALANCE, they convert exactly.
  const balance = Number(org.credit_balance);
  const held = Number(holds?.held ?? 0);
  return { balance, held, available: balance - held };
}

/** Writes one movement (two rows) and moves the cached balance when the movement changes it. */
async function transfer(
  tx: Tx,
  organizationId: string,
  kind: LedgerKind,
  from: LedgerAccount,
  to: LedgerAccount,
  amount: number,
  refs: LedgerRefs,
): Promise<void> {
  // A movement of anything but a positive whole number of credits is a bug of the caller, never written.
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`credit ledger: ${kind} of ${amount} credits refused`);
  const own = (a: LedgerAccount) => a === "available" || a === "held";
  const delta = (own(to) ? amount : 0) - (own(from) ? amount : 0);
  // Both rows and the cached balance in one statement, hand-written: Prisma's createMany and update were two round
  // trips and about 3 ms of client time a charge on embedded (bench:semantic: a fifth of a search's request).
  await tx.$executeRawUnsafe(
    `WITH moved AS (
       INSERT INTO credit_ledger (organization_id, transfer_id, account, kind, amount, hold_id, entity_type, entity_id, operation_key, note)
       SELECT $1::uuid, $2::uuid, m.account, $5::text, m.amount, $7::uuid, $8::text, $9::uuid, $10::text, $11::text
         FROM (VALUES ($3::text, -$6::bigint), ($4::text, $6::bigint)) AS m(account, amount))
     UPDATE organizations SET credit_balance = credit_balance + $12::bigint, updated_at = now()
      WHERE id = $1::uuid AND $12::bigint <> 0`,
    organizationId,
    crypto.randomUUID(),
    from,
    to,
    kind,
    amount,
    refs.holdId ?? null,
    refs.entityType ?? null,
    refs.entityId ?? null,
    refs.operationKey ?? null,
    refs.note ?? null,
    delta,
  );
}

/** Adds credits (from `issued`): 1..MAX_CREDIT_GRANT, the balance at most MAX_CREDIT_BALANCE (else 400). Returns the new balance. */
export async function grant(tx: Tx, organizationId: string, amount: number, note: string): Promise<number> {
  checkGrantAmount(amount);
  const balance = await lockOrganization(tx, organizationId);
  if (balance + amount > MAX_CREDIT_BALANCE)
    throw new BadRequestError(
      `a grant of ${amount} credits would take the balance of ${balance} above the limit of ${MAX_CREDIT_BALANCE} credits`,
    );
  await transfer(tx, organizationId, "grant", "issued", "available", amount, { note });
  return (await creditSummary(tx, organizationId)).balance;
}

/** Throws 402 unless `amount` credits are available. Call after lockOrganization (pass its balance to skip a read). */
export async function requireAvailable(tx: Tx, organizationId: string, amount: number, lockedBalance?: number): Promise<CreditSummary> {
  const summary = await creditSummary(tx, organizationId, lockedBalance);
  if (summary.available < amount) throw new InsufficientCreditsError(summary.available, amount);
  return summary;
}

/** An immediate deduction (an instant unlock). Call after lockOrganization and requireAvailable. */
export async function charge(tx: Tx, organizationId: string, amount: number, refs: LedgerRefs): Promise<void> {
  await transfer(tx, organizationId, "charge", "available", "spent", amount, refs);
}

export interface HoldRequest {
  amount: number;
  entityType: string;
  entityId: string;
  expiresAt: Date;
  operationKey?: string | null;
}

/** Reserves credits until the hold is committed or released. Call after lockOrganization and requireAvailable. */
export async function hold(tx: Tx, organizationId: string, request: HoldRequest): Promise<string> {
  const created = await tx.creditHold.create({
    data: {
      organization_id: organizationId,
      amount: request.amount,
      status: "open",
      entity_type: request.entityType,
      entity_id: request.entityId,
      expires_at: request.expiresAt,
    },
    select: { id: true },
  });
  await transfer(tx, organizationId, "hold", "available", "held", request.amount, {
    holdId: created.id,
    entityType: request.entityType,
    entityId: request.entityId,
    operationKey: request.operationKey,
  });
  return created.id;
}

export type HoldSettlement = "committed" | "released";

/**
 * Settles an open hold: `committed` turns it into a deduction, `released` gives the credits back.
 * Returns the hold's amount, or null when it was not open (already settled: nothing is written).
 */
export async function settleHold(tx: Tx, holdId: string, outcome: HoldSettlement, note?: string): Promise<number | null> {
  const found = await tx.creditHold.findUnique({ where: { id: holdId }, select: { organization_id: true } });
  if (!found) return null;
  await lockOrganization(tx, found.organization_id);
  const [settled] = await tx.creditHold.updateManyAndReturn({
    where: { id: holdId, status: "open" },
    data: { status: outcome, settled_at: new Date() },
  });
  if (!settled) return null;
  const refs = { holdId, entityType: settled.entity_type, entityId: settled.entity_id, note };
  const amount = Number(settled.amount);
  if (outcome === "committed") await transfer(tx, settled.organization_id, "hold_commit", "held", "spent", amount, refs);
  else await transfer(tx, settled.organization_id, "hold_release", "held", "available", amount, refs);
  return amount;
}

/** Open holds past their expiry (the sweeper settles them one transaction each). */
export async function expiredHolds(db: Db, now: Date): Promise<{ id: string; organization_id: string }[]> {
  return db.prisma.creditHold.findMany({
    where: { status: "open", expires_at: { lte: now } },
    select: { id: true, organization_id: true },
    orderBy: { expires_at: "asc" },
    take: 500,
  });
}
