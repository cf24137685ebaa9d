/**
 * Polls `fn` every 100 ms until `ok` holds or `ms` pass, then returns the last value: the caller's
 * expectation on it fails with the value in view (jobs on a real worker finish when they finish).
 */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * How many connections of this PostgreSQL database wait on a lock; with `blockedBy`, only those the backend with that
 * pid blocks. What a test polls before letting a lock go, so the waiters are known to be in flight.
 */
export async function lockWaiters(
  db: { query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> },
  blockedBy?: number,
): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
        AND ${blockedBy === undefined ? "wait_event_type = 'Lock'" : "$1::int = ANY(pg_blocking_pids(pid))"}`,
    blockedBy === undefined ? [] : [blockedBy],
  );
  return row!.n;
}
