/**
 * The extraction pipeline of one district or school (docs/extraction.md): map -> fetch -> extract ->
 * summarize -> store. One code path for the `unlock.extract` job and `edmarket extract`.
 *
 * Every run has its `extraction_runs` row from the start (`running`) to the end (`completed` or `error`
 * with the reason). An entity that serves an earlier extraction (`completed`) keeps serving it, untouched,
 * while a re-run is in flight and after it failed: its catalogue row changes only when a new extraction is
 * stored (issue 20 point 8: one organization's re-extraction must not make the data unbuyable for the
 * others). An entity without one shows the run's progress: `processing` (with last_analysis_job_id and
 * retry_count) at the start, `website_mapped_at` after the map, `content_fetched_at` after the fetch,
 * `content_extracted_at` after the extractors, `summary_generated_at` after the summary, and `error` with
 * `error_message` when it fails. The rows, `crawled_at` and `completed` are committed together at the end.
 * A failed run throws (the job retries with backoff; after the last retry the hold is released). Pages
 * that fail inside a site that answers are recorded in the run's `errors` and do not fail it.
 */
import crypto from "node:crypto";
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { logger } from "../../../logger";
import { ExtractiveTextGenerator } from "../text-generation/extractive.provider";
import { textGeneratorFromEnv, type TextGenerator } from "../text-generation/text-generation";
import { SiteCrawler, scoreLink, siteRoot, type CrawlError, type CrawlOptions, type SiteDocument } from "./crawl";
import { runExtractors, type Extraction, type ExtractionSubject } from "./extractors";
import { EXTRACTION_SOURCE, storeExtraction } from "./extraction.store";
import { readEntity } from "./extraction.entity";
import type { HttpClient } from "./http-client";
import { publishSiteNews } from "./site-news";

export interface PipelineOptions {
  env: Env;
  /** The job (or CLI run) id, written to last_analysis_job_id and the run row. */
  jobId?: string | null;
  /** Retries already made (written to retry_count). */
  retryCount?: number;
  /** Crawl this root instead of the entity's website_url (CLI --url). */
  rootUrl?: string;
  textGenerator?: TextGenerator;
  /** Tests and the bench pass their own client (to count requests). */
  client?: HttpClient;
}

export interface ExtractionSummary {
  entity_type: "district" | "school";
  entity_id: string;
  name: string;
  root_url: string | null;
  status: "completed" | "error";
  job_id: string;
  pages_fetched: number;
  requests: number;
  bytes: number;
  sitemap_urls: number;
  skipped: { robots: number; off_site: number; content_type: number; duplicate: number };
  counts: Record<string, number>;
  text_provider: string | null;
  errors: CrawlError[];
  error: string | null;
  timings_ms: Record<string, number>;
  started_at: string;
  finished_at: string;
}

export class NoWebsiteError extends Error {}

export function crawlOptions(env: Env): CrawlOptions {
  return {
    maxPages: env.EXTRACTION_MAX_PAGES,
    maxDepth: env.EXTRACTION_MAX_DEPTH,
    maxSitemapUrls: env.EXTRACTION_MAX_SITEMAP_URLS,
    siteBudgetMs: env.EXTRACTION_SITE_BUDGET_SECONDS * 1000,
    http: {
      userAgent: env.EXTRACTION_USER_AGENT,
      maxBytes: env.EXTRACTION_MAX_BYTES,
      connectTimeoutMs: env.EXTRACTION_CONNECT_TIMEOUT_MS,
      readTimeoutMs: env.EXTRACTION_READ_TIMEOUT_MS,
      maxRedirects: env.EXTRACTION_MAX_REDIRECTS,
      hostDelayMs: env.EXTRACTION_HOST_DELAY_MS,
      allowPrivateHosts: env.EXTRACTION_ALLOW_PRIVATE_HOSTS === "true",
    },
  };
}

const counts = (x: Extraction | null): Record<string, number> => ({
  contacts: x?.contacts.length ?? 0,
  vendors: x?.vendors.length ?? 0,
  pain_points: x?.painPoints.length ?? 0,
  funding: x?.funding.length ?? 0,
  contracts: x?.contracts.length ?? 0,
  bids: x?.bids.length ?? 0,
  timeline_events: x?.events.length ?? 0,
  strategic_priorities: x?.priorities.length ?? 0,
  meeting_minutes_pdfs: x?.minutes.length ?? 0,
});

