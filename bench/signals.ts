/**
 * Quality of the news signals on the labelled set (bench/labelled/news/items.jsonl): entity precision and recall
 * over district LEAIDs, negatives matched (items about no US public district that got one), primary type
 * accuracy and buying intent within one step, for the tuning part (n001-n120), the held-out part (n121+) and all.
 *
 * The catalogue is the real one: the NCES LEA directory and the school files loaded by the real ingestors into
 * a database of its own (`edm_signals_bench` on the server BENCH_DATABASE_URL, else DATABASE_URL, names; reused
 * while its district count is right). The set is served as an RSS feed plus one HTML page
 * per item from a local HTTP server; when the CLI has `ingest news-feed` the feed is ingested through it and the
 * signals read back from the signals table (path "cli"); otherwise (or with --direct) each page's item goes
 * through analyzeText (path "direct").
 *
 *   node scripts/run-ts.js bench/signals.ts [--limit N] [--direct] [--verbose]
 */
import "reflect-metadata";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Client } from "pg";
import { createDb, type Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { analyzeText, type AnalyzedSignal } from "../src/features/research/news/analysis";
import { INGEST_SOURCES, runIngest } from "../src/ingest";
import { freePort, log, round, SMOKE } from "./harness";
import { smokeServerTemplate } from "./smoke-template";

interface Item {
  id: string;
  url: string;
  published_at: string;
  outlet_domain: string;
  headline: string;
  summary: string;
  truth: { leaids: string[]; signal_type: string; buying_intent: string };
}

const args = process.argv.slice(2);
const limitAt = args.indexOf("--limit");
const LIMIT = limitAt >= 0 ? Number(args[limitAt + 1]) : Infinity;
const VERBOSE = args.includes("--verbose");
// The server (as for every bench): the catalogue lives in a database of its own there, edm_signals_bench.
const SERVER = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/**
 * A smoke run (BENCH_SMOKE=1) has a catalogue of its own, the district directory alone (the same ingestor, 3 s; the
 * school files are 100,000 more rows a smoke's ten items measure nothing with), and leaves the measured one alone.
 */
const CATALOGUE = SMOKE ? "edm_signals_bench_smoke" : "edm_signals_bench";
const CATALOGUE_SOURCES = SMOKE ? (["nces-lea"] as const) : (["nces-lea", "nces-school-search", "urban-ccd-schools"] as const);
const CATALOGUE_SCHOOLS = SMOKE ? 0 : 100_000;
const INTENTS = ["none", "low", "medium", "high"];

function loadItems(): Item[] {
  const file = path.join(packageRoot, "bench/labelled/news/items.jsonl");
  const all = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Item);
  return Number.isFinite(LIMIT) ? all.slice(0, LIMIT) : all;
}

