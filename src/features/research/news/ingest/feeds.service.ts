/**
 * The registry of polled feeds (`news_feeds`): `edmarket news feed add|list|remove`, and one poll of one feed as
 * the worker's `news.poll_feed` job runs it. A poll claims its feed (last_status "polling", last_polled_at now,
 * claimed_by the job; a claim older than 15 minutes is a dead worker's and is taken over, and so is the claim of the
 * poll's own job: pg-boss retries a job only once its attempt failed or its worker died), fetches the feed conditionally (its ETag
 * and Last-Modified), ingests its items (origin "feed"), and records last_status ("ok", "not_modified",
 * "error"), last_error and last_item_count.
 */
import type { Env } from "../../../../config/env";
import type { Db } from "../../../../db/client";
import { logger } from "../../../../logger";
import { NewsFetcher } from "./fetcher";
import { parseFeed } from "./feed-parser";
import { emptySummary, ingestParsedFeed, type IngestOptions, type IngestSummary, type SourceOptions } from "./ingest";
import { canonicalUrl } from "./urls";

export interface FeedRow {
  id: string;
  url: string;
  title: string | null;
  added_at: string;
  last_polled_at: string | null;
  last_status: string | null;
  last_error: string | null;
  last_item_count: number | null;
}

export class FeedUsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A claim on a feed older than this is a dead worker's. */
const STALE_CLAIM_MINUTES = 15;

const FEED_COLUMNS = `id::text AS id, url, title, to_char(added_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS added_at,
  to_char(last_polled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_polled_at,
  last_status, last_error, last_item_count`;

/** A feed's URL as stored (canonical), or a FeedUsageError when it is not an http(s) URL. */
export function feedUrl(raw: string): string {
  const url = /^https?:\/\//i.test(raw.trim()) ? canonicalUrl(raw) : null;
  if (!url) throw new FeedUsageError(`a feed is an http(s) URL, not ${JSON.stringify(raw)}`);
  return url;
}

/** Registers a feed (idempotent: a known URL answers its row with added false). */
export async function addFeed(db: Db, raw: string): Promise<{ added: boolean; feed: FeedRow }> {
  const url = feedUrl(raw);
  const inserted = await db.query<FeedRow>(
    `INSERT INTO news_feeds (url) VALUES ($1) ON CONFLICT (url) DO NOTHING RETURNING ${FEED_COLUMNS}`,
    [url],
  );
  if (inserted[0]) return { added: true, feed: inserted[0] };
  const [feed] = await db.query<FeedRow>(`SELECT ${FEED_COLUMNS} FROM news_feeds WHERE url = $1`, [url]);
  return { added: false, feed: feed! };
}

export async function listFeeds(db: Db): Promise<FeedRow[]> {
  return db.query<FeedRow>(`SELECT ${FEED_COLUMNS} FROM news_feeds ORDER BY added_at, id`);
}

/** Removes a feed by id or URL; its articles stay (their feed_id becomes null). */
export async function removeFeed(db: Db, idOrUrl: string): Promise<{ removed: number }> {
  const value = idOrUrl.trim();
  const rows = UUID.test(value)
    ? await db.query(`DELETE FROM news_feeds WHERE id = $1 RETURNING id`, [value])
    : await db.query(`DELETE FROM news_feeds WHERE url = $1 RETURNING id`, [feedUrl(value)]);
  return { removed: rows.length };
}

export type PollResult = IngestSummary | { feed_id: string; skipped: "unknown_feed" | "being_polled" };

/** One poll of one registered feed (the `news.poll_feed` job). Fetch and parse problems are recorded on the feed, not thrown. */
export async function pollFeed(
  db: Db,
  env: Env,
  feedId: string,
  options: Omit<SourceOptions, "origin" | "feedId"> & { jobId?: string } = {},
): Promise<PollResult> {
  const { jobId, ...sourceOptions } = options;
  const [claim] = await db.query<{ url: string; etag: string | null; last_modified: string | null }>(
    `UPDATE news_feeds SET last_status = 'polling', last_polled_at = now(), claimed_by = $3
      WHERE id = $1 AND (last_status IS DISTINCT FROM 'polling' OR last_polled_at < now() - make_interval(mins => $2)
                         OR ($3::text IS NOT NULL AND claimed_by = $3))
      RETURNING url, etag, last_modified`,
    [feedId, STALE_CLAIM_MINUTES, jobId ?? null],
  );
  if (!claim) {
    const [exists] = await db.query(`SELECT 1 FROM news_feeds WHERE id = $1`, [feedId]);
    return { feed_id: feedId, skipped: exists ? "being_polled" : "unknown_feed" };
  }
  const started = Date.now();
  const ingestOptions: IngestOptions = { ...sourceOptions, origin: "feed", feedId };
  const summary = emptySummary(claim.url, ingestOptions);
  const record = (
    status: string,
    error: string | null,
    extra: { etag?: string | null; lastModified?: string | null; title?: string | null } = {},
  ) =>
    db.query(
      `UPDATE news_feeds SET last_status = $2, last_error = $3, last_item_count = COALESCE($4, last_item_count), claimed_by = NULL,
              etag = COALESCE($5, etag), last_modified = COALESCE($6, last_modified), title = COALESCE($7, title),
              failures = CASE WHEN $2 = 'error' THEN failures + 1 ELSE 0 END
        WHERE id = $1`,
      [feedId, status, error, status === "ok" ? summary.items : null, extra.etag ?? null, extra.lastModified ?? null, extra.title ?? null],
    );
  try {
    const fetcher = await NewsFetcher.create(env, { ...sourceOptions.fetcher, trustedUrl: claim.url });
    const response = await fetcher.feed(claim.url, { etag: claim.etag, lastModified: claim.last_modified });
    if (response === "not_modified") {
      summary.not_modified = true;
      summary.seconds = (Date.now() - started) / 1000;
      await record("not_modified", null);
      return summary;
    }
    const feed = parseFeed(response.body, { feedUrl: response.url, contentType: response.contentTypeHeader });
    summary.seconds = (Date.now() - started) / 1000;
    await ingestParsedFeed(db, env, feed, fetcher, summary, ingestOptions);
    const header = (name: string) => {
      const v = response.headers[name];
      return typeof v === "string" ? v : null;
    };
    await record("ok", summary.failed ? `${summary.failed} of ${summary.items} items not stored` : null, {
      etag: header("etag"),
      lastModified: header("last-modified"),
      title: feed.title,
    });
    logger.info("news feed polled", { feed_id: feedId, items: summary.items, new: summary.new, updated: summary.updated });
    return summary;
  } catch (error) {
    const message = (error as Error).message.slice(0, 500);
    await record("error", message);
    logger.warn("news feed poll failed", { feed_id: feedId, url: claim.url, error: message });
    return { ...summary, error: message, seconds: (Date.now() - started) / 1000 };
  }
}
