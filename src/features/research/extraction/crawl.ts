/**
 * Stages 1 and 2 of the pipeline: map the site, then fetch its pages.
 *
 * map:   robots.txt of the site's origin (unreachable: the site fails), its sitemaps (robots.txt
 *        `Sitemap:` lines, else /sitemap.xml; one level of sitemap index), then the root page. A root
 *        page that cannot be fetched fails the site.
 * fetch: candidates from links and sitemaps, best first (URL path and link text scored for staff
 *        directories, board minutes, bids and plans), up to EXTRACTION_MAX_PAGES requests and
 *        EXTRACTION_MAX_DEPTH links deep, within EXTRACTION_SITE_BUDGET_SECONDS. Only the site's own
 *        host (with or without `www.`), only HTML and PDF. A page that fails (timeout, too large,
 *        redirect loop, HTTP error, broken PDF) is recorded in `errors`; the crawl goes on.
 */
import crypto from "node:crypto";
import { FetchError, HttpClient, type HttpLimits } from "./http-client";
import { decodeHtml, parseHtml, type HtmlPage, type Link } from "./html";
import { pdfToText } from "./pdf";
import { fetchRobots, type RobotsRules } from "./robots";
import { parseSitemap } from "./sitemap";

export interface CrawlOptions {
  maxPages: number;
  maxDepth: number;
  maxSitemapUrls: number;
  siteBudgetMs: number;
  http: HttpLimits;
}

export interface SiteDocument {
  url: string;
  kind: "html" | "pdf";
  title: string;
  text: string;
  links: Link[];
  depth: number;
  /** The text of the first link that led here ("" for the root and sitemap URLs). */
  anchorText: string;
  bytes: number;
  /** HTML only: the parsed page (extractors read its structure). */
  page?: HtmlPage;
  /** PDF only: text per page. */
  pdfPages?: string[];
}

export interface CrawlError {
  url: string;
  kind: string;
  message: string;
}

export class SiteUnreachableError extends Error {}

interface Candidate {
  url: string;
  depth: number;
  anchorText: string;
  score: number;
}

const SKIPPED_EXTENSIONS =
  /\.(jpe?g|png|gif|svg|webp|bmp|ico|tiff?|css|js|mjs|json|zip|gz|tgz|rar|7z|mp3|mp4|m4a|mov|avi|wmv|webm|doc|docx|xls|xlsx|ppt|pptx|odt|ods|ics|rss|atom|xml|txt|csv|woff2?|ttf|eot|exe|dmg)$/i;

/** What a page's URL and link text say about its worth for the extractors. */
const SIGNALS: [RegExp, number][] = [
  [
    /staff|directory|administration|administrators|leadership|cabinet|superintendent|contact|departments?|personnel|our-team|principal|office/i,
    10,
  ],
  [/board|minutes|agenda|meetings?/i, 9],
  [/\brfps?\b|\bbids?\b|procurement|purchasing|solicitations?|proposals?|rfq/i, 9],
  [/technology|strategic|plan|goals|priorities|budget|finance|business|grants?|esser|title-?i\b|bond|e-?rate/i, 6],
  [/news|press|announcements?/i, 3],
  [/about/i, 2],
];

export function scoreLink(url: string, text: string): number {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    /* scored on the raw string */
  }
  const subject = `${path} ${text}`;
  return SIGNALS.reduce((sum, [re, weight]) => (re.test(subject) ? sum + weight : sum), 0);
}

/** A website_url as a crawlable root (`www.x.org` has no scheme in the federal files). */
export function siteRoot(websiteUrl: string): string {
  const trimmed = websiteUrl.trim();
  const url = new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
  url.hash = "";
  return url.toString();
}

/** host[:port] without a leading www. */
const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, "");

export class SiteCrawler {
  readonly client: HttpClient;
  readonly documents: SiteDocument[] = [];
  readonly errors: CrawlError[] = [];
  readonly skipped = { robots: 0, offSite: 0, contentType: 0, duplicate: 0 };
  bytes = 0;
  attempts = 0;
  sitemapUrls = 0;
  private readonly robots = new Map<string, RobotsRules>();
  private readonly hosts = new Set<string>();
  private readonly frontier = new Map<string, Candidate>();
  private readonly visited = new Set<string>();
  /** Hashes of the bodies read: "/" and "/index.html" are one page. */
  private readonly bodies = new Set<string>();
  private readonly startedAt = Date.now();
  private pendingOrigin: string | null = null;

