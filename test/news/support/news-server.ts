/**
 * A local news site for the ingest tests: feeds from test/news/fixtures/ (`{{ORIGIN}}` replaced by the server's
 * origin, served with an ETag and answering 304 to a matching If-None-Match), article pages (fixtures/pages/, and
 * generated ones under /gen/<slug>), and the failure cases: a robots.txt disallowing /private/, /missing (404),
 * /slow (no byte for 15 s), /huge (2 MB of HTML), /thin (a page with a line of text), /doc.pdf (not HTML).
 * Every request's path is recorded.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export const NEWS_FIXTURES = path.join(__dirname, "..", "fixtures");

export interface NewsSite {
  origin: string;
  requests: string[];
  /** Replaces a served feed's text (the next fetch sees a new ETag). */
  setFeed(name: string, body: string): void;
  /** Sets the paragraphs of a generated page /gen/<slug>. */
  setPage(slug: string, paragraphs: string[], options?: { canonical?: string; title?: string }): void;
  close(): Promise<void>;
}

const BOILERPLATE_HEAD = `<header class="site-header"><a href="/">The Test Gazette</a><nav><a href="/news">News</a> <a href="/sports">Sports</a> <a href="/subscribe">Subscribe</a></nav></header>`;
const BOILERPLATE_FOOT = `<aside class="related-stories"><h3>Related stories</h3><a href="/x">Another story</a></aside>
<div class="cookie-banner">We use cookies. Accept all cookies</div>
<footer class="site-footer">Copyright The Test Gazette. Privacy policy. Terms of use.</footer>`;

export function articlePage(title: string, paragraphs: string[], canonical?: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title} | The Test Gazette</title>${
    canonical ? `<link rel="canonical" href="${canonical}">` : ""
  }</head><body>${BOILERPLATE_HEAD}<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</article></main>${BOILERPLATE_FOOT}</body></html>`;
}

/** 2 MB of HTML, built once: the response starts at once, whatever else the process is doing. */
const HUGE_PAGE = articlePage(
  "huge",
  Array.from({ length: 20000 }, () => "x".repeat(100)),
);

export async function serveNewsSite(): Promise<NewsSite> {
  const requests: string[] = [];
  const feeds = new Map<string, string>();
  const pages = new Map<string, { paragraphs: string[]; canonical?: string; title?: string }>();
  const timers = new Set<NodeJS.Timeout>();
  let origin = "";
  // {{OTHER}}: the same server under another host name (localhost), a private host the feed's trust does not cover.
  const fill = (text: string) => text.replaceAll("{{ORIGIN}}", origin).replaceAll("{{OTHER}}", origin.replace("127.0.0.1", "localhost"));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const p = url.pathname;
    requests.push(p + url.search);
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": type, ...headers });
      res.end(body);
    };
    if (p === "/robots.txt") return send(200, "text/plain", "User-agent: *\nDisallow: /private/\n");
    if (p.startsWith("/feeds/")) {
      const name = p.slice("/feeds/".length);
      const body =
        feeds.get(name) ??
        (fs.existsSync(path.join(NEWS_FIXTURES, name)) ? fill(fs.readFileSync(path.join(NEWS_FIXTURES, name), "utf8")) : null);
      if (body === null) return send(404, "text/plain", "no such feed");
      const etag = `"${Buffer.from(body).length}-${hash(body)}"`;
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, { etag });
        return res.end();
      }
      return send(200, "application/rss+xml; charset=utf-8", body, { etag, "last-modified": "Tue, 04 Nov 2026 12:00:00 GMT" });
    }
    if (p.startsWith("/gen/")) {
      const page = pages.get(p.slice(5));
      if (!page) return send(404, "text/html", "<h1>Not found</h1>");
      return send(200, "text/html; charset=utf-8", articlePage(page.title ?? p.slice(5), page.paragraphs, page.canonical));
    }
    if (p === "/missing") return send(404, "text/html", "<h1>Not found</h1>");
    if (p === "/slow") {
      const timer = setTimeout(() => send(200, "text/html", articlePage("slow", ["late"])), 15_000);
      timers.add(timer);
      return;
    }
    if (p === "/huge") return send(200, "text/html", HUGE_PAGE);
    if (p === "/thin") return send(200, "text/html", articlePage("thin", ["Read the story in our app."]));
    if (p === "/doc.pdf") return send(200, "application/pdf", Buffer.from("%PDF-1.4 not really"));
    const file = path.join(NEWS_FIXTURES, "pages", `${path.basename(p)}.html`);
    if (fs.existsSync(file)) return send(200, "text/html; charset=utf-8", fill(fs.readFileSync(file, "utf8")));
    send(404, "text/html", "<h1>Not found</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    setFeed: (name, body) => feeds.set(name, fill(body)),
    setPage: (slug, paragraphs, options = {}) => pages.set(slug, { paragraphs, ...options }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function hash(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i += 1) h = (h * 31 + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

/**
 * Limits small enough for the failure cases to be quick (the slow page sends nothing for 15 s: a read timeout of 3 s
 * fires first; the huge page is over 256 KB). The server shares the test's event loop, so on a loaded machine
 * (CI runs both suites at once on 2 cores) the page extraction of other items can hold the loop for over a second:
 * read timeouts of 250 ms and then 1 s reported the huge page as a timeout (CI of stop 36).
 */
export const NEWS_TEST_ENV = {
  EXTRACTION_HOST_DELAY_MS: "0",
  NEWS_HOST_DELAY_MS: "0",
  EXTRACTION_CONNECT_TIMEOUT_MS: "3000",
  EXTRACTION_READ_TIMEOUT_MS: "3000",
  EXTRACTION_MAX_BYTES: String(256 * 1024),
  LOG_LEVEL: "silent",
};
