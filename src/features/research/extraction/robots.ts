/**
 * robots.txt per origin (RFC 9309, parsed by `robots-parser`): fetched once per crawl before any other
 * request to that origin. 2xx: its rules for our product token (else `*`); 4xx: no rules (everything
 * allowed); 5xx or no answer: the whole origin is treated as disallowed, as the RFC asks.
 */
import robotsParser from "robots-parser";
import { FetchError, type HttpClient } from "./http-client";

export interface RobotsRules {
  origin: string;
  /** Why the rules are what they are (fetched, absent, unreachable). */
  state: "fetched" | "absent" | "unreachable";
  allowed(url: string): boolean;
  /** robots.txt Crawl-delay in ms (capped at 30 s), when set for us. */
  crawlDelayMs?: number;
  sitemaps: string[];
  /** The error that made the origin unreachable. */
  error?: FetchError;
}

const MAX_CRAWL_DELAY_MS = 30_000;

export async function fetchRobots(client: HttpClient, origin: string): Promise<RobotsRules> {
  const url = `${origin}/robots.txt`;
  const agent = client.limits.userAgent;
  try {
    const response = await client.get(url, { accept: (type) => type === "" || type.startsWith("text/") });
    const rules = robotsParser(url, response.body.toString("utf8"));
    const delay = rules.getCrawlDelay(agent);
    return {
      origin,
      state: "fetched",
      // A URL of another origin is not governed by this file (isAllowed answers undefined).
      allowed: (target) => rules.isAllowed(target, agent) !== false,
      crawlDelayMs: delay === undefined ? undefined : Math.min(MAX_CRAWL_DELAY_MS, Math.max(0, delay * 1000)),
      sitemaps: rules.getSitemaps(),
    };
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    // A robots.txt served as HTML or another type, or a 4xx: no usable rules, so no restriction.
    const status = error.status ?? 0;
    if ((error.kind === "http_status" && status >= 400 && status < 500) || error.kind === "content_type")
      return { origin, state: "absent", allowed: () => true, sitemaps: [] };
    return { origin, state: "unreachable", allowed: () => false, sitemaps: [], error };
  }
}
