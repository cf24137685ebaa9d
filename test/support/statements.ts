/**
 * The one way tests count SQL statements: the database's own counter (src/db/client.ts counts every
 * statement sent on any connection, Prisma's included) read before and after `fn`.
 */
interface Counted {
  readonly stats: { statements: number };
}

/** The exact number of statements `fn` sends. */
export async function countStatements(db: Counted, fn: () => Promise<unknown>): Promise<number> {
  return (await measureStatements(db, fn)).statements;
}

/** The exact number of statements `fn` sends, with what it returned. */
export async function measureStatements<T>(db: Counted, fn: () => Promise<T>): Promise<{ statements: number; result: T }> {
  const before = db.stats.statements;
  const result = await fn();
  return { statements: db.stats.statements - before, result };
}
