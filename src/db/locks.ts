/**
 * Transaction-scoped advisory locks by name: `advisoryXactLock(tx, "brief:<project>:<kind>:<id>")` waits
 * until no other transaction holds the lock of that name, and holds it until its own transaction ends
 * (commit or rollback). Names are hashed to PostgreSQL's lock key (hashtext); two names that hash alike
 * only serialize a little more. PGlite has one connection, so there it never waits.
 */
import type { Queryable } from "./client";
import type { Prisma } from "./generated/client";

/** A transaction that can take the lock: Prisma's interactive transaction or `Db.transaction`'s. */
export type LockingTransaction = Pick<Prisma.TransactionClient, "$queryRawUnsafe"> | Pick<Queryable, "query">;

// pg_advisory_xact_lock returns void, which Prisma cannot read: the cast gives the statement a readable column.
const LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked`;

/** Takes the advisory lock named `key` for the rest of the transaction `tx`. One statement. */
export async function advisoryXactLock(tx: LockingTransaction, key: string): Promise<void> {
  if ("$queryRawUnsafe" in tx) await tx.$queryRawUnsafe(LOCK_SQL, key);
  else await tx.query(LOCK_SQL, [key]);
}
