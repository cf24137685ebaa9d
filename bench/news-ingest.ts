/**
 * The news ingest over a generated feed of local pages (issue 22: >= 20 articles/s for a 1,000-item feed on
 * PostgreSQL). Usage:
 *   node scripts/run-ts.js bench/news-ingest.ts [--items 1000] [--concurrency N] [--no-analysis] [--no-catalogue]
 * with BENCH_DATABASE_URL=postgres://... (that server: a fresh database `edm_news_ingest_bench` there, smoke
 * `edm_news_ingest_bench_smoke`, dropped and created anew each run), else an embedded database in memory.
 *
 * A server in this process serves /feed.xml (RSS 2.0, `--items` items with dates and descriptions) and one
 * article page per item (about 6 KB: navigation, share and related blocks, a cookie banner, a footer, and six
 * paragraphs about a school district). The measured run is ingestFeedSource, the function behind
 * `edmarket ingest news-feed <url>`: the feed fetched, each page fetched through the extraction HTTP client and
 * robots.txt, its main text read, the article upserted and analysed (analyzeArticle as it is at the time;
 * --no-analysis leaves it out to show the ingest's own cost). Prints one JSON line: items, articles/s, seconds.
 */
import "reflect-metadata";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { loadEnv } from "../src/config/env";
import { createDb } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { INGEST_SOURCES, runIngest } from "../src/ingest";
import { ingestFeedSource } from "../src/features/research/news/ingest/ingest";
import { Client } from "pg";
import { log, round, SMOKE } from "./harness";
import { smokeEmbeddedTemplate, smokeServerTemplate } from "./smoke-template";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const ITEMS = Number(arg("items") ?? (SMOKE ? 30 : 1000));
const CONCURRENCY = arg("concurrency") ? Number(arg("concurrency")) : undefined;
const ANALYSIS = !process.argv.includes("--no-analysis");
// Entity resolution searches the real district directory (19,000 names), as in service; a smoke run skips it.
const CATALOGUE = !SMOKE && !process.argv.includes("--no-catalogue");

const DISTRICTS = [
  "Lakeview Unified School District",
  "Cedar Ridge Public Schools",
  "Riverside County Schools",
  "Maple Grove ISD",
  "Pine Hollow USD",
];
const STORIES = [
  (d: string, n: number) =>
    `The board of ${d} voted ${n % 7} to 2 on Tuesday to place a $${20 + (n % 60)} million bond measure on the May ballot to replace aging roofs and HVAC systems.`,
  (d: string, n: number) =>
    `${d} is short ${5 + (n % 40)} teachers and ${n % 12} bus drivers two weeks into the school year, the superintendent told the board.`,
  (d: string, n: number) =>
    `${d} released a request for proposals for ${1000 + n} student laptops and a learning management system, with responses due in December.`,
  (d: string, n: number) =>
    `Enrollment at ${d} fell by ${100 + (n % 300)} students this fall, the third straight year of decline, leaving a budget gap of $${1 + (n % 9)} million.`,
];
const FILLER =
  "Board members asked staff to return with options at the next regular meeting. Parents who spoke during public comment were divided. The district will post the full presentation on its website. ";

function page(i: number): string {
  const district = DISTRICTS[i % DISTRICTS.length]!;
  const lead = STORIES[i % STORIES.length]!(district, i);
  const paragraphs = [
    lead,
    FILLER,
    `Officials said the plan for story ${i} would be discussed again in the spring. ${FILLER}`,
    FILLER,
    FILLER,
    `${district} serves about ${5000 + i} students.`,
  ];
  return `<!doctype html><html><head><meta charset="utf-8"><title>Story ${i} | Bench Gazette</title><link rel="canonical" href="/a/${i}"></head><body>
<div class="cookie-banner">We use cookies to improve your experience. <button>Accept</button></div>
<header class="site-header"><a href="/">Bench Gazette</a><nav>${Array.from({ length: 12 }, (_, k) => `<a href="/section/${k}">Section ${k}</a>`).join(" ")}</nav></header>
<main><article><h1>Story ${i}</h1><div class="share-tools"><a href="#">Share on Facebook</a> <a href="#">Email</a></div>
${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}
<aside class="related-stories"><h3>Related</h3>${Array.from({ length: 5 }, (_, k) => `<a href="/a/${(i + k + 1) % ITEMS}">Story ${(i + k + 1) % ITEMS}</a>`).join(" ")}</aside>
</article></main><footer class="site-footer"><p>Copyright Bench Gazette. Privacy. Terms. Contact.</p></footer></body></html>`;
}

