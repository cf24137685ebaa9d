/**
 * The news commands of the CLI (contract section 10):
 *   edmarket ingest news-feed <url-or-file> [--refetch]   one feed ingested once (origin "cli"), its summary printed
 *   edmarket news feed add <url>               registers a feed the worker polls every NEWS_POLL_MINUTES
 *   edmarket news feed list                    the registered feeds with their last poll
 *   edmarket news feed remove <id-or-url>      unregisters it (its articles stay)
 */
import fs from "node:fs";
import type { Env } from "../../../../config/env";
import type { Db } from "../../../../db/client";
import { addFeed, FeedUsageError, feedUrl, listFeeds, removeFeed } from "./feeds.service";
import { ingestFeedSource } from "./ingest";

export class NewsUsageError extends Error {}

export const NEWS_FEED_USAGE = "usage: edmarket news feed add <url> | list | remove <id-or-url>";

/**
 * `options.refetch`: the `--refetch` flag's value ("true" when given bare); pages already stored are then fetched and
 * read again, so an edited article is updated and analysed again (otherwise a known page is not fetched).
 */
export async function ingestNewsFeedCommand(db: Db, env: Env, source: string | undefined, options: { refetch?: string } = {}) {
  checkIngestNewsFeedArgs(source, options);
  const summary = await ingestFeedSource(db, env, source!, { origin: "cli", refetchKnown: options.refetch === "true" });
  return {
    source: summary.source,
    format: summary.format,
    title: summary.title,
    items: summary.items,
    new: summary.new,
    updated: summary.updated,
    unchanged: summary.unchanged,
    failed: summary.failed,
    duplicates_in_feed: summary.duplicates_in_feed,
    signals: summary.signals,
    analyzed: summary.analyzed,
    analysis_failed: summary.analysis_failed,
    text_source: summary.text_source,
    fetch_status: summary.fetch_status,
    problems: summary.problems,
    seconds: summary.seconds,
  };
}

export async function newsFeedCommand(db: Db, action: string | undefined, argument: string | undefined) {
  checkNewsFeedArgs(action, argument);
  try {
    switch (action) {
      case "add":
        return await addFeed(db, argument!);
      case "list":
        return { feeds: await listFeeds(db) };
      default:
        return await removeFeed(db, argument!);
    }
  } catch (error) {
    throw error instanceof FeedUsageError ? new NewsUsageError(error.message) : error;
  }
}

/** The usage errors of `ingest news-feed` its arguments show alone: the CLI checks them before it opens the database. */
export function checkIngestNewsFeedArgs(source: string | undefined, options: { refetch?: string } = {}): void {
  if (options.refetch !== undefined && options.refetch !== "true" && options.refetch !== "false")
    throw new NewsUsageError(
      `--refetch takes no value (got ${JSON.stringify(options.refetch.slice(0, 80))}): put it after the feed, e.g. edmarket ingest news-feed <url> --refetch`,
    );
  if (!source) throw new NewsUsageError("usage: edmarket ingest news-feed <url-or-file> [--refetch]");
  if (!/^https?:\/\//i.test(source) && !source.startsWith("file://") && !fs.existsSync(source))
    throw new NewsUsageError(`no such file, and not an http(s) URL: ${source}`);
}

/** The usage errors of `news feed` its arguments show alone (an unknown action, a missing or non-http(s) feed). */
export function checkNewsFeedArgs(action: string | undefined, argument: string | undefined): void {
  switch (action) {
    case "add":
      if (!argument) throw new NewsUsageError("usage: edmarket news feed add <url>");
      try {
        feedUrl(argument);
      } catch (error) {
        throw error instanceof FeedUsageError ? new NewsUsageError(error.message) : error;
      }
      return;
    case "list":
      return;
    case "remove":
      if (!argument) throw new NewsUsageError("usage: edmarket news feed remove <id-or-url>");
      return;
    default:
      throw new NewsUsageError(NEWS_FEED_USAGE);
  }
}
