/**
 * The job runtime as the service composes it, for every process that starts one (`serve`, the MCP stdio
 * server, the test app): the installed features' jobs, the credits feature's hold sweeper whose releases fail
 * their unlock, and the demo layer's extraction as the pipeline's fallback (EXTRACTION_DEMO_FALLBACK).
 * A composition root: the one production file besides src/seed.ts that imports the demo seed (src/seed/).
 */
import type { Env } from "./config/env";
import type { Db } from "./db/client";
import { sweepExpiredHolds } from "./features/account/credits/credits.jobs";
import { unlockHoldReleased } from "./features/account/unlocks/unlock.jobs";
import { useExtractionFallback } from "./features/research/extraction/extraction.extractor";
import { startJobs, type Jobs } from "./jobs/worker";
import { demoExtractor } from "./seed/demo/extractor";

export async function startServiceJobs(db: Db, env: Env, options: { work: boolean }): Promise<Jobs> {
  useExtractionFallback(demoExtractor);
  return startJobs(db, env, { work: options.work, sweep: (database) => sweepExpiredHolds(database, unlockHoldReleased) });
}
