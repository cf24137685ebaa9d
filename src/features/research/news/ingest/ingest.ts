/**
 * From feed items to articles (docs/signals.md, "Sources and ingest"). Per item, with NEWS_FETCH_CONCURRENCY
 * items in flight: its page is fetched (fetcher.ts) and its main text read (main-text.ts); when the page cannot
 * be read (fetch error, robots.txt, not HTML, too little text) the item's own text stands in (`text_source`
 * "feed_item", `fetch_status` says why). The article's URL is the page's `<link rel=canonical>` (same site) or
 * the item's link without fragment and tracking parameters; articles are upserted by it: a re-seen item
 * changes nothing unless its text changed, and only a new or changed text is analysed again
 * (analyzeArticle). An article whose analysis failed keeps `analyzed_at` null and is analysed again the next
 * time its item is seen.
 */
import fs from "node:fs/promises";
import type { Env } from "../../../../config/env";
import type { Db } from "../../../../db/client";
import { faultPoint } from "../../../../fault-points";
import { logger } from "../../../../logger";
import { decodeHtml } from "../../extraction/html";
import { parseFeedDate } from "./dates";
import { NewsFetcher, fetchStatusOf, type NewsFetcherOptions } from "./fetcher";
import { parseFeed, type FeedItem, type ParsedFeed } from "./feed-parser";
import { extractMainText } from "./main-text";
import { acceptCanonical, canonicalUrl, domainOf } from "./urls";

export type ArticleOrigin = "feed" | "cli" | "extraction";

/** data_source of articles read from feeds (extraction's pages carry the pipeline's own). */
export const NEWS_FEED_SOURCE = "news_feed";

/** A page whose main text is shorter than this, when the feed item says more, is read from the item. */
export const MIN_PAGE_TEXT = 200;

export type Analyze = (db: Db, articleId: string) => Promise<{ signals: number }>;

/**
 * The analysis module's analyzeArticle, loaded on first use: an analysis that cannot even load is an analysis
 * failure of each article (logged, analyzed_at left null), never a failed ingest.
 */
export const analyzeArticle: Analyze = async (db, articleId) => (await import("../analysis")).analyzeArticle(db, articleId);

export interface IngestOptions {
  origin: ArticleOrigin;
  feedId?: string | null;
  originDistrictId?: string | null;
  dataSource?: string;
  /** Items processed at once (default NEWS_FETCH_CONCURRENCY). */
  concurrency?: number;
  /** Signals of an article (default: the analysis module's analyzeArticle). */
  analyze?: Analyze;
  /** Fetch the page of an item whose article was already read from its page (default: no, it is unchanged). */
  refetchKnown?: boolean;
}

export interface IngestSummary {
  source: string;
  origin: ArticleOrigin;
  feed_id: string | null;
  format: ParsedFeed["format"] | null;
  title: string | null;
  /** The feed answered 304 Not Modified: nothing was read. */
  not_modified: boolean;
  items: number;
  new: number;
  updated: number;
  unchanged: number;
  failed: number;
  duplicates_in_feed: number;
  signals: number;
  analyzed: number;
  analysis_failed: number;
  text_source: { page: number; feed_item: number };
  fetch_status: Record<string, number>;
  /** The first problems (items not stored, analyses that failed), at most 20. */
  problems: { url: string | null; problem: string }[];
  seconds: number;
  /** Why a poll read no items (the feed could not be fetched or parsed). */
  error?: string;
}

export type ItemOutcome = "new" | "updated" | "unchanged" | "failed";

interface Existing {
  id: string;
  text: string | null;
  text_source: string | null;
  analyzed_at: Date | null;
}

export function emptySummary(source: string, options: Pick<IngestOptions, "origin" | "feedId">): IngestSummary {
  return {
    source,
    origin: options.origin,
    feed_id: options.feedId ?? null,
    format: null,
    title: null,
    not_modified: false,
    items: 0,
    new: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    duplicates_in_feed: 0,
    signals: 0,
    analyzed: 0,
    analysis_failed: 0,
    text_source: { page: 0, feed_item: 0 },
    fetch_status: {},
    problems: [],
    seconds: 0,
  };
}

/** The article a page or item gives, before it is stored. */
export interface ArticleDraft {
  url: string;
  title: string;
  author: string | null;
  description: string | null;
  publishedAt: Date | null;
  text: string | null;
  textSource: "page" | "feed_item";
  fetchStatus: string;
}

