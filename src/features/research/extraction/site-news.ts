/**
 * A district's own news: the press releases and news posts the crawl found on its site become articles of the
 * news feed (origin "extraction", origin_district_id the district: a school's pages count for its district).
 * A news page is what extractEvents files as a `news` event: an HTML page below the root with a publication
 * date (`<time datetime>` or article:published_time), here also with a news-like URL, link text or title, or an
 * `<article>` element. The extraction feature does not store articles itself (the news feature depends on it,
 * not the other way round): the composition root hands it the news ingest as its sink (useSiteNewsSink,
 * src/compose-jobs.ts and the CLI); without one, nothing is published.
 */
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import type { SiteDocument } from "./crawl";

export interface SiteNewsInput {
  env: Env;
  districtId: string;
  /** The pipeline's data_source (extraction.store.ts EXTRACTION_SOURCE). */
  dataSource: string;
  pages: readonly SiteDocument[];
}

export interface SiteNewsResult {
  articles: number;
  new: number;
  updated: number;
}

export type SiteNewsSink = (db: Db, input: SiteNewsInput) => Promise<SiteNewsResult>;

let sink: SiteNewsSink | undefined;

/** Sets where a district's news pages go (the composition root passes the news ingest's storeSiteNews). */
export function useSiteNewsSink(next: SiteNewsSink | undefined): void {
  sink = next;
}

const NEWS_LIKE = /news|press|release|announce|stories|story|blog|updates?\b|spotlight|headlines/i;

/** The crawled pages that are news posts or press releases. */
export function newsPages(documents: readonly SiteDocument[]): SiteDocument[] {
  return documents.filter((doc) => {
    if (doc.kind !== "html" || doc.depth === 0 || !doc.page?.publishedAt) return false;
    let path = doc.url;
    try {
      path = new URL(doc.url).pathname;
    } catch {
      /* the raw URL */
    }
    return NEWS_LIKE.test(`${path} ${doc.anchorText} ${doc.title}`) || doc.page.$("article").length > 0;
  });
}

/** Hands the district's news pages to the sink; null when there is no sink or nothing to publish. */
export async function publishSiteNews(
  db: Db,
  input: Omit<SiteNewsInput, "pages"> & { documents: readonly SiteDocument[] },
): Promise<SiteNewsResult | null> {
  const pages = newsPages(input.documents);
  if (!sink || pages.length === 0) return null;
  return sink(db, { env: input.env, districtId: input.districtId, dataSource: input.dataSource, pages });
}