function feed(origin: string): string {
  const items = Array.from({ length: ITEMS }, (_, i) => {
    const date = new Date(Date.UTC(2026, 10, 20) - i * 3600_000).toUTCString();
    return `<item><title>Story ${i}</title><link>${origin}/a/${i}?utm_source=rss</link><description>${STORIES[i % STORIES.length]!(DISTRICTS[i % DISTRICTS.length]!, i)}</description><pubDate>${date}</pubDate><guid isPermaLink="false">bench-${i}</guid></item>`;
  }).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench Gazette</title><link>${origin}/</link>${items}</channel></rss>`;
}

async function main(): Promise<void> {
  let feedBody = "";
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === "/feed.xml") {
      res.writeHead(200, { "content-type": "application/rss+xml; charset=utf-8" });
      return res.end(feedBody);
    }
    const m = /^\/a\/(\d+)$/.exec(path);
    if (m) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(page(Number(m[1])));
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  feedBody = feed(origin);

  // BENCH_DATABASE_URL names the server (as for every bench): the run gets a fresh database of its own there.
  const url = process.env.BENCH_DATABASE_URL ? await freshDatabase(process.env.BENCH_DATABASE_URL) : undefined;
  const env = loadEnv({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "silent", DATABASE_URL: url });
  const db = await createDb(url ? { databaseUrl: url } : { dataDir: "memory://", loadDataDir: await smokeEmbeddedTemplate() });
  try {
    await migrate(db);
    if (CATALOGUE) for (const file of INGEST_SOURCES["nces-lea"].files) await runIngest(db, "nces-lea", path.join(packageRoot, file));
    log(
      `${ITEMS} items on ${url ? "PostgreSQL" : "embedded"}; concurrency ${CONCURRENCY ?? env.NEWS_FETCH_CONCURRENCY}; analysis ${ANALYSIS ? "analyzeArticle" : "off"}; catalogue ${CATALOGUE ? "the NCES LEA directory" : "empty"}`,
    );
    const started = process.hrtime.bigint();
    const summary = await ingestFeedSource(db, env, `${origin}/feed.xml`, {
      origin: "cli",
      concurrency: CONCURRENCY,
      analyze: ANALYSIS ? undefined : async () => ({ signals: 0 }),
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const result = {
      database: url ? "postgres" : "embedded",
      catalogue: CATALOGUE,
      items: summary.items,
      new: summary.new,
      failed: summary.failed,
      text_source: summary.text_source,
      analysis: ANALYSIS,
      analyzed: summary.analyzed,
      analysis_failed: summary.analysis_failed,
      signals: summary.signals,
      seconds: round(seconds, 2),
      articles_per_second: round(summary.new / seconds, 1),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (summary.new !== ITEMS) process.exitCode = 1;
  } finally {
    // The bench's own rows only (a shared database keeps everything else).
    await db
      .query(`DELETE FROM signals WHERE article_id IN (SELECT id FROM articles WHERE url LIKE $1)`, [`${origin}/%`])
      .catch(() => undefined);
    await db.query(`DELETE FROM articles WHERE url LIKE $1`, [`${origin}/%`]).catch(() => undefined);
    await db.close();
    server.close();
  }
}

/** A new, empty database on the server `serverUrl` names, for this run alone. */
async function freshDatabase(serverUrl: string): Promise<string> {
  const name = SMOKE ? "edm_news_ingest_bench_smoke" : "edm_news_ingest_bench";
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const template = await smokeServerTemplate(serverUrl);
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
