/**
 * A side channel to the database for bookkeeping around requests: the rate limiter's counters and the
 * cancellation of a request's statements at its deadline (src/features/account/rate-limits, graphql/request-budget.ts).
 *
 * It is neither the API's pool nor its statement counter: a pool that a flood of one key saturates must not
 * delay another key's refusal or a cancel, and tests that count a request's own statements (`db.stats`)
 * count the same numbers with or without the limiter. Its statements are counted in `stats` instead.
 */
import { Pool } from "pg";
import { logger } from "../logger";
import type { Db } from "./client";

export interface ControlChannel {
  /** `name`: PostgreSQL keeps the statement prepared on each connection under it (parsed and planned once). */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], name?: string): Promise<T[]>;
  /** Ends a PostgreSQL backend's running statement (pg_cancel_backend); a no-op on the embedded database. */
  cancel(pid: number): Promise<void>;
  readonly stats: { statements: number };
  close(): Promise<void>;
}

export function controlChannel(db: Db): ControlChannel {
  const stats = { statements: 0 };
  const driver = db.driver;
  if (driver.kind === "embedded") {
    // The embedded database is one in-process connection: its statements take their turn with the API's
    // (db/client.ts), counted here rather than in db.stats.
    const uncounted = driver.uncounted;
    return {
      stats,
      async query<T>(sql: string, params: readonly unknown[] = []) {
        stats.statements += 1;
        return uncounted<T>(sql, params);
      },
      async cancel() {},
      async close() {},
    };
  }
  let pool: Pool | undefined;
  // Two connections: a limiter check and a cancel never wait behind the API's own queue; a short
  // statement_timeout, as these statements touch one row.
  const open = (): Pool => {
    if (pool) return pool;
    pool = new Pool({ connectionString: driver.url, max: 2, statement_timeout: 5_000, idleTimeoutMillis: 10_000 });
    pool.on("error", (error) => logger.warn("idle control connection lost", { error: error.message }));
    return pool;
  };
  return {
    stats,
    async query<T>(sql: string, params: readonly unknown[] = [], name?: string) {
      stats.statements += 1;
      return (await open().query({ text: sql, values: params as unknown[], ...(name ? { name } : {}) })).rows as T[];
    },
    async cancel(pid: number) {
      stats.statements += 1;
      await open().query("SELECT pg_cancel_backend($1)", [pid]);
    },
    async close() {
      const closing = pool;
      pool = undefined;
      await closing?.end();
    },
  };
}
