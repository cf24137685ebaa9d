/**
 * Background embedding (docs/semantic-search.md, "When vectors are made"). The worker's sweep (src/compose-jobs.ts,
 * every WORKER_POLL_SECONDS) sends `semantic.embed` when EMBEDDINGS_AUTO is true, with one job id per period of
 * twice EMBEDDINGS_JOB_SECONDS (at least 10 s). A job embeds what is missing or stale (semantic-search.indexer.ts)
 * in batches of EMBEDDINGS_BATCH_SIZE for at most EMBEDDINGS_JOB_SECONDS, yielding to requests between batches, so
 * the worker (one job of a queue at a time) spends at most about half of one core on it and jobs never pile up.
 * Vectors follow ingest, extraction and news within seconds of their rows; the first start never waits for them.
 */
import type { Env } from "../../../config/env";
import { defineJob, jobIdOf, type JobDefinition } from "../../../jobs/job";
import { logger } from "../../../logger";
import { embeddingProvider } from "./embeddings.provider";
import { embedPending } from "./semantic-search.indexer";

export const embedJob = defineJob<Record<string, never>>({
  name: "semantic.embed",
  async run({ db, env }) {
    const started = Date.now();
    const report = await embedPending(db, embeddingProvider(env), {
      batchSize: env.EMBEDDINGS_BATCH_SIZE,
      deadline: started + env.EMBEDDINGS_JOB_SECONDS * 1000,
    });
    if (report.embedded) logger.info("embedded", { ...report, ms: Date.now() - started });
  },
});

export const semanticSearchJobs: JobDefinition<never>[] = [embedJob as JobDefinition<never>];

/** What scheduling needs of the queue (src/jobs/queue.ts JobQueue.sendNow). */
export interface EmbedSender {
  sendNow<T>(job: JobDefinition<T>, data: T, id: string): Promise<string | null>;
}

/** Sends this period's embedding job unless EMBEDDINGS_AUTO is false (tests embed explicitly). */
export async function scheduleEmbedding(
  queue: EmbedSender,
  env: Pick<Env, "EMBEDDINGS_AUTO" | "EMBEDDINGS_JOB_SECONDS">,
  now = Date.now(),
): Promise<boolean> {
  if (env.EMBEDDINGS_AUTO !== "true") return false;
  const periodMs = Math.max(10_000, 2 * env.EMBEDDINGS_JOB_SECONDS * 1000);
  return (await queue.sendNow(embedJob, {}, jobIdOf(`semantic.embed:${Math.floor(now / periodMs)}`))) !== null;
}