  constructor(
    readonly root: string,
    readonly options: CrawlOptions,
    client?: HttpClient,
  ) {
    this.client = client ?? new HttpClient(options.http);
    this.hosts.add(bareHost(new URL(root).host));
  }

  get pagesFetched(): number {
    return this.documents.length;
  }

  /** Stage 1: robots.txt, sitemaps and the root page. Throws SiteUnreachableError when the site is not there. */
  async map(): Promise<void> {
    const origin = new URL(this.root).origin;
    const rules = await this.robotsOf(origin);
    if (rules.state === "unreachable") {
      const error = rules.error!;
      throw new SiteUnreachableError(
        error.kind === "http_status"
          ? `robots.txt answered HTTP ${error.status}: the site is treated as disallowed (RFC 9309)`
          : `site unreachable: ${error.message}`,
      );
    }
    if (!rules.allowed(this.root)) throw new SiteUnreachableError(`robots.txt disallows the site root ${this.root}`);
    const root = await this.fetchDocument({ url: this.root, depth: 0, anchorText: "", score: 0 });
    if (!root) {
      const error = this.errors.at(-1);
      throw new SiteUnreachableError(`site root not fetched: ${error?.message ?? this.root}`);
    }
    await this.readSitemaps(rules);
  }

  /** Stage 2: the candidates, best first, within the page cap, depth and time budget. */
  async fetchPages(): Promise<void> {
    while (this.attempts < this.options.maxPages && Date.now() - this.startedAt < this.options.siteBudgetMs) {
      const next = this.takeBest();
      if (!next) break;
      await this.fetchDocument(next);
    }
  }

  get budgetSpent(): boolean {
    return Date.now() - this.startedAt >= this.options.siteBudgetMs;
  }

  private async robotsOf(origin: string): Promise<RobotsRules> {
    let rules = this.robots.get(origin);
    if (!rules) {
      rules = await fetchRobots(this.client, origin);
      this.robots.set(origin, rules);
    }
    return rules;
  }

  /** Whether a URL may be requested now (robots.txt of its origin loaded and allowing it). */
  private allowed = (url: string): boolean => {
    const origin = new URL(url).origin;
    const rules = this.robots.get(origin);
    if (!rules) {
      this.pendingOrigin = origin;
      return false;
    }
    return rules.allowed(url);
  };

  private isOnSite(url: string): boolean {
    try {
      const parsed = new URL(url);
      return (parsed.protocol === "http:" || parsed.protocol === "https:") && this.hosts.has(bareHost(parsed.host));
    } catch {
      return false;
    }
  }

  private enqueue(url: string, depth: number, anchorText: string): void {
    if (depth > this.options.maxDepth || this.visited.has(url)) return;
    if (!this.isOnSite(url)) {
      this.skipped.offSite += 1;
      return;
    }
    if (SKIPPED_EXTENSIONS.test(new URL(url).pathname)) return;
    const score = scoreLink(url, anchorText);
    const existing = this.frontier.get(url);
    if (existing) {
      if (score > existing.score) Object.assign(existing, { score, anchorText });
      if (depth < existing.depth) existing.depth = depth;
      return;
    }
    this.frontier.set(url, { url, depth, anchorText, score });
  }

  private takeBest(): Candidate | undefined {
    let best: Candidate | undefined;
    for (const c of this.frontier.values()) if (!best || c.score > best.score || (c.score === best.score && c.depth < best.depth)) best = c;
    if (best) this.frontier.delete(best.url);
    return best;
  }

  private async readSitemaps(rules: RobotsRules): Promise<void> {
    const listed = rules.sitemaps.length > 0;
    const queue = listed ? [...rules.sitemaps] : [`${new URL(this.root).origin}/sitemap.xml`];
    let indexes = 0;
    while (queue.length && this.sitemapUrls < this.options.maxSitemapUrls) {
      const url = queue.shift()!;
      if (!this.isOnSite(url) || !this.allowed(url)) continue;
      try {
        const response = await this.client.get(url, { allowed: this.allowed, hostDelayMs: this.delayFor(url) });
        this.bytes += response.body.length;
        const parsed = parseSitemap(response.body);
        if (indexes < 1) for (const child of parsed.sitemaps.slice(0, 20)) queue.push(child);
        if (parsed.sitemaps.length) indexes += 1;
        for (const page of parsed.urls) {
          if (this.sitemapUrls >= this.options.maxSitemapUrls) break;
          this.sitemapUrls += 1;
          this.enqueue(normalize(page), 1, "");
        }
      } catch (error) {
        // The default /sitemap.xml is optional: its absence is no error; a listed sitemap failing is.
        if (!(error instanceof FetchError)) throw error;
        if (listed || error.status !== 404) this.errors.push({ url, kind: `sitemap_${error.kind}`, message: error.message });
      }
    }
  }

