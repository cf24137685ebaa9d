/**
 * The extraction pipeline's sink for a district's news pages (extraction/site-news.ts): each page's main text
 * (main-text.ts, over the crawled HTML) becomes an article with origin "extraction", origin_district_id and the
 * pipeline's data_source, upserted by its canonical URL like any other article and analysed when new or changed.
 */
import type { Db } from "../../../../db/client";
import type { SiteNewsInput, SiteNewsResult } from "../../extraction/site-news";
import { parseFeedDate } from "./dates";
import { analyzeArticle, analyzeSafely, emptySummary, MIN_PAGE_TEXT, storeDraft, type Analyze } from "./ingest";
import { extractMainText } from "./main-text";
import { acceptCanonical, canonicalUrl } from "./urls";

export async function storeSiteNews(db: Db, input: SiteNewsInput, analyze: Analyze = analyzeArticle): Promise<SiteNewsResult> {
  const result: SiteNewsResult = { articles: 0, new: 0, updated: 0 };
  const summary = emptySummary(`district:${input.districtId}`, { origin: "extraction" });
  for (const page of input.pages) {
    const html = page.page?.$.html();
    const url = canonicalUrl(page.url);
    if (!html || !url) continue;
    const main = extractMainText(html);
    if (main.text.length < MIN_PAGE_TEXT) continue;
    const stored = await storeDraft(
      db,
      {
        url: acceptCanonical(main.canonical, page.url) ?? url,
        title: page.title || main.title || url,
        author: main.author?.slice(0, 200) ?? null,
        description: main.description,
        publishedAt: parseFeedDate(main.publishedAt) ?? parseFeedDate(page.page?.publishedAt ?? null),
        text: main.text,
        textSource: "page",
        fetchStatus: "ok",
      },
      { origin: "extraction", originDistrictId: input.districtId, dataSource: input.dataSource },
    );
    result.articles += 1;
    if (stored.outcome === "new") result.new += 1;
    if (stored.outcome === "updated") result.updated += 1;
    if (stored.analyze) await analyzeSafely(db, stored.id, analyze, summary, url);
  }
  return result;
}
