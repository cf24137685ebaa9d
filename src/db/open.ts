import type { Env } from "../config/env";
import { createDb, type Db } from "./client";

/** The database this process's configuration names (DATABASE_URL, else embedded under DATA_DIR). */
export function openDatabase(env: Env): Promise<Db> {
  return createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
}