async function catalogue(): Promise<Db> {
  const url = new URL(SERVER);
  url.pathname = `/${CATALOGUE}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [CATALOGUE])).rowCount;
  if (!exists) {
    const template = await smokeServerTemplate(SERVER);
    await admin.query(`CREATE DATABASE ${CATALOGUE}${template ? ` TEMPLATE ${template}` : ""}`);
  }
  await admin.end();
  const db = await createDb({ databaseUrl: url.toString() });
  await migrate(db);
  const [{ n, schools }] = await db.query<{ n: number; schools: number }>(
    "SELECT (SELECT count(*)::int FROM districts) AS n, (SELECT count(*)::int FROM schools) AS schools",
  );
  // The schools a deployment has: the four states' exports and the national 2019-20 list for the others.
  if (n < 19_000 || schools < CATALOGUE_SCHOOLS) {
    const started = Date.now();
    for (const source of CATALOGUE_SOURCES)
      for (const file of INGEST_SOURCES[source].files) await runIngest(db, source, path.join(packageRoot, file));
    log(`catalogue loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return db;
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The set as a feed: /feed.xml (RSS 2.0) and /item/<id>.html (the item's page: headline and summary). */
async function serve(items: Item[]): Promise<{ base: string; close: () => Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const byId = new Map(items.map((i) => [i.id, i]));
  const server = http.createServer((req, res) => {
    const u = req.url ?? "/";
    if (u === "/feed.xml") {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      res.end(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>labelled news</title><link>${base}/</link>` +
          items
            .map(
              (i) =>
                `<item><title>${xml(i.headline)}</title><link>${base}/item/${i.id}.html</link><guid>${base}/item/${i.id}.html</guid>` +
                `<pubDate>${new Date(`${i.published_at}T12:00:00Z`).toUTCString()}</pubDate><description>${xml(i.summary)}</description></item>`,
            )
            .join("") +
          `</channel></rss>`,
      );
      return;
    }
    const m = /^\/item\/(n\d+)\.html$/.exec(u);
    const item = m && byId.get(m[1]);
    if (!item) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html><head><title>${xml(item.headline)}</title><meta property="article:published_time" content="${item.published_at}T12:00:00Z"></head>` +
        `<body><nav><a href="/">Home</a> | <a href="/news">News</a></nav><article><h1>${xml(item.headline)}</h1><p>${xml(item.summary)}</p></article>` +
        `<footer>Labelled set page</footer></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Outcome {
  item: Item;
  leaids: string[];
  type: string;
  intent: string;
  status: string;
  reason: string;
}

function cliAvailable(): boolean {
  if (args.includes("--direct")) return false;
  const dir = path.join(packageRoot, "src/cli");
  return fs.existsSync(dir) && fs.readdirSync(dir).some((f) => fs.readFileSync(path.join(dir, f), "utf8").includes("news-feed"));
}

async function throughCli(db: Db, items: Item[], base: string): Promise<Outcome[]> {
  const url = new URL(`/${CATALOGUE}`, SERVER).toString();
  await db.exec("DELETE FROM signals; DELETE FROM articles");
  // Asynchronous: the feed and its pages are served by this process, which must keep answering meanwhile.
  await promisify(execFile)("node", [path.join(packageRoot, "bin/edmarket.js"), "ingest", "news-feed", `${base}/feed.xml`], {
    env: { ...process.env, DATABASE_URL: url, EXTRACTION_ALLOW_PRIVATE_HOSTS: "true", EXTRACTION_HOST_DELAY_MS: "0", LOG_LEVEL: "silent" },
    maxBuffer: 64 << 20,
  });
  const rows = await db.query<{
    url: string;
    signal_type: string;
    buying_intent: string;
    status: string;
    reason: string;
    fed_id: string | null;
    created_at: Date;
  }>(
    `SELECT a.url, s.signal_type, s.buying_intent, s.entity_resolution_status AS status, s.entity_match_reason AS reason, d.fed_id
       FROM articles a JOIN signals s ON s.article_id = a.id LEFT JOIN districts d ON d.id = s.district_id
      ORDER BY s.extraction_confidence DESC NULLS LAST, s.created_at, s.id`,
  );
  return items.map((item) => {
    const mine = rows.filter((r) => r.url === `${base}/item/${item.id}.html`);
    return {
      item,
      leaids: [...new Set(mine.map((r) => r.fed_id).filter((x): x is string => !!x))],
      type: mine[0]?.signal_type ?? "noise",
      intent: mine[0]?.buying_intent ?? "none",
      status: mine[0]?.status ?? "missing",
      reason: mine[0]?.reason ?? "",
    };
  });
}

async function direct(db: Db, items: Item[], base: string): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const item of items) {
    // The page is fetched so the served HTML is what is read (its <p>), as the ingest would.
    const html = await (await fetch(`${base}/item/${item.id}.html`)).text();
    const text =
      /<p>([\s\S]*?)<\/p>/
        .exec(html)?.[1]
        ?.replace(/&quot;/g, '"')
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&") ?? "";
    const signals: AnalyzedSignal[] = await analyzeText(db, {
      title: item.headline,
      text,
      url: item.url,
      domain: item.outlet_domain,
      published_at: new Date(`${item.published_at}T12:00:00Z`),
    });
    out.push({
      item,
      leaids: [...new Set(signals.map((s) => s.district_fed_id).filter((x): x is string => !!x))],
      type: signals[0]?.signal_type ?? "noise",
      intent: signals[0]?.buying_intent ?? "none",
      status: signals[0]?.entity_resolution_status ?? "missing",
      reason: signals[0]?.entity_match_reason ?? "",
    });
  }
  return out;
}

function score(outcomes: Outcome[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let negatives = 0;
  let negativesMatched = 0;
  let typeOk = 0;
  let intentOk = 0;
  for (const o of outcomes) {
    const truth = new Set(o.item.truth.leaids);
    for (const id of o.leaids) {
      if (truth.has(id)) tp += 1;
      else fp += 1;
    }
    for (const id of truth) if (!o.leaids.includes(id)) fn += 1;
    if (!truth.size) {
      negatives += 1;
      if (o.leaids.length) negativesMatched += 1;
    }
    if (o.type === o.item.truth.signal_type) typeOk += 1;
    if (Math.abs(INTENTS.indexOf(o.intent) - INTENTS.indexOf(o.item.truth.buying_intent)) <= 1) intentOk += 1;
  }
  const n = outcomes.length || 1;
  return {
    items: outcomes.length,
    entity_precision: round(tp / (tp + fp || 1), 3),
    entity_recall: round(tp / (tp + fn || 1), 3),
    negatives_matched: `${negativesMatched} of ${negatives}`,
    type_accuracy: round(typeOk / n, 3),
    intent_within_one: round(intentOk / n, 3),
  };
}

async function main() {
  const items = loadItems();
  const db = await catalogue();
  const site = await serve(items);
  let viaCli = cliAvailable();
  const started = Date.now();
  try {
    let outcomes: Outcome[] | null = null;
    if (viaCli)
      outcomes = await throughCli(db, items, site.base).catch((error: Error) => {
        const stderr = String((error as Error & { stderr?: Buffer }).stderr ?? "").slice(-2000);
        log(`the CLI path failed (${error.message.split("\n")[0]}); analysing directly\n${stderr}`);
        return null;
      });
    if (!outcomes) {
      viaCli = false;
      outcomes = await direct(db, items, site.base);
    }
    const seconds = (Date.now() - started) / 1000;
    if (VERBOSE)
      for (const o of outcomes) {
        const t = o.item.truth;
        const bad = o.leaids.join(",") !== [...t.leaids].sort().join(",") || o.type !== t.signal_type;
        if (bad)
          log(
            `${o.item.id} truth ${t.leaids.join(",") || "-"} ${t.signal_type}/${t.buying_intent} got ${o.leaids.join(",") || "-"} ${o.type}/${o.intent} ${o.status}: ${o.reason.slice(0, 160)}`,
          );
      }
    const held = (o: Outcome) => Number(o.item.id.slice(1)) > 120;
    const result = {
      path: viaCli ? "cli (edmarket ingest news-feed)" : "direct (analyzeText)",
      seconds: round(seconds, 1),
      tune: score(outcomes.filter((o) => !held(o))),
      held_out: score(outcomes.filter(held)),
      all: score(outcomes),
      targets: "precision >= 0.90, recall >= 0.80, negatives <= 2 of 17, type >= 0.70, intent within one >= 0.85",
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await site.close();
    await db.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
