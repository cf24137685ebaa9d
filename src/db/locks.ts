/**
 * Transaction-scoped advisory locks: `advisoryXactLock(tx, key)` waits until no other transaction holds the
 * lock `key`, and holds it until its own transaction ends (commit or rollback), so a crashed process never
 * leaves it held. A key is a name, hashed to PostgreSQL's lock key (hashtext; two names that hash alike only
 * serialize a little more), e.g. "brief:<project>:<kind>:<id>"; or a fixed number, the lock key itself, where
 * the key is shared with another program or with older releases (the migrations' is Prisma Migrate's). Both
 * are pg_advisory_xact_lock's one-bigint key. PGlite has one connection, so there it never waits.
 */
import type { Queryable } from "./client";
import type { Prisma } from "./generated/client";

/** A transaction that can take the lock: Prisma's interactive transaction or `Db.transaction`'s. */
export type LockingTransaction = Pick<Prisma.TransactionClient, "$queryRawUnsafe"> | Pick<Queryable, "query">;

// pg_advisory_xact_lock returns void, which Prisma cannot read: the cast gives the statement a readable column.
const BY_NAME_SQL = `SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked`;
const BY_NUMBER_SQL = `SELECT pg_advisory_xact_lock($1::bigint)::text AS locked`;

/** Takes the advisory lock `key` (a name, or a fixed numeric lock key) for the rest of the transaction `tx`. One statement. */
export async function advisoryXactLock(tx: LockingTransaction, key: string | number): Promise<void> {
  if (typeof key === "number" && !Number.isSafeInteger(key)) throw new RangeError(`advisoryXactLock: ${key} is not a whole number`);
  const sql = typeof key === "number" ? BY_NUMBER_SQL : BY_NAME_SQL;
  // A number goes as its decimal text: exact for any safe integer, whichever type a driver would give a JS number.
  const parameter = String(key);
  if ("$queryRawUnsafe" in tx) await tx.$queryRawUnsafe(sql, parameter);
  else await tx.query(sql, [parameter]);
}