  private delayFor(url: string): number | undefined {
    return this.robots.get(new URL(url).origin)?.crawlDelayMs;
  }

  /** Fetches and parses one candidate; records its error and returns null when it fails. */
  private async fetchDocument(candidate: Candidate): Promise<SiteDocument | null> {
    this.visited.add(candidate.url);
    const origin = new URL(candidate.url).origin;
    if (!this.robots.has(origin)) await this.robotsOf(origin);
    if (!this.allowed(candidate.url)) {
      this.skipped.robots += 1;
      return null;
    }
    this.attempts += 1;
    const accept = (type: string) =>
      type === "text/html" ||
      type === "application/xhtml+xml" ||
      type === "application/pdf" ||
      (type === "application/octet-stream" && /\.pdf$/i.test(candidate.url));
    let target = candidate.url;
    for (let tries = 0; ; tries += 1) {
      try {
        this.pendingOrigin = null;
        const response = await this.client.get(target, { accept, allowed: this.allowed, hostDelayMs: this.delayFor(target) });
        this.bytes += response.body.length;
        // A redirect to www. or https: the site is that host too.
        if (candidate.depth === 0) this.hosts.add(bareHost(new URL(response.url).host));
        this.visited.add(response.url);
        const digest = crypto.createHash("sha1").update(response.body).digest("hex");
        if (this.bodies.has(digest)) {
          this.skipped.duplicate += 1;
          return null;
        }
        this.bodies.add(digest);
        const isPdf = response.contentType === "application/pdf" || response.contentType === "application/octet-stream";
        const document = isPdf ? await this.pdfDocument(candidate, response.url, response.body) : this.htmlDocument(candidate, response);
        this.documents.push(document);
        if (document.kind === "html") for (const link of document.links) this.enqueue(normalize(link.url), candidate.depth + 1, link.text);
        return document;
      } catch (error) {
        // A redirect to an origin whose robots.txt is not loaded yet: load it, then follow the redirect.
        if (error instanceof FetchError && error.kind === "robots" && this.pendingOrigin && tries < 2) {
          const origin = this.pendingOrigin;
          await this.robotsOf(origin);
          const redirectedTo = /robots\.txt disallows (\S+)/.exec(error.message)?.[1];
          if (redirectedTo && this.allowed(redirectedTo)) {
            target = redirectedTo;
            continue;
          }
        }
        if (error instanceof FetchError && error.kind === "content_type") {
          this.skipped.contentType += 1;
          return null;
        }
        if (error instanceof FetchError && error.kind === "robots") {
          this.skipped.robots += 1;
          return null;
        }
        const kind = error instanceof FetchError ? error.kind : error instanceof PdfError ? "pdf" : "parse";
        this.errors.push({ url: candidate.url, kind, message: (error as Error).message });
        return null;
      }
    }
  }

  private htmlDocument(candidate: Candidate, response: { url: string; body: Buffer; contentTypeHeader: string }): SiteDocument {
    const page = parseHtml(decodeHtml(response.body, response.contentTypeHeader), response.url);
    return {
      url: response.url,
      kind: "html",
      title: page.title,
      text: page.text,
      links: page.links,
      depth: candidate.depth,
      anchorText: candidate.anchorText,
      bytes: response.body.length,
      page,
    };
  }

  private async pdfDocument(candidate: Candidate, url: string, body: Buffer): Promise<SiteDocument> {
    let pages: string[];
    try {
      pages = (await pdfToText(body)).pages;
    } catch (error) {
      throw new PdfError(`PDF text not extracted from ${url}: ${(error as Error).message}`);
    }
    const text = pages.map(reflow).join("\n\n");
    return {
      url,
      kind: "pdf",
      title:
        text
          .split("\n")
          .find((line) => line.trim().length > 3)
          ?.trim() ?? candidate.anchorText,
      text,
      links: [],
      depth: candidate.depth,
      anchorText: candidate.anchorText,
      bytes: body.length,
      pdfPages: pages,
    };
  }
}

class PdfError extends Error {}

/**
 * PDF lines are layout, not sentences: a line that does not end a sentence is joined to the next when
 * that one continues it (starts lower-case, with a digit, "$" or "(").
 */
export function reflow(text: string): string {
  return text.replace(/([^.!?:;\n])\n(?=[a-z0-9$(])/g, "$1 ");
}

function normalize(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    return parsed.toString();
  } catch {
    return url;
  }
}
