/**
 * Feed parsing with the quirks of real feeds (feed-parser.ts, dates.ts, urls.ts): no database.
 */
import fs from "node:fs";
import path from "node:path";
import { parseFeedDate } from "../../src/features/research/news/ingest/dates";
import { FeedParseError, parseFeed } from "../../src/features/research/news/ingest/feed-parser";
import { extractMainText } from "../../src/features/research/news/ingest/main-text";
import { acceptCanonical, canonicalUrl, domainOf } from "../../src/features/research/news/ingest/urls";

const FIXTURES = path.join(__dirname, "fixtures");
const O = "http://news.example.test";
const fixture = (name: string) =>
  Buffer.from(
    fs.readFileSync(path.join(FIXTURES, name), "utf8").replaceAll("{{ORIGIN}}", O).replaceAll("{{OTHER}}", "http://localhost:1"),
    "utf8",
  );

describe("RSS 2.0 with real-world quirks", () => {
  const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixture("rss-quirks.xml").subarray(3)]);
  const feed = parseFeed(withBom, { feedUrl: `${O}/feeds/rss-quirks.xml` });
  const byTitle = (t: string) => feed.items.find((i) => i.title.startsWith(t))!;

  it("reads the channel through a BOM and numeric entities", () => {
    expect(feed.format).toBe("rss");
    expect(feed.title).toBe("The Test Gazette \u2013 Schools");
    expect(feed.siteUrl).toBe(`${O}/`);
  });

  it("keeps one item per canonical link (tracking parameters and fragments dropped)", () => {
    expect(feed.duplicates).toBe(1);
    expect(feed.items).toHaveLength(11);
    expect(byTitle("Springfield voters").link).toBe(`${O}/bond-vote?id=7`);
  });

  it("turns CDATA, escaped HTML, double-escaped and HTML entities into plain text", () => {
    const bond = byTitle("Springfield voters");
    expect(bond.title).toBe("Springfield voters approve $48 million school bond");
    expect(bond.description).toBe("Voters approved the bond on Tuesday.");
    expect(byTitle("Board memo").description).toBe(
      "The board & its search firm named three finalists for superintendent of Lakeview Unified School District on Monday, according to a memo.",
    );
    expect(byTitle("Slow").title).toBe("Slow page & more");
    expect(byTitle("Slow").author).toBe("Pat Writer");
  });

  it("resolves relative links and takes a permalink guid when there is no link", () => {
    expect(byTitle("Board memo").link).toBe(`${O}/private/board-memo`);
    const rfp = byTitle("District posts");
    expect(rfp.link).toBe(`${O}/missing`);
    // content:encoded is the item's longest text, paragraphs on their own lines.
    expect(rfp.text).toBe(
      "The district released a request for proposals for classroom laptops, with responses due December 15.\nAbout 4,000 devices are covered.",
    );
    expect(byTitle("An item without a link").link).toBeNull();
  });

  it("reads RFC 822 with US zones, two-digit years, zone-less ISO and prose dates; a bad or missing date is null", () => {
    expect(byTitle("Springfield voters").publishedAt?.toISOString()).toBe("2026-11-04T21:10:00.000Z");
    expect(byTitle("District posts").publishedAt?.toISOString()).toBe("2026-11-03T08:00:00.000Z");
    expect(byTitle("Slow").publishedAt?.toISOString()).toBe("2026-11-02T00:00:00.000Z");
    expect(byTitle("Huge").publishedAt?.toISOString()).toBe("2026-11-01T10:00:00.000Z");
    expect(byTitle("A PDF").publishedAt).toBeNull();
    expect(byTitle("Board memo").publishedAt).toBeNull();
  });

  it("reads a feed from a file against its channel link", () => {
    const fromFile = parseFeed(fixture("rss-quirks.xml"));
    expect(fromFile.items.find((i) => i.title === "Board memo on the superintendent search")!.link).toBe(`${O}/private/board-memo`);
  });
});