/** An item's page read into an article draft (or the item's own text when the page cannot be read). */
export async function draftFromItem(fetcher: NewsFetcher, item: FeedItem & { link: string }): Promise<ArticleDraft> {
  const itemText = item.text ?? item.description ?? null;
  const fromItem = (fetchStatus: string): ArticleDraft => ({
    url: item.link,
    title: item.title || item.link,
    author: item.author,
    description: item.description,
    publishedAt: item.publishedAt,
    text: itemText ?? (item.title || null),
    textSource: "feed_item",
    fetchStatus,
  });
  const page = await fetcher.page(item.link);
  if (!page.ok) return fromItem(page.status);
  let main;
  try {
    main = extractMainText(decodeHtml(page.html, page.contentTypeHeader));
  } catch {
    return fromItem("parse_error");
  }
  if (main.text.length < MIN_PAGE_TEXT && (itemText?.length ?? 0) > main.text.length) return fromItem("too_little_text");
  if (!main.text) return fromItem("no_text");
  return {
    url: acceptCanonical(main.canonical, page.url) ?? item.link,
    title: item.title || main.title || item.link,
    author: item.author ?? main.author?.slice(0, 200) ?? null,
    description: item.description ?? main.description,
    publishedAt: item.publishedAt ?? parseFeedDate(main.publishedAt),
    text: main.text,
    textSource: "page",
    fetchStatus: "ok",
  };
}

/** The columns of a stored article that decide whether an item changes it (Existing). */
const EXISTING = { id: true, text: true, text_source: true, analyzed_at: true } as const;

/** The article an item's link leads to: stored under that URL, or under its page's canonical URL (article_links). */
function knownArticle(db: Db, link: string): Promise<Existing | null> {
  return db.prisma.article.findFirst({ where: { OR: [{ url: link }, { links: { some: { url: link } } }] }, select: EXISTING });
}

/** Keeps an item's link whose article is stored under another URL, so the next poll finds it without a fetch. */
async function rememberLink(db: Db, link: string, articleId: string): Promise<void> {
  await db.prisma.articleLink.upsert({
    where: { url: link },
    create: { url: link, article_id: articleId },
    update: { article_id: articleId },
  });
}

/**
 * Stores a draft: inserted when its URL is new; when known, updated only if its text changed (a page that could
 * not be read this time does not replace a text read from the page before). Returns the outcome and whether the
 * article needs analysis (new, changed, or never analysed successfully).
 */
