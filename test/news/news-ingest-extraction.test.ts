/**
 * A district's own news pages found by the extraction pipeline become articles (extraction/site-news.ts, the news
 * ingest's storeSiteNews as the sink): origin "extraction", origin_district_id, data_source "extraction", the
 * page's main text; a re-run changes nothing; without a sink nothing is published. The crawl is the extraction
 * tests' cedar-ridge fixture site.
 */
import { loadEnv } from "../../src/config/env";
import { runExtractionPipeline } from "../../src/features/research/extraction/pipeline";
import { newsPages, useSiteNewsSink } from "../../src/features/research/extraction/site-news";
import { storeSiteNews } from "../../src/features/research/news/ingest/site-news";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "../extraction/support/fixture-server";

const env = loadEnv({ LOG_LEVEL: "silent", ...EXTRACTION_TEST_ENV });

describe("press releases and news pages of a district's site", () => {
  let db: TestDb;
  let site: FixtureSite;
  const analyzed: string[] = [];

  beforeAll(async () => {
    db = await createTestDb();
    site = await serveFixtureSite("cedar-ridge");
    useSiteNewsSink((database, input) =>
      storeSiteNews(database, input, async (d, id) => {
        analyzed.push(id);
        await d.query(`UPDATE articles SET analyzed_at = now() WHERE id = $1`, [id]);
        return { signals: 0 };
      }),
    );
  });
  afterAll(async () => {
    useSiteNewsSink(undefined);
    await site?.close();
    await db?.close();
  });

  it("stores the dated news page of the crawl as an article of the district, once", async () => {
    const id = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${site.origin}/` });
    const summary = await runExtractionPipeline(db, "district", id, { env });
    expect(summary.status).toBe("completed");
    expect(summary.counts.news_articles).toBe(1);
    const articles = await db.query<Record<string, unknown>>(
      `SELECT url, title, domain, origin, origin_district_id::text AS district, data_source, text_source, fetch_status, published_at, text FROM articles`,
    );
    expect(articles).toEqual([
      expect.objectContaining({
        url: `${site.origin}/news/bond-and-grants.html`,
        title: "Voters approve bond; district wins literacy grant",
        domain: "127.0.0.1",
        origin: "extraction",
        district: id,
        data_source: "extraction",
        text_source: "page",
        fetch_status: "ok",
        published_at: new Date("2026-10-20T00:00:00Z"),
      }),
    ]);
    const text = articles[0]!.text as string;
    expect(text).toMatch(/Cedar Ridge voters approved a \$48\.5 million bond referendum/);
    expect(text).toMatch(/substitute teacher shortage this fall\.$/);
    expect(text).not.toMatch(/^Home/);
    expect(analyzed).toHaveLength(1);

    // A re-extraction finds the same page: unchanged, not analysed again.
    const again = await runExtractionPipeline(db, "district", id, { env });
    expect(again.counts.news_articles).toBe(1);
    expect(analyzed).toHaveLength(1);
    expect(await db.query(`SELECT count(*)::int AS n FROM articles`)).toEqual([{ n: 1 }]);
  }, 120_000);

  it("classifies only dated HTML pages below the root with a news-like path, title or <article> as news", () => {
    const page = (url: string, publishedAt: string | null, depth = 1, title = "Page", article = false) => ({
      url,
      kind: "html" as const,
      title,
      text: "",
      links: [],
      depth,
      anchorText: "",
      bytes: 0,
      page: { publishedAt, $: ((selector: string) => ({ length: article && selector === "article" ? 1 : 0 })) as never } as never,
    });
    const pages = [
      page("http://d.test/news/a.html", "2026-10-01"),
      page("http://d.test/press-releases/b", "2026-10-01"),
      page("http://d.test/board/minutes", "2026-10-01"),
      page("http://d.test/about", "2026-10-01", 1, "About", true),
      page("http://d.test/news/undated", null),
      page("http://d.test/", "2026-10-01", 0, "News"),
    ];
    expect(newsPages(pages).map((p) => p.url)).toEqual([
      "http://d.test/news/a.html",
      "http://d.test/press-releases/b",
      "http://d.test/about",
    ]);
  });

  it("publishes nothing without a sink", async () => {
    useSiteNewsSink(undefined);
    await db.query(`DELETE FROM articles`);
    const id = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${site.origin}/` });
    const summary = await runExtractionPipeline(db, "district", id, { env });
    expect(summary.counts.news_articles).toBe(0);
    expect(await db.query(`SELECT count(*)::int AS n FROM articles`)).toEqual([{ n: 0 }]);
  }, 120_000);
});
