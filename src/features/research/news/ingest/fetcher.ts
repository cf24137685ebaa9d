/**
 * Fetching for the news ingest, through the extraction crawler's HTTP client (http-client.ts: size cap, connect
 * and read timeouts, bounded redirects, the private-address guard, the User-Agent) and its robots.txt reading
 * (robots.ts, once per origin per ingest run). Trust: a feed the operator registered or named on the command line
 * may live on a private host (an intranet, a local test server); its own host's addresses are let through for the
 * feed and for the items on that same host. Any other private address stays refused unless
 * EXTRACTION_ALLOW_PRIVATE_HOSTS=true. Requests to one host take turns (a scheduler of the news ingest's own,
 * NEWS_HOST_DELAY_MS between two, a robots.txt Crawl-delay raising it).
 */
import dns from "node:dns";
import type { Env } from "../../../../config/env";
import { crawlOptions } from "../../extraction/pipeline";
import { FetchError, HostScheduler, HttpClient, type FetchedResponse, type HttpLimits } from "../../extraction/http-client";
import { isIPAddress } from "../../extraction/address-guard";
import { fetchRobots, type RobotsRules } from "../../extraction/robots";

/** One scheduler per process for the news ingest: two feeds of one outlet polled at once still take turns per host. */
const NEWS_HOSTS = new HostScheduler();

export type PageOutcome =
  { ok: true; url: string; html: Buffer; contentTypeHeader: string } | { ok: false; status: string; message: string };

export interface NewsFetcherOptions {
  /** The feed's own URL (registered or given on the command line): its host's addresses are trusted. */
  trustedUrl?: string;
  /** Tests: the client's lookup and exact extra addresses (as the extraction tests pass them). */
  http?: ConstructorParameters<typeof HttpClient>[2];
}

export function newsHttpLimits(env: Env): HttpLimits {
  return { ...crawlOptions(env).http, hostDelayMs: env.NEWS_HOST_DELAY_MS };
}

/** Why a page was not read, as `articles.fetch_status` says it. */
export function fetchStatusOf(error: unknown): string {
  if (!(error instanceof FetchError)) return "error";
  if (error.kind === "http_status") return `http_${error.status ?? 0}`;
  if (error.kind === "content_type") return "not_html";
  return error.kind;
}

export class NewsFetcher {
  private readonly guarded: HttpClient;
  private trusted: HttpClient | null = null;
  private trustedHost: string | null = null;
  private readonly robots = new Map<string, Promise<RobotsRules>>();

  private constructor(
    private readonly limits: HttpLimits,
    private readonly options: NewsFetcherOptions,
  ) {
    this.guarded = new HttpClient(limits, NEWS_HOSTS, options.http);
  }

  static async create(env: Env, options: NewsFetcherOptions = {}): Promise<NewsFetcher> {
    const fetcher = new NewsFetcher(newsHttpLimits(env), options);
    if (options.trustedUrl) await fetcher.trust(options.trustedUrl);
    return fetcher;
  }

  /** Requests made by both clients, in order (tests). */
  get requested(): string[] {
    return [...this.guarded.requested, ...(this.trusted?.requested ?? [])];
  }

  private async trust(url: string): Promise<void> {
    let host: string;
    try {
      host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
    } catch {
      return;
    }
    let addresses: string[];
    if (isIPAddress(host)) addresses = [host];
    else
      try {
        addresses = (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
      } catch {
        addresses = [];
      }
    const allow = [...(this.options.http?.allowAddresses ?? []), ...addresses];
    this.trusted = new HttpClient(this.limits, NEWS_HOSTS, { ...this.options.http, allowAddresses: allow });
    this.trustedHost = host;
  }

  private clientFor(url: string): HttpClient {
    try {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
      if (this.trusted && host === this.trustedHost) return this.trusted;
    } catch {
      /* the guarded client refuses it */
    }
    return this.guarded;
  }

  /** The feed itself (no robots.txt check: the operator asked for this feed), conditionally when etag / last-modified are known. */
  async feed(
    url: string,
    conditional: { etag?: string | null; lastModified?: string | null } = {},
  ): Promise<FetchedResponse | "not_modified"> {
    const headers: Record<string, string> = {
      accept: "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1",
    };
    if (conditional.etag) headers["if-none-match"] = conditional.etag;
    if (conditional.lastModified) headers["if-modified-since"] = conditional.lastModified;
    try {
      return await this.clientFor(url).get(url, { headers });
    } catch (error) {
      if (error instanceof FetchError && error.kind === "http_status" && error.status === 304) return "not_modified";
      throw error;
    }
  }

  private rulesOf(origin: string): Promise<RobotsRules> {
    let rules = this.robots.get(origin);
    if (!rules) {
      rules = fetchRobots(this.clientFor(origin), origin);
      this.robots.set(origin, rules);
    }
    return rules;
  }

  /** An item's page: robots.txt of its origin (and of every redirect target's), HTML only. Never throws for a fetch problem. */
  async page(url: string): Promise<PageOutcome> {
    let target = url;
    for (let hop = 0; hop < 3; hop += 1) {
      let origin: string;
      try {
        origin = new URL(target).origin;
      } catch {
        return { ok: false, status: "bad_url", message: `not a URL: ${target}` };
      }
      const rules = await this.rulesOf(origin);
      // robots.txt not answered at all (refused address, no connection, timeout): that is why the page is not read.
      if (rules.state === "unreachable" && rules.error && rules.error.kind !== "http_status")
        return { ok: false, status: fetchStatusOf(rules.error), message: rules.error.message };
      if (!rules.allowed(target))
        return {
          ok: false,
          status: "robots",
          message:
            rules.state === "unreachable" ? `robots.txt of ${origin} unreachable: treated as disallowed` : `robots.txt disallows ${target}`,
        };
      // A redirect to another origin is checked against that origin's robots.txt once it is loaded.
      let pending: string | null = null;
      const allowed = (next: string) => {
        const nextOrigin = new URL(next).origin;
        if (nextOrigin === origin) return rules.allowed(next);
        pending = next;
        return false;
      };
      try {
        const response = await this.clientFor(target).get(target, {
          accept: (type) => type === "text/html" || type === "application/xhtml+xml" || type === "",
          allowed,
          hostDelayMs: rules.crawlDelayMs,
        });
        return { ok: true, url: response.url, html: response.body, contentTypeHeader: response.contentTypeHeader };
      } catch (error) {
        if (error instanceof FetchError && error.kind === "robots" && pending) {
          target = pending;
          continue;
        }
        return { ok: false, status: fetchStatusOf(error), message: (error as Error).message };
      }
    }
    return { ok: false, status: "too_many_redirects", message: `redirects across too many origins from ${url}` };
  }
}
