import type { Env } from "../config/env";
import { createDb, type Db } from "./client";
import { applyWasmTier } from "./wasm-tier";

/**
 * The database this process's configuration names (DATABASE_URL, else embedded under DATA_DIR).
 * `serving`: the API's pool, whose statements run under the request budget (docs/limits.md), and on embedded
 * the buffer pool of EMBEDDED_SHARED_BUFFERS (admin commands keep PGlite's 128 MB: they start faster and smaller).
 */
export function openDatabase(env: Env, options: { serving?: boolean } = {}): Promise<Db> {
  applyWasmTier(env);
  return createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.dataDir,
    statementTimeoutMs: options.serving ? env.REQUEST_TIMEOUT_MS : undefined,
    settings: options.serving ? servingSettings(env) : undefined,
  });
}

/** The embedded server settings of a serving process (bench/semantic.ts opens its database with them too). */
export const servingSettings = (env: Pick<Env, "EMBEDDED_SHARED_BUFFERS">): Record<string, string> => ({
  shared_buffers: env.EMBEDDED_SHARED_BUFFERS,
});