describe("Atom and RSS 1.0", () => {
  it("reads Atom: alternate links against xml:base, HTML and XHTML titles and content, author names, published before updated", () => {
    const feed = parseFeed(fixture("atom.xml"), { feedUrl: `${O}/feeds/atom.xml` });
    expect(feed.format).toBe("atom");
    expect(feed.title).toBe("District news");
    const [one, two] = feed.items;
    expect(one).toMatchObject({ link: `${O}/gen/atom-one`, title: "Atom one", author: "Ada Reporter", description: "Short & sweet." });
    expect(one!.publishedAt?.toISOString()).toBe("2026-11-05T14:30:00.000Z");
    expect(two).toMatchObject({ link: `${O}/private/atom-two`, title: "Atom two" });
    expect(two!.text).toBe(
      "The school board of Maple Grove Public Schools approved a new reading curriculum for grades K-5.\nTeachers will be trained in January.",
    );
    expect(two!.publishedAt?.toISOString()).toBe("2026-11-04T08:00:00.000Z");
  });

  it("reads RSS 1.0 (RDF)", () => {
    const feed = parseFeed(fixture("rdf.xml"));
    expect(feed.format).toBe("rdf");
    expect(feed.items).toEqual([
      expect.objectContaining({
        link: `${O}/gen/rdf-one`,
        title: "RDF one",
        description: "An RSS 1.0 item.",
        publishedAt: new Date("2026-11-01T07:00:00Z"),
      }),
    ]);
  });

  it("reads windows-1252 bytes in a feed that says UTF-8, and ISO-8859-1 as declared", () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?><rss><channel><title>x</title><item><title>';
    const tail = "</title><link>http://a.test/x</link></item></channel></rss>";
    // "Café “bond”" in windows-1252: é = E9, curly quotes = 93 / 94.
    const cp1252 = Buffer.concat([
      Buffer.from(head),
      Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x62, 0x6f, 0x6e, 0x64, 0x94]),
      Buffer.from(tail),
    ]);
    expect(parseFeed(cp1252).items[0]!.title).toBe("Café \u201cbond\u201d");
    const latin1 = Buffer.concat([
      Buffer.from(head.replace("UTF-8", "ISO-8859-1")),
      Buffer.from([0x43, 0x61, 0x66, 0xe9]),
      Buffer.from(tail),
    ]);
    expect(parseFeed(latin1).items[0]!.title).toBe("Café");
  });

  it("refuses what is no feed", () => {
    expect(() => parseFeed("<html><body>hi</body></html>")).toThrow(FeedParseError);
  });
});

describe("dates, URLs and main text", () => {
  it("parses the date formats feeds use", () => {
    expect(parseFeedDate("Wed, 02 Oct 2026 15:00:00 PDT")?.toISOString()).toBe("2026-10-02T22:00:00.000Z");
    expect(parseFeedDate("02 Oct 2026 15:00 +0200")?.toISOString()).toBe("2026-10-02T13:00:00.000Z");
    expect(parseFeedDate("2026-10-02T15:00:00.250+05:30")?.toISOString()).toBe("2026-10-02T09:30:00.250Z");
    expect(parseFeedDate("Oct. 2, 2026 3:05 PM")?.toISOString()).toBe("2026-10-02T15:05:00.000Z");
    expect(parseFeedDate("10/02/2026")?.toISOString()).toBe("2026-10-02T00:00:00.000Z");
    expect(parseFeedDate("0001-01-01T00:00:00Z")).toBeNull();
    expect(parseFeedDate("")).toBeNull();
  });

  it("canonicalizes URLs: fragment and tracking parameters dropped, host lowercased, other parameters kept", () => {
    expect(canonicalUrl("HTTPS://WWW.Example.COM/a/b?utm_source=x&id=3&fbclid=y#frag")).toBe("https://www.example.com/a/b?id=3");
    expect(canonicalUrl("javascript:alert(1)")).toBeNull();
    expect(domainOf("https://www.Example.com:8080/x")).toBe("example.com");
    expect(acceptCanonical("/news/a", "https://www.example.com/news/a?ref=1")).toBe("https://www.example.com/news/a");
    expect(acceptCanonical("https://other.site/news/a", "https://example.com/news/a")).toBeNull();
    expect(acceptCanonical("/", "https://example.com/news/a")).toBeNull();
  });

  it("drops navigation, share, related, comment, cookie and footer blocks from an article page", () => {
    const html = fs.readFileSync(path.join(FIXTURES, "pages", "bond-vote.html"), "utf8");
    const main = extractMainText(html);
    expect(main.readable).toBe(true);
    expect(main.text.split("\n")).toEqual([
      expect.stringMatching(/^SPRINGFIELD — Voters in the Springfield Public Schools district approved a \$48 million bond/),
      expect.stringMatching(/^The measure passed with 58 percent/),
      expect.stringMatching(/^"This is a vote of confidence/),
      "The board is expected to select an architect in January and to issue the first bonds in the spring.",
    ]);
    for (const boilerplate of [
      "cookies",
      "Subscribe",
      "Share on",
      "Related stories",
      "comments",
      "waste of taxpayer",
      "All rights reserved",
      "morning briefing",
    ])
      expect(main.text).not.toContain(boilerplate);
    expect(main.canonical).toBe("/news/2026/11/springfield-bond-approved");
    expect(main.publishedAt).toBe("2026-11-04T21:10:00Z");
  });
});
