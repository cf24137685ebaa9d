import type { Env } from "../config/env";
import { createDb, type Db } from "./client";

/**
 * The database this process's configuration names (DATABASE_URL, else embedded under DATA_DIR).
 * `serving`: the API's pool, whose statements run under the request budget (docs/limits.md).
 */
export function openDatabase(env: Env, options: { serving?: boolean } = {}): Promise<Db> {
  return createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.dataDir,
    statementTimeoutMs: options.serving ? env.REQUEST_TIMEOUT_MS : undefined,
  });
}