export async function runExtractionPipeline(
  db: Db,
  kind: "district" | "school",
  id: string,
  options: PipelineOptions,
): Promise<ExtractionSummary> {
  const entity = await readEntity(db, kind, id);
  if (!entity) throw new Error(`${kind} ${id} no longer exists`);
  const { subject } = entity;
  const jobId = options.jobId ?? crypto.randomUUID();
  const startedAt = new Date();
  const timings: Record<string, number> = {};
  // An entity serving an earlier extraction is written only by the store of a new one.
  const serving = entity.status === "completed";
  const progress = (data: Record<string, unknown>) => (serving ? Promise.resolve() : updateEntity(db, kind, id, data));
  const mark = async (stage: string, from: number, data: Record<string, unknown>) => {
    timings[stage] = Date.now() - from;
    await progress(data);
  };
  let crawler: SiteCrawler | null = null;
  let extraction: Extraction | null = null;
  let provider: string | null = null;
  let root: string | null = null;
  let newsArticles = 0;
  const summaryOf = (status: "completed" | "error", error: string | null): ExtractionSummary => ({
    entity_type: kind,
    entity_id: id,
    name: subject.name,
    root_url: root,
    status,
    job_id: jobId,
    pages_fetched: crawler?.pagesFetched ?? 0,
    requests: crawler?.client.requested.length ?? 0,
    bytes: crawler?.bytes ?? 0,
    sitemap_urls: crawler?.sitemapUrls ?? 0,
    skipped: {
      robots: crawler?.skipped.robots ?? 0,
      off_site: crawler?.skipped.offSite ?? 0,
      content_type: crawler?.skipped.contentType ?? 0,
      duplicate: crawler?.skipped.duplicate ?? 0,
    },
    counts: { ...counts(extraction), news_articles: newsArticles },
    text_provider: provider,
    errors: crawler?.errors ?? [],
    error,
    timings_ms: timings,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
  });

  // A run of this job still "running" is an earlier attempt whose worker died (pg-boss retries a job only then, or after
  // a throw that ended its run): it ended there, and says so instead of running forever.
  if (options.jobId)
    await db.prisma.extractionRun.updateMany({
      where: { entity_type: kind, entity_id: id, job_id: options.jobId, status: "running" },
      data: { status: "error", error_message: "the worker running this attempt stopped before it finished", finished_at: new Date() },
    });
  const run = await db.prisma.extractionRun.create({
    data: { entity_type: kind, entity_id: id, job_id: options.jobId ?? null, status: "running", started_at: startedAt },
    select: { id: true },
  });
  await progress({
    status: "processing",
    last_analysis_job_id: jobId,
    retry_count: options.retryCount ?? 0,
    error_message: null,
  });
  try {
    const website = options.rootUrl ?? entity.websiteUrl;
    if (!website) throw new NoWebsiteError(`${kind} has no website_url to crawl`);
    try {
      root = siteRoot(website);
    } catch {
      throw new NoWebsiteError(`website_url is not a URL: ${website}`);
    }
    crawler = new SiteCrawler(root, crawlOptions(options.env), options.client);

    let t = Date.now();
    await crawler.map();
    const websiteMappedAt = new Date();
    await mark("map", t, { website_mapped_at: websiteMappedAt });

    t = Date.now();
    await crawler.fetchPages();
    const contentFetchedAt = new Date();
    await mark("fetch", t, { content_fetched_at: contentFetchedAt });

    t = Date.now();
    const now = new Date();
    extraction = runExtractors({ subject, documents: crawler.documents, now });
    const contentExtractedAt = new Date();
    await mark("extract", t, { content_extracted_at: contentExtractedAt });

    t = Date.now();
    const generator = options.textGenerator ?? textGeneratorFromEnv(options.env);
    const summary = await summarize(generator, subject, crawler.documents, extraction).catch(async (error: Error) => {
      // A language model that fails does not fail the extraction: the extractive summary stands in.
      crawler!.errors.push({ url: options.env.TEXT_GENERATION_BASE_URL ?? "", kind: "text_generation", message: error.message });
      return summarize(new ExtractiveTextGenerator(), subject, crawler!.documents, extraction!);
    });
    provider = summary.provider;
    const summaryGeneratedAt = new Date();
    await mark("summarize", t, { summary_generated_at: summaryGeneratedAt });

    // The district's press releases and news posts become articles of the news feed (site-news.ts).
    const districtId = kind === "district" ? id : entity.parentDistrictId;
    if (districtId)
      try {
        const published = await publishSiteNews(db, {
          env: options.env,
          districtId,
          dataSource: EXTRACTION_SOURCE,
          documents: crawler.documents,
        });
        newsArticles = published?.articles ?? 0;
      } catch (error) {
        crawler.errors.push({ url: root, kind: "site_news", message: (error as Error).message.slice(0, 500) });
      }

    t = Date.now();
    const done = summaryOf("completed", null);
    await storeExtraction(db, {
      subject,
      parentDistrictId: entity.parentDistrictId,
      extraction,
      summary: summary.text,
      now,
      stages: { websiteMappedAt, contentFetchedAt, contentExtractedAt, summaryGeneratedAt },
      run: { id: run.id, data: runRow(done) },
      jobId,
      retryCount: options.retryCount ?? 0,
    });
    timings.store = Date.now() - t;
    const result = summaryOf("completed", null);
    logger.info("extraction completed", {
      entity_type: kind,
      entity_id: id,
      pages: result.pages_fetched,
      errors: result.errors.length,
      counts: result.counts,
    });
    return result;
  } catch (error) {
    const message = `${(error as Error).message}`.slice(0, 500);
    const failed = summaryOf("error", message);
    await progress({ status: "error", error_message: message, crawled_at: new Date() }).catch(() => undefined);
    await db.prisma.extractionRun
      .update({ where: { id: run.id }, data: { ...runRow(failed), status: "error", error_message: message }, select: { id: true } })
      .catch(() => undefined);
    logger.warn("extraction failed", { entity_type: kind, entity_id: id, serving, error: message });
    throw Object.assign(error as Error, { summary: failed });
  }
}

