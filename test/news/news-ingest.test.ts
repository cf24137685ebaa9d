/**
 * The news ingest against a local news site (test/news/support/news-server.ts) on this file's database: pages
 * read with boilerplate dropped, the item's own text when the page cannot be read (robots.txt, 404, timeout,
 * oversized, not HTML, too little text, another private host), canonical deduplication, idempotent re-ingest,
 * re-analysis only of changed texts, articles kept when the analysis throws.
 */
import { loadEnv, type Env } from "../../src/config/env";
import { ingestFeedSource, type Analyze } from "../../src/features/research/news/ingest/ingest";
import { createTestDb, type TestDb } from "../support/db";
import { NEWS_TEST_ENV, serveNewsSite, type NewsSite } from "./support/news-server";

interface ArticleRow {
  url: string;
  title: string;
  domain: string;
  author: string | null;
  text: string | null;
  text_source: string;
  fetch_status: string;
  origin: string;
  published_at: Date | null;
  analyzed_at: Date | null;
}

describe("news ingest", () => {
  let db: TestDb;
  let site: NewsSite;
  let env: Env;
  const analyzed: string[] = [];
  const analyze: Analyze = async (database, id) => {
    analyzed.push(id);
    await database.query(`UPDATE articles SET analyzed_at = now() WHERE id = $1`, [id]);
    return { signals: 1 };
  };

  beforeAll(async () => {
    db = await createTestDb();
    site = await serveNewsSite();
    env = loadEnv({ ...process.env, ...NEWS_TEST_ENV, EXTRACTION_ALLOW_PRIVATE_HOSTS: "false" });
    const contract = "Teachers' contract approved";
    site.setPage(
      "dup-a",
      [
        "The district approved a new contract with its teachers' union on Tuesday night, ending months of talks.",
        "It raises pay 4 percent each year for three years and adds two planning days. ".repeat(3),
      ],
      { title: contract },
    );
    site.setPage(
      "dup-b",
      [
        "The district approved a new contract with its teachers' union on Tuesday night, ending months of talks.",
        "It raises pay 4 percent each year for three years and adds two planning days. ".repeat(3),
      ],
      {
        canonical: "/gen/dup-a",
        title: contract,
      },
    );
  });
  afterAll(async () => {
    await site?.close();
    await db?.close();
  });

  const articles = () => db.query<ArticleRow>(`SELECT * FROM articles ORDER BY url`);
  const byUrl = async (path: string) => (await articles()).find((a) => a.url === `${site.origin}${path}`);

  it("ingests every item: page text when readable, the item's own text with the reason when not", async () => {
    const summary = await ingestFeedSource(db, env, `${site.origin}/feeds/rss-quirks.xml`, { origin: "cli", analyze });
    expect(summary).toMatchObject({
      format: "rss",
      items: 11,
      duplicates_in_feed: 1,
      failed: 1,
      new: 9,
      unchanged: 1,
      updated: 0,
      signals: 9,
    });
    expect(summary.fetch_status).toEqual({
      ok: 3,
      robots: 1,
      http_404: 1,
      timeout: 1,
      too_large: 1,
      too_little_text: 1,
      not_html: 1,
      forbidden_address: 1,
    });
    expect(summary.problems).toEqual([{ url: "tag:gazette,2026:abc-123", problem: "the item has no link (nor a guid that is a URL)" }]);

    const rows = await articles();
    expect(rows).toHaveLength(9);
    expect(rows.every((r) => r.origin === "cli" && r.analyzed_at !== null)).toBe(true);

    // The page's canonical URL, its main text without navigation, share, related, cookie, comment or footer blocks.
    const bond = (await byUrl("/news/2026/11/springfield-bond-approved"))!;
    expect(bond).toMatchObject({
      text_source: "page",
      fetch_status: "ok",
      domain: "127.0.0.1",
      title: "Springfield voters approve $48 million school bond",
    });
    expect(bond.published_at?.toISOString()).toBe("2026-11-04T21:10:00.000Z");
    expect(bond.text).toMatch(/^SPRINGFIELD — Voters in the Springfield Public Schools district approved/);
    expect(bond.text).not.toMatch(/cookies|Subscribe|Share on|Related stories|taxpayer|All rights reserved/);

    const fallback = (path: string) => byUrl(path).then((r) => [r?.text_source, r?.fetch_status, r?.text]);
    expect(await fallback("/private/board-memo")).toEqual([
      "feed_item",
      "robots",
      "The board & its search firm named three finalists for superintendent of Lakeview Unified School District on Monday, according to a memo.",
    ]);
    expect(await fallback("/missing")).toEqual([
      "feed_item",
      "http_404",
      "The district released a request for proposals for classroom laptops, with responses due December 15.\nAbout 4,000 devices are covered.",
    ]);
    expect(await fallback("/slow")).toEqual([
      "feed_item",
      "timeout",
      "The county schools reported a shortage of 40 bus drivers this fall.",
    ]);
    expect(await fallback("/huge")).toEqual(["feed_item", "too_large", "The huge page story, told briefly by the feed."]);
    expect((await fallback("/thin")).slice(0, 2)).toEqual(["feed_item", "too_little_text"]);
    expect((await fallback("/doc.pdf")).slice(0, 2)).toEqual(["feed_item", "not_html"]);
    // The same server under another name is a private host the feed's trust does not cover: refused, never requested.
    const other = rows.find((r) => r.url.startsWith("http://localhost:"))!;
    expect([other.text_source, other.fetch_status]).toEqual(["feed_item", "forbidden_address"]);

    // robots.txt was honoured: the disallowed page was never requested.
    expect(site.requests).not.toContain("/private/board-memo");
    // dup-a and dup-b (whose canonical is dup-a) are one article.
    expect(rows.filter((r) => r.url.startsWith(`${site.origin}/gen/dup-`)).map((r) => r.url)).toEqual([`${site.origin}/gen/dup-a`]);
  }, 60_000);

  it("re-ingests idempotently: nothing new, nothing updated, no analysis, no known page fetched again (by its link or its canonical's)", async () => {
    analyzed.length = 0;
    const before = await articles();
    const requestsBefore = site.requests.length;
    const summary = await ingestFeedSource(db, env, `${site.origin}/feeds/rss-quirks.xml`, { origin: "cli", analyze });
    expect(summary).toMatchObject({ items: 11, new: 0, updated: 0, unchanged: 10, failed: 1, signals: 0 });
    expect(analyzed).toEqual([]);
    expect(await articles()).toEqual(before);
    const again = site.requests.slice(requestsBefore);
    expect(again).not.toContain("/gen/dup-a");
    // Items whose pages are stored under another URL (their canonical) are known by their links (article_links).
    expect(again).not.toContain("/gen/dup-b");
    expect(again).not.toContain("/bond-vote?id=7");
    // Known: the three pages read before (dup-a, and dup-b and bond-vote under their canonicals); the pages that could
    // not be read are tried again (their articles keep the item's own text unless the page now reads).
    expect(summary.fetch_status).toMatchObject({ known: 3 });
    const links = await db.query<{ url: string; article: string }>(
      `SELECT l.url, a.url AS article FROM article_links l JOIN articles a ON a.id = l.article_id ORDER BY l.url`,
    );
    expect(links.map((l) => [l.url.replace(site.origin, ""), l.article.replace(site.origin, "")])).toEqual(
      expect.arrayContaining([["/gen/dup-b", "/gen/dup-a"]]),
    );
    expect(links.every((l) => l.url !== l.article)).toBe(true);
  }, 60_000);

  it("updates and re-analyses an article only when its text changed", async () => {
    site.setFeed(
      "one.xml",
      `<rss><channel><title>one</title><item><title>Changing story</title><link>{{ORIGIN}}/gen/changing</link><description>short</description></item></channel></rss>`,
    );
    site.setPage("changing", ["First version of a story about the Lakeview school board and its budget vote. ".repeat(4)]);
    const first = await ingestFeedSource(db, env, `${site.origin}/feeds/one.xml`, { origin: "cli", analyze, refetchKnown: true });
    expect(first).toMatchObject({ new: 1, updated: 0 });
    analyzed.length = 0;
    const same = await ingestFeedSource(db, env, `${site.origin}/feeds/one.xml`, { origin: "cli", analyze, refetchKnown: true });
    expect(same).toMatchObject({ new: 0, updated: 0, unchanged: 1 });
    expect(analyzed).toEqual([]);
    site.setPage("changing", ["Second version: the Lakeview school board adopted a budget with a $3 million deficit. ".repeat(4)]);
    const changed = await ingestFeedSource(db, env, `${site.origin}/feeds/one.xml`, { origin: "cli", analyze, refetchKnown: true });
    expect(changed).toMatchObject({ new: 0, updated: 1, unchanged: 0, signals: 1 });
    expect(analyzed).toHaveLength(1);
    expect((await byUrl("/gen/changing"))!.text).toMatch(/^Second version/);
  }, 60_000);

  it("keeps the articles when the analysis throws (analyzed_at stays null) and analyses them on the next run", async () => {
    site.setFeed(
      "two.xml",
      `<rss><channel><title>two</title><item><title>Fragile</title><link>{{ORIGIN}}/gen/fragile</link></item></channel></rss>`,
    );
    site.setPage("fragile", [
      "A story the analysis cannot read yet, about Cedar Ridge Public Schools hiring a new superintendent. ".repeat(3),
    ]);
    const failing: Analyze = async () => {
      throw new Error("analysis unavailable");
    };
    const first = await ingestFeedSource(db, env, `${site.origin}/feeds/two.xml`, { origin: "cli", analyze: failing });
    expect(first).toMatchObject({ new: 1, analysis_failed: 1, signals: 0 });
    expect((await byUrl("/gen/fragile"))!.analyzed_at).toBeNull();
    analyzed.length = 0;
    const second = await ingestFeedSource(db, env, `${site.origin}/feeds/two.xml`, { origin: "cli", analyze });
    expect(second).toMatchObject({ new: 0, unchanged: 1, analysis_failed: 0, signals: 1 });
    expect(analyzed).toHaveLength(1);
    expect((await byUrl("/gen/fragile"))!.analyzed_at).not.toBeNull();
  }, 60_000);

  it("ingests an Atom feed; with EXTRACTION_ALLOW_PRIVATE_HOSTS=true other private hosts are read too", async () => {
    site.setPage("atom-one", [
      "Maple Grove Public Schools will add two new elementary schools as enrollment grows, the board said. ".repeat(3),
    ]);
    const summary = await ingestFeedSource(db, env, `${site.origin}/feeds/atom.xml`, { origin: "cli", analyze });
    expect(summary).toMatchObject({ format: "atom", items: 2, new: 2, failed: 0 });
    expect(await byUrl("/gen/atom-one")).toMatchObject({ text_source: "page", author: "Ada Reporter" });
    expect(await byUrl("/private/atom-two")).toMatchObject({ text_source: "feed_item", fetch_status: "robots" });

    const open = loadEnv({ ...process.env, ...NEWS_TEST_ENV, EXTRACTION_ALLOW_PRIVATE_HOSTS: "true" });
    site.setFeed(
      "other.xml",
      `<rss><channel><title>o</title><item><title>Other host</title><link>{{OTHER}}/gen/atom-one</link></item></channel></rss>`,
    );
    const viaOther = await ingestFeedSource(db, open, `${site.origin}/feeds/other.xml`, { origin: "cli", analyze });
    expect(viaOther.fetch_status).toEqual({ ok: 1 });
  }, 60_000);
});
