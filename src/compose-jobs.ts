/**
 * The job runtime as the service composes it, for every process that starts one (`serve`, the MCP stdio
 * server, the test app): the installed features' jobs, the credits feature's hold sweeper whose releases fail
 * their unlock, the news feature's scheduler of feed polls (NEWS_POLL_MINUTES), the news ingest as the extraction
 * pipeline's sink for a district site's news pages, the opportunity agent's scheduler, the webhooks' dispatch of due
 * deliveries, the semantic search's background embedding (EMBEDDINGS_AUTO), and the demo layer's extraction as the
 * pipeline's fallback
 * (EXTRACTION_DEMO_FALLBACK).
 * A composition root: the one production file besides src/seed.ts that imports the demo seed (src/seed/).
 */
import type { Env } from "./config/env";
import type { Db } from "./db/client";
import { sweepExpiredHolds } from "./features/account/credits/credits.jobs";
import { unlockHoldReleased } from "./features/account/unlocks/unlock.jobs";
import { dispatchDueDeliveries } from "./features/account/webhooks/webhook.jobs";
import { useExtractionFallback } from "./features/research/extraction/extraction.extractor";
import { scheduleFeedPolls } from "./features/research/news/news.jobs";
import { scheduleOpportunityRuns } from "./features/research/opportunities/opportunity.jobs";
import { scheduleEmbedding } from "./features/research/semantic-search/semantic-search.jobs";
import { useSiteNewsSink } from "./features/research/extraction/site-news";
import { logger } from "./logger";
import { startJobs, type Jobs } from "./jobs/worker";
import { demoExtractor } from "./seed/demo/extractor";

export async function startServiceJobs(db: Db, env: Env, options: { work: boolean }): Promise<Jobs> {
  useExtractionFallback(demoExtractor);
  // The news ingest (readability, linkedom) loads when a crawl first finds news pages.
  useSiteNewsSink(async (database, input) => (await import("./features/research/news/ingest/site-news")).storeSiteNews(database, input));
  return startJobs(db, env, {
    work: options.work,
    sweep: async (database, queue) => {
      await sweepExpiredHolds(database, unlockHoldReleased);
      // A feed scheduling problem is logged, and does not make the worker look stalled.
      await scheduleFeedPolls(database, queue, env).catch((error: Error) =>
        logger.warn("feed poll scheduling failed", { error: error.message }),
      );
      // The opportunity agent runs for new projects, changed profiles and new signals.
      await scheduleOpportunityRuns(database, queue).catch((error: Error) =>
        logger.warn("opportunity agent scheduling failed", { error: error.message }),
      );
      // Webhook deliveries whose (next) attempt is due get their job.
      await dispatchDueDeliveries(database, queue).catch((error: Error) =>
        logger.warn("webhook dispatch failed", { error: error.message }),
      );
      // Vectors of new and changed records, in the background (EMBEDDINGS_AUTO; docs/semantic-search.md).
      await scheduleEmbedding(queue, env).catch((error: Error) => logger.warn("embedding scheduling failed", { error: error.message }));
    },
  });
}