function runRow(summary: ExtractionSummary) {
  return {
    root_url: summary.root_url,
    pages_fetched: summary.pages_fetched,
    requests: summary.requests,
    bytes: summary.bytes,
    counts: summary.counts,
    errors: summary.errors as never,
    text_provider: summary.text_provider,
    finished_at: new Date(),
  };
}

async function updateEntity(db: Db, kind: "district" | "school", id: string, data: Record<string, unknown>): Promise<void> {
  if (kind === "district") await db.prisma.district.update({ where: { id }, data, select: { id: true } });
  else await db.prisma.school.update({ where: { id }, data, select: { id: true } });
}

/** Stage 4: the summary, from the site's most telling pages and the extracted facts. */
async function summarize(generator: TextGenerator, subject: ExtractionSubject, documents: readonly SiteDocument[], x: Extraction) {
  const facts: string[] = [];
  if (x.priorities.length) facts.push(`strategic priorities: ${x.priorities.join(", ")}`);
  if (x.vendors.length) facts.push(`vendors named on the site: ${x.vendors.map((v) => v.name).join(", ")}`);
  if (x.contacts.length) facts.push(`${x.contacts.length} staff contacts listed`);
  const open = x.bids.filter((b) => b.deadlineAt && b.deadlineAt.getTime() > Date.now());
  if (open.length) facts.push(`open bids: ${open.map((b) => b.title).join(", ")}`);
  if (x.minutes.length) facts.push(`${x.minutes.length} board minutes documents`);
  const sources = [...documents]
    .sort((a, b) => (a.depth === 0 ? -1 : b.depth === 0 ? 1 : scoreLink(b.url, b.anchorText) - scoreLink(a.url, a.anchorText)))
    .slice(0, 8)
    .map((d) => ({ url: d.url, title: d.title, text: d.text }));
  const kindLabel = subject.kind === "district" ? "school district" : "school";
  return generator.generate({
    task: "entity_summary",
    subject: `${subject.name}${subject.state ? `, ${subject.state}` : ""} (${kindLabel})`,
    subjectTerms: subject.name.split(/\s+/).filter((w) => !/^(public|schools?|district|county|unified|independent|the|of)$/i.test(w)),
    facts,
    sources,
    maxWords: 150,
  });
}
