/**
 * Article URLs as the feed stores them (docs/signals.md, "Sources and ingest"): the canonical URL an article is
 * deduplicated by, and its domain.
 */

/** Query parameters that only track a click (campaign, referrer, session), never name a different page. */
const TRACKING =
  /^(utm_[a-z_]*|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|yclid|igshid|_ga|_gl|_hsenc|_hsmi|ocid|cmpid|cmp|ref_src|ref_url|smid|sr_share|rss|rssfeed|s_cid|ito|at_medium|at_campaign|__twitter_impression)$/i;

/** An http(s) URL without fragment and tracking parameters, host lowercased (URL does it), or null. */
export function canonicalUrl(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  url.username = "";
  url.password = "";
  const kept = [...url.searchParams].filter(([name]) => !TRACKING.test(name));
  url.search = "";
  for (const [name, value] of kept) url.searchParams.append(name, value);
  return url.toString();
}

/** The host without `www.` (and without the port), lowercase. */
export function domainOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

/**
 * The page's `<link rel=canonical>` when it can be trusted for deduplication: an http(s) URL on the same site
 * (host with or without `www.`) as the page, and not the site's home page standing for an article (a common
 * template mistake). Else null, and the item's own link is the article's URL.
 */
export function acceptCanonical(declared: string | null | undefined, pageUrl: string): string | null {
  if (!declared) return null;
  const canonical = canonicalUrl(declared, pageUrl);
  if (!canonical) return null;
  const page = new URL(pageUrl);
  const target = new URL(canonical);
  if (domainOf(canonical) !== domainOf(pageUrl)) return null;
  if ((target.pathname === "/" || target.pathname === "") && page.pathname !== "/") return null;
  return canonical;
}
