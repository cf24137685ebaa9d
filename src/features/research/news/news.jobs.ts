/**
 * The feed's background jobs: `news.poll_feed` polls one registered feed (feeds.service.ts pollFeed). The worker
 * sends one per due feed (scheduleFeedPolls, from its sweep every WORKER_POLL_SECONDS) with a job id derived
 * from the feed and the current NEWS_POLL_MINUTES period, so a feed has at most one poll queued per period;
 * the poll's claim on its feed row keeps two workers from polling it at once.
 */
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { defineJob, jobIdOf, type JobDefinition } from "../../../jobs/job";

export interface PollFeedData {
  feedId: string;
}

export const pollFeedJob = defineJob<PollFeedData>({
  name: "news.poll_feed",
  async run({ db, env }, data, attempt) {
    // The ingest (parsers, readability) loads in the worker when a feed is first polled, not at every start.
    const { pollFeed } = await import("./ingest/feeds.service");
    // The job's id is the claim's: a retry after the worker died mid-poll takes the feed over at once.
    await pollFeed(db, env, data.feedId, { jobId: attempt.id });
  },
});

/** The feed's background jobs (polling). */
export const newsJobs: JobDefinition<never>[] = [pollFeedJob as JobDefinition<never>];

/** What scheduling needs of the queue (src/jobs/queue.ts JobQueue.sendNow). */
export interface PollSender {
  sendNow<T>(job: JobDefinition<T>, data: T, id: string): Promise<string | null>;
}

/**
 * A UUID from the feed, the poll period and the feed's consecutive failures: the same feed in the same period is the
 * same job, and each retry after a failure is a new one.
 */
export function pollJobId(feedId: string, periodMs: number, now = Date.now(), failures = 0): string {
  return jobIdOf(`news.poll_feed:${feedId}:${Math.floor(now / periodMs)}${failures ? `:retry ${failures}` : ""}`);
}

/**
 * Sends a poll job for every due feed; returns how many were new jobs. A feed is due NEWS_POLL_MINUTES after its last
 * poll, or, after n consecutive failed polls, NEWS_RETRY_MINUTES x 2^(n-1) after it (at most the period).
 */
export async function scheduleFeedPolls(
  db: Db,
  queue: PollSender,
  env: Pick<Env, "NEWS_POLL_MINUTES" | "NEWS_RETRY_MINUTES">,
): Promise<number> {
  const periodMs = env.NEWS_POLL_MINUTES * 60_000;
  let sent = 0;
  const due = await db.query<{ id: string; failures: number }>(
    `SELECT id::text AS id, failures FROM news_feeds
      WHERE last_polled_at IS NULL
         OR last_polled_at <= now() - make_interval(secs => CASE WHEN failures > 0
              THEN least($1::float8, $2::float8 * power(2, least(failures - 1, 30))) ELSE $1::float8 END)
      ORDER BY last_polled_at NULLS FIRST, id`,
    [env.NEWS_POLL_MINUTES * 60, env.NEWS_RETRY_MINUTES * 60],
  );
  for (const { id: feedId, failures } of due)
    if (await queue.sendNow(pollFeedJob, { feedId }, pollJobId(feedId, periodMs, Date.now(), failures))) sent += 1;
  return sent;
}
