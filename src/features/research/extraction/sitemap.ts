/**
 * Sitemaps (sitemaps.org XML, plain or gzip): the URLs of `<urlset>`, and for a `<sitemapindex>` the
 * URLs of its child sitemaps (one level). Parsed with the same HTML/XML parser in XML mode.
 */
import zlib from "node:zlib";
import * as cheerio from "cheerio";

export interface ParsedSitemap {
  urls: string[];
  sitemaps: string[];
}

export function parseSitemap(body: Buffer): ParsedSitemap {
  const raw = body[0] === 0x1f && body[1] === 0x8b ? zlib.gunzipSync(body) : body;
  const $ = cheerio.load(raw.toString("utf8"), { xml: true });
  const locs = (selector: string) =>
    $(selector)
      .map((_, el) => $(el).text().trim())
      .get()
      .filter((loc) => /^https?:\/\//i.test(loc));
  return { urls: locs("urlset > url > loc"), sitemaps: locs("sitemapindex > sitemap > loc") };
}
