/**
 * The extraction pipeline over a generated 200-page district website (issue 12): pages per second and
 * peak memory. Usage: npm run bench:extract [-- --rounds 3 --postgres postgres://...]
 *
 * The site (served in this process on loopback): a home page, 10 section pages and 190 pages under them
 * (staff directories as tables and as cards, news posts with funding and pain-point sentences, bid pages,
 * plain pages, and board minutes as real PDFs), with robots.txt and a sitemap. One pipeline run per
 * round against a fresh district: EXTRACTION_MAX_PAGES=200, EXTRACTION_HOST_DELAY_MS=0 (the politeness
 * pause is configuration: at the default 500 ms, 200 requests to one host take at least 100 s whatever
 * the machine). Measured: the stages' times, pages per second over the crawl (map + fetch, including
 * HTML and PDF parsing) and over the whole run (through the database write), and the peak RSS and heap
 * of the process sampled every 10 ms. The fixture server runs in the same process (its CPU and memory
 * are included). Results: bench/results/extract.json and bench/README.md between the extract-results markers.
 */
import "reflect-metadata";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { loadEnv } from "../src/config/env";
import { createDb, type Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { runExtractionPipeline, type ExtractionSummary } from "../src/features/research/extraction/pipeline";
import { makePdf } from "../test/extraction/support/make-pdf";
import { log, rewriteReadmeBlock, round, SMOKE, writeResults } from "./harness";
import { smokeEmbeddedTemplate } from "./smoke-template";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const FIRST = ["Avery", "Jordan", "Morgan", "Riley", "Casey", "Taylor", "Jamie", "Quinn", "Reese", "Parker", "Hayden", "Rowan"];
const LAST = ["Lindqvist", "Okafor", "Marchetti", "Nakamura", "Delgado", "Brennan", "Kowalski", "Haddad", "Svensson", "Achebe"];
const TITLES = [
  "Principal",
  "Assistant Principal",
  "Director of Technology",
  "Curriculum Coordinator",
  "Business Manager",
  "School Counselor",
];
const FILLER =
  "Families can find calendars, enrollment forms and transportation information on this page. Our schools offer advanced coursework, career and technical education, fine arts and athletics. ";

/**
 * Pages a run crawls: 200, or in a smoke run (BENCH_SMOKE=1) 40 (2 sections: every kind of page, PDFs included, in a
 * fifth of the CPU).
 */
const PAGES = SMOKE ? 40 : 200;

/** The generated site: path -> [content type, body]. PAGES + 1 pages (PAGES / 20 sections of 19); the crawl stops at PAGES. */
function generateSite(): Map<string, [string, Buffer]> {
  const files = new Map<string, [string, Buffer]>();
  const html = (title: string, body: string) =>
    Buffer.from(
      `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><header><nav><a href="/">Home</a></nav></header><main><h1>${title}</h1>${body}</main><footer><p>Bench Valley Schools · info@benchvalley.example</p></footer></body></html>`,
    );
  const person = (n: number) => `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / FIRST.length) % LAST.length]}`;
  const sections = Array.from({ length: PAGES / 20 }, (_, s) => s);
  files.set("/", [
    "text/html",
    html(
      "Bench Valley Schools",
      `<p>Bench Valley Schools serves 12,000 students.</p>${sections.map((s) => `<a href="/section-${s}/">Section ${s}</a>`).join(" ")}`,
    ),
  ]);
  let n = 0;
  for (const s of sections) {
    const children: string[] = [];
    for (let p = 0; p < 19; p += 1) {
      n += 1;
      const kind = n % 6;
      const at = `/section-${s}/page-${p}`;
      if (kind === 0) {
        // Board minutes as a real PDF.
        const date = `October ${(n % 27) + 1}, 2026`;
        files.set(`${at}.pdf`, [
          "application/pdf",
          makePdf([
            [
              "Bench Valley Schools",
              "Board of Education Regular Meeting Minutes",
              date,
              `The Board approved a contract with PowerSchool in the amount of $${(n + 10) * 1000} for student information services.`,
              "The Board adopted the 2026-27 budget.",
            ],
          ]),
        ]);
        children.push(`<a href="${at}.pdf">${date} Regular Meeting Minutes</a>`);
        continue;
      }
      const body =
        kind === 1
          ? `<table><tr><th>Name</th><th>Title</th><th>Email</th><th>Phone</th></tr>${Array.from({ length: 10 }, (_, k) => {
              const who = person(n * 10 + k);
              return `<tr><td>${who}</td><td>${TITLES[k % TITLES.length]}</td><td><a href="mailto:${who.replace(" ", ".").toLowerCase()}.${n}@benchvalley.example">Email</a></td><td>(402) 555-${String(1000 + k).slice(-4)}</td></tr>`;
            }).join("")}</table>`
          : kind === 2
            ? Array.from({ length: 6 }, (_, k) => {
                const who = person(n * 6 + k + 5000);
                return `<div class="card"><h3>${who}</h3><p>${TITLES[(k + 2) % TITLES.length]}</p><p><a href="mailto:${who.replace(" ", "").toLowerCase()}${n}@benchvalley.example">Email</a></p></div>`;
              }).join("")
            : kind === 3
              ? `<article><time datetime="2026-10-${String((n % 27) + 1).padStart(2, "0")}"></time><p>The district received a $${n * 1000} grant for literacy in 2026-27.</p><p>Students use Canvas LMS and Chromebooks; the district faces a budget shortfall of $${n}00,000.</p><p>${FILLER.repeat(6)}</p></article>`
              : kind === 4
                ? `<h2>Open Solicitations</h2><h3>RFP ${n}: Services package ${n}</h3><p>Posted: November 2, 2026</p><p>Proposals due: January 15, 2030 at 2:00 p.m.</p>`
                : `<p>${FILLER.repeat(12)}</p>`;
      files.set(`${at}.html`, ["text/html", html(kind === 4 ? `Bids and RFPs ${n}` : `Page ${n}`, body)]);
      children.push(`<a href="${at}.html">${kind === 1 || kind === 2 ? "Staff directory" : `Page ${n}`}</a>`);
    }
    files.set(`/section-${s}/`, ["text/html", html(`Section ${s}`, children.join(" "))]);
  }
  return files;
}

async function serve(files: Map<string, [string, Buffer]>): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = "";
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    if (pathname === "/robots.txt")
      return res
        .writeHead(200, { "content-type": "text/plain" })
        .end(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`);
    if (pathname === "/sitemap.xml")
      return res
        .writeHead(200, { "content-type": "application/xml" })
        .end(`<?xml version="1.0"?><urlset>${[...files.keys()].map((p) => `<url><loc>${origin}${p}</loc></url>`).join("")}</urlset>`);
    const file = files.get(pathname);
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": file[0], "content-length": file[1].length }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface Round {
  summary: ExtractionSummary;
  totalMs: number;
  peakRss: number;
  peakHeap: number;
}

async function measure(db: Db, origin: string): Promise<Round> {
  const env = loadEnv({
    LOG_LEVEL: "warn",
    EXTRACTION_ALLOW_PRIVATE_HOSTS: "true",
    EXTRACTION_HOST_DELAY_MS: "0",
    EXTRACTION_MAX_PAGES: String(PAGES),
    EXTRACTION_MAX_DEPTH: "3",
  });
  const [{ id }] = await db.query<{ id: string }>(
    `INSERT INTO districts (fed_id, name, state, data_source, website_url) VALUES ($1, 'Bench Valley Schools', 'NE', 'bench', $2) RETURNING id`,
    [`bench-${Date.now()}`, `${origin}/`],
  );
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 10);
  const start = Date.now();
  const summary = await runExtractionPipeline(db, "district", id, { env });
  const totalMs = Date.now() - start;
  clearInterval(timer);
  sample();
  return { summary, totalMs, peakRss, peakHeap };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mib = (bytes: number) => round(bytes / 1024 / 1024, 1);

async function main(): Promise<void> {
  const rounds = Number(arg("rounds") ?? (SMOKE ? 1 : 3));
  const targets: { name: string; url?: string }[] = [{ name: "embedded (PGlite)" }];
  const pg = arg("postgres");
  if (pg) targets.push({ name: "PostgreSQL", url: pg });
  const site = await serve(generateSite());
  const results: Record<string, unknown>[] = [];
  try {
    for (const target of targets) {
      const db = await createDb(
        target.url ? { databaseUrl: target.url } : { dataDir: "memory://", loadDataDir: await smokeEmbeddedTemplate() },
      );
      try {
        await migrate(db);
        const baseline = process.memoryUsage();
        const measured: Round[] = [];
        for (let r = 0; r < rounds; r += 1) {
          const m = await measure(db, site.origin);
          if (m.summary.status !== "completed" || m.summary.pages_fetched !== PAGES)
            throw new Error(`round ${r}: ${m.summary.status}, ${m.summary.pages_fetched} pages`);
          log(`${target.name} round ${r + 1}: ${m.summary.pages_fetched} pages in ${m.totalMs} ms, peak RSS ${mib(m.peakRss)} MiB`);
          measured.push(m);
        }
        const crawlMs = measured.map((m) => (m.summary.timings_ms.map ?? 0) + (m.summary.timings_ms.fetch ?? 0));
        results.push({
          database: target.name,
          rounds,
          pages: PAGES,
          bytes: measured[0]!.summary.bytes,
          counts: measured[0]!.summary.counts,
          crawl_pages_per_second: round(PAGES / (median(crawlMs) / 1000), 1),
          total_pages_per_second: round(PAGES / (median(measured.map((m) => m.totalMs)) / 1000), 1),
          median_ms: Object.fromEntries(
            ["map", "fetch", "extract", "summarize", "store"].map((stage) => [
              stage,
              median(measured.map((m) => m.summary.timings_ms[stage] ?? 0)),
            ]),
          ),
          median_total_ms: median(measured.map((m) => m.totalMs)),
          baseline_rss_mib: mib(baseline.rss),
          peak_rss_mib: mib(Math.max(...measured.map((m) => m.peakRss))),
          peak_heap_mib: mib(Math.max(...measured.map((m) => m.peakHeap))),
        });
      } finally {
        await db.close();
      }
    }
  } finally {
    await site.close();
  }
  const output = { machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => round(l, 2)), node: process.version }, results };
  writeResults(path.join(__dirname, "results", "extract.json"), output);
  const counts = (results[0]!.counts as Record<string, number>) ?? {};
  rewriteReadmeBlock(path.join(__dirname, "README.md"), "extract-results", [
    `${rounds} rounds per database, medians; ${output.machine.cpus} CPUs (load average at start ${output.machine.load.join(" ")}), Node ${process.version}; ` +
      `one run extracts ${Object.entries(counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(", ")}.`,
    "",
    "| database | pages/s (crawl: map + fetch + parse) | pages/s (whole run) | map / fetch / extract / summarize / store ms | peak RSS MiB (baseline) | peak heap MiB |",
    "|---|---|---|---|---|---|",
    ...results.map((r) => {
      const ms = r.median_ms as Record<string, number>;
      return `| ${r.database} | ${r.crawl_pages_per_second} | ${r.total_pages_per_second} | ${ms.map} / ${ms.fetch} / ${ms.extract} / ${ms.summarize} / ${ms.store} | ${r.peak_rss_mib} (${r.baseline_rss_mib}) | ${r.peak_heap_mib} |`;
    }),
  ]);
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
