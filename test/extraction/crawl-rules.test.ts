/**
 * The crawler's edges on small servers made per test (no database): robots.txt that answers 503, a
 * redirect into a disallowed path, Crawl-delay, one request at a time per host, Content-Length over the
 * cap, gzip bodies, content types; and the text rules (dates, deadlines in the state's zone, amounts,
 * fiscal years, sentences).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { loadEnv } from "../../src/config/env";
import { SiteCrawler, siteRoot } from "../../src/features/research/extraction/crawl";
import { isRefusedAddress } from "../../src/features/research/extraction/address-guard";
import { FetchError, HostScheduler, HttpClient } from "../../src/features/research/extraction/http-client";
import { crawlOptions } from "../../src/features/research/extraction/pipeline";
import { deadlineAt, findAmounts, findDates, findFiscalYear, sentences } from "../../src/features/research/extraction/text-rules";
import { EXTRACTION_TEST_ENV } from "./support/fixture-server";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function server(handler: Handler): Promise<{ origin: string; paths: string[]; times: number[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const times: number[] = [];
  const s = http.createServer((req, res) => {
    paths.push(req.url ?? "");
    times.push(Date.now());
    handler(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    paths,
    times,
    close: () => new Promise<void>((resolve) => s.close(() => resolve())),
  };
}

const options = (overrides: Record<string, string> = {}) => crawlOptions(loadEnv({ ...EXTRACTION_TEST_ENV, ...overrides }));
const html = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

describe("crawler edges", () => {
  it("a robots.txt answering 503 makes the whole site disallowed: the run fails before any page", async () => {
    const site = await server((req, res) => (req.url === "/robots.txt" ? res.writeHead(503).end() : res.writeHead(200).end(html("x"))));
    const crawler = new SiteCrawler(`${site.origin}/`, options());
    await expect(crawler.map()).rejects.toThrow("robots.txt answered HTTP 503: the site is treated as disallowed (RFC 9309)");
    expect(site.paths).toEqual(["/robots.txt"]);
    await site.close();
  });

  it("a redirect into a disallowed path is not followed; Crawl-delay spaces the requests", async () => {
    const site = await server((req, res) => {
      if (req.url === "/robots.txt")
        return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /secret\nCrawl-delay: 0.2\n");
      if (req.url === "/go") return res.writeHead(302, { location: "/secret/page" }).end();
      if (req.url === "/") return res.writeHead(200, { "content-type": "text/html" }).end(html('<a href="/go">Staff directory</a>'));
      res.writeHead(200, { "content-type": "text/html" }).end(html("secret"));
    });
    const crawler = new SiteCrawler(`${site.origin}/`, options());
    await crawler.map();
    await crawler.fetchPages();
    expect(site.paths).not.toContain("/secret/page");
    expect(site.paths).toContain("/go");
    expect(crawler.skipped.robots).toBe(1);
    expect(crawler.errors).toEqual([]);
    const gaps = site.times.slice(1).map((t, i) => t - site.times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(190);
    await site.close();
  });

  it("one request at a time per host, with the pause between them", async () => {
    let open = 0;
    let most = 0;
    const site = await server((_req, res) => {
      open += 1;
      most = Math.max(most, open);
      setTimeout(() => {
        open -= 1;
        res.writeHead(200, { "content-type": "text/html" }).end(html("ok"));
      }, 30);
    });
    const client = new HttpClient({ ...options().http, hostDelayMs: 50 }, new HostScheduler());
    await Promise.all(["/a", "/b", "/c", "/d"].map((p) => client.get(`${site.origin}${p}`)));
    expect(most).toBe(1);
    const gaps = site.times.slice(1).map((t, i) => t - site.times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(75); // 30 ms answer + 50 ms pause (timer slack)
    await site.close();
  });

  it("refuses a body whose Content-Length is over the cap, decodes gzip, drops unwanted content types", async () => {
    const site = await server((req, res) => {
      if (req.url === "/big")
        return res.writeHead(200, { "content-type": "application/pdf", "content-length": String(10 * 1024 * 1024) }).end();
      if (req.url === "/gz")
        return res
          .writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" })
          .end(zlib.gzipSync(html("<p>zipped page</p>")));
      res.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(10));
    });
    const client = new HttpClient(options().http, new HostScheduler());
    await expect(client.get(`${site.origin}/big`)).rejects.toMatchObject({
      kind: "too_large",
      message: expect.stringContaining("10485760 bytes exceeds the cap of 1048576"),
    });
    expect((await client.get(`${site.origin}/gz`)).body.toString()).toContain("zipped page");
    const error = await client.get(`${site.origin}/logo`, { accept: (t) => t === "text/html" }).catch((e) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect(error.kind).toBe("content_type");
    await site.close();
  });

  it("knows private addresses and roots without a scheme", () => {
    expect(
      ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254", "::1", "fd00::1", "::ffff:10.0.0.1"].every(
        isRefusedAddress,
      ),
    ).toBe(true);
    expect(["8.8.8.8", "172.32.0.1", "2606:4700::1111"].some(isRefusedAddress)).toBe(false);
    expect(siteRoot("www.albertk12.org")).toBe("http://www.albertk12.org/");
    expect(siteRoot(" https://x.example.org/home#top ")).toBe("https://x.example.org/home");
  });
});

describe("text rules", () => {
  it("reads dates in the forms sites write them", () => {
    expect(findDates("Oct. 14, 2026; 10/15/2026; 2026-10-16; Sept 3rd, 2026; February 30, 2026").map((d) => d.date)).toEqual([
      "2026-10-14",
      "2026-10-15",
      "2026-10-16",
      "2026-09-03",
    ]);
  });

  it("reads a deadline's time in the state's zone, daylight saving included; end of day without a time", () => {
    const at = (text: string, state: string) => deadlineAt(text, findDates(text)[0]!, state).toISOString();
    expect(at("Due January 15, 2030 at 2:00 p.m.", "NE")).toBe("2030-01-15T20:00:00.000Z");
    expect(at("Due July 15, 2030 at 2:00 p.m.", "NE")).toBe("2030-07-15T19:00:00.000Z");
    expect(at("Due July 15, 2030 by 10 AM", "CA")).toBe("2030-07-15T17:00:00.000Z");
    expect(at("Due 3:30 PM on July 15, 2030", "NY")).toBe("2030-07-15T19:30:00.000Z");
    expect(at("Due July 15, 2030", "AZ")).toBe("2030-07-16T06:59:00.000Z");
  });

  it("reads amounts and fiscal years", () => {
    expect(findAmounts("$1.2 million, $450,000, $2,500,000.50, $3.5M and $12 billion; 1,200 units")).toEqual([
      1_200_000, 450_000, 2_500_000.5, 3_500_000, 12_000_000_000,
    ]);
    expect([
      findFiscalYear("FY2026"),
      findFiscalYear("FY 2025-26"),
      findFiscalYear("fiscal year 2027"),
      findFiscalYear("the 2025-2026 school year"),
      findFiscalYear("grades 3-12"),
    ]).toEqual([2026, 2026, 2027, 2026, null]);
  });

  it("splits sentences but not after titles and month abbreviations", () => {
    expect(sentences("Dr. Maria Lopez reported on Oct. 14 that enrollment fell. The Board approved it.\nA heading line here")).toEqual([
      "Dr. Maria Lopez reported on Oct. 14 that enrollment fell.",
      "The Board approved it.",
      "A heading line here",
    ]);
  });
});