export async function storeDraft(
  db: Db,
  draft: ArticleDraft,
  options: Pick<IngestOptions, "origin" | "feedId" | "originDistrictId" | "dataSource">,
): Promise<{ id: string; outcome: ItemOutcome; analyze: boolean }> {
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO articles (url, title, domain, author, description, published_at, data_source, feed_id, origin,
                           origin_district_id, text, text_source, fetch_status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (url) DO NOTHING
     RETURNING id`,
    [
      draft.url,
      draft.title.slice(0, 1000),
      domainOf(draft.url),
      draft.author,
      draft.description,
      draft.publishedAt,
      options.dataSource ?? NEWS_FEED_SOURCE,
      options.feedId ?? null,
      options.origin,
      options.originDistrictId ?? null,
      draft.text,
      draft.textSource,
      draft.fetchStatus,
    ],
  );
  if (inserted[0]) return { id: inserted[0].id, outcome: "new", analyze: true };
  const existing = await db.prisma.article.findUnique({ where: { url: draft.url }, select: EXISTING });
  if (!existing) throw new Error(`article ${draft.url} vanished while being stored`);
  const downgrade = existing.text_source === "page" && draft.textSource === "feed_item";
  if (downgrade || (existing.text ?? "") === (draft.text ?? ""))
    return { id: existing.id, outcome: "unchanged", analyze: existing.analyzed_at === null };
  await db.query(
    `UPDATE articles
        SET text = $2, text_source = $3, fetch_status = $4, title = $5, description = COALESCE($6, description),
            author = COALESCE($7, author), published_at = COALESCE($8, published_at), analyzed_at = NULL
      WHERE id = $1`,
    [
      existing.id,
      draft.text,
      draft.textSource,
      draft.fetchStatus,
      draft.title.slice(0, 1000),
      draft.description,
      draft.author,
      draft.publishedAt,
    ],
  );
  return { id: existing.id, outcome: "updated", analyze: true };
}

/** Runs the analysis of one article; a failure is logged and leaves analyzed_at null (a later run retries). */
export async function analyzeSafely(
  db: Db,
  articleId: string,
  analyze: Analyze,
  summary: Pick<IngestSummary, "signals" | "analyzed" | "analysis_failed" | "problems">,
  url: string,
): Promise<void> {
  try {
    const { signals } = await analyze(db, articleId);
    summary.signals += signals;
    summary.analyzed += 1;
  } catch (error) {
    summary.analysis_failed += 1;
    if (summary.problems.length < 20) summary.problems.push({ url, problem: `analysis: ${(error as Error).message}`.slice(0, 300) });
    logger.warn("article analysis failed", { article_id: articleId, url, error: (error as Error).message });
  }
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await fn(items[index]!, index);
    }
  });
  await Promise.all(workers);
}

/** The items of a parsed feed into articles. */
export async function ingestParsedFeed(
  db: Db,
  env: Env,
  feed: ParsedFeed,
  fetcher: NewsFetcher,
  summary: IngestSummary,
  options: IngestOptions,
): Promise<IngestSummary> {
  const started = Date.now() - summary.seconds * 1000;
  const analyze = options.analyze ?? analyzeArticle;
  summary.format = feed.format;
  summary.title = feed.title;
  summary.items = feed.items.length;
  summary.duplicates_in_feed = feed.duplicates;
  // Two items of one run may be one article (canonical URL): it is analysed once.
  const seen = new Set<string>();
  const analyzeOnce = async (id: string, url: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    await analyzeSafely(db, id, analyze, summary, url);
  };
  const problem = (url: string | null, text: string) => {
    if (summary.problems.length < 20) summary.problems.push({ url, problem: text.slice(0, 300) });
  };
  await eachLimited(feed.items, options.concurrency ?? env.NEWS_FETCH_CONCURRENCY, async (item) => {
    if (!item.link) {
      summary.failed += 1;
      problem(item.guid, "the item has no link (nor a guid that is a URL)");
      return;
    }
    try {
      let draft: ArticleDraft | null = null;
      if (!options.refetchKnown) {
        const known = await knownArticle(db, item.link);
        if (known && known.text_source === "page") {
          summary.unchanged += 1;
          summary.text_source.page += 1;
          count(summary.fetch_status, "known");
          if (known.analyzed_at === null) await analyzeOnce(known.id, item.link);
          return;
        }
      }
      draft = await draftFromItem(fetcher, item as FeedItem & { link: string });
      count(summary.fetch_status, draft.fetchStatus);
      summary.text_source[draft.textSource] += 1;
      const stored = await storeDraft(db, draft, options);
      if (draft.url !== item.link) await rememberLink(db, item.link, stored.id);
      summary[stored.outcome] += 1;
      await faultPoint("news.ingest");
      if (stored.analyze) await analyzeOnce(stored.id, draft.url);
    } catch (error) {
      summary.failed += 1;
      problem(item.link, `${fetchStatusOf(error)}: ${(error as Error).message}`);
      logger.warn("news item not stored", { url: item.link, error: (error as Error).message });
    }
  });
  summary.seconds = Math.round((Date.now() - started) / 10) / 100;
  return summary;
}

const count = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

export interface SourceOptions extends IngestOptions {
  /** Fetcher options (tests: lookup, extra addresses). */
  fetcher?: Omit<NewsFetcherOptions, "trustedUrl">;
}

/**
 * `edmarket ingest news-feed <url-or-file>`: a feed URL (fetched, its host trusted for its own items) or a file
 * (its relative links resolve against its channel link), ingested once.
 */
export async function ingestFeedSource(db: Db, env: Env, source: string, options: SourceOptions): Promise<IngestSummary> {
  const started = Date.now();
  const summary = emptySummary(source, options);
  const isUrl = /^https?:\/\//i.test(source);
  const fetcher = await NewsFetcher.create(env, { ...options.fetcher, trustedUrl: isUrl ? source : undefined });
  let feed: ParsedFeed;
  if (isUrl) {
    const url = canonicalUrl(source) ?? source;
    const response = await fetcher.feed(url);
    if (response === "not_modified") throw new Error(`the feed answered 304 Not Modified to an unconditional request: ${url}`);
    feed = parseFeed(response.body, { feedUrl: response.url, contentType: response.contentTypeHeader });
  } else {
    const path = source.startsWith("file://") ? new URL(source) : source;
    feed = parseFeed(await fs.readFile(path));
  }
  summary.seconds = (Date.now() - started) / 1000;
  return ingestParsedFeed(db, env, feed, fetcher, summary, options);
}
