/**
 * Semantic search (issue 24, docs/semantic-search.md): relevance on the judged set and latency at 100,000 vectors.
 *
 * 1. Relevance: the real catalogue (every data file the first start loads, by `seedDemo`, the demo layer included) in
 *    `edm_semantic_bench` on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; reused while its
 *    district count is right), plus the 171 labelled news items of bench/labelled/news as articles linked to the
 *    districts they are labelled with (the bench gives the search perfect entity resolution of news: it measures
 *    retrieval, not the news pipeline). Everything is embedded with the offline model (resumable: vectors persist).
 *    Each query of bench/relevance/semantic-queries.json runs through the service's ranking (`rankEntities`) with
 *    lexical retrieval only, vectors only, and both fused (hybrid); recall@10 and nDCG@10 as its README defines,
 *    per split and kind.
 * 2. Latency: 100,000 synthetic districts with random unit vectors (512 dimensions) on embedded PGlite (pgvector HNSW)
 *    and on PostgreSQL (exact cosine over real[] when pgvector is absent), p50/p95 of the ranking statement (hybrid,
 *    limit 10, random query vectors); and HNSW recall@10 against exact search (the index disabled) on PGlite.
 *
 *   node scripts/run-ts.js bench/semantic.ts [--skip-relevance] [--skip-latency] [--vectors N] [--kinds district,contact,news]
 *                                            [--latency-on embedded|postgres] [--no-embed]
 *
 * --kinds scores only those kinds of queries and embeds only the entity types they need (all schools take
 * about 101,000 texts, 20 minutes of one core with the offline model; news queries answer districts).
 *
 * BENCH_SMOKE=1: a few districts and 500 vectors on embedded only, three queries; writes nothing.
 */
import "reflect-metadata";
import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { createDb, type Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { embeddingProvider, normalize, type EmbeddingProvider } from "../src/features/research/semantic-search/embeddings.provider";
import { embedPending } from "../src/features/research/semantic-search/semantic-search.indexer";
import { SemanticSearchEntityType } from "../src/features/research/semantic-search/semantic-search.inputs";
import { rankEntities, type RetrievalMode } from "../src/features/research/semantic-search/semantic-search.service";
import { ensureVectorIndex } from "../src/features/research/semantic-search/vector-index";
import { log, rewriteReadmeBlock, round, SMOKE, writeResults } from "./harness";

const args = process.argv.slice(2);
const SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "edm_semantic_bench";
const VECTORS = SMOKE ? 500 : args.includes("--vectors") ? Number(args[args.indexOf("--vectors") + 1]) : 100_000;
const MODES: RetrievalMode[] = ["lexical", "vector", "hybrid"];
const LATENCY_ON = args.includes("--latency-on") ? [args[args.indexOf("--latency-on") + 1]!] : ["embedded", "postgres"];
const KINDS = args.includes("--kinds") ? args[args.indexOf("--kinds") + 1]!.split(",") : ["district", "school", "contact", "news"];
/** An organization id that unlocked nothing: the bench searches as a new customer. */
const NOBODY = "00000000-0000-4000-8000-000000000000";

interface Relevant {
  entity_type: "district" | "school" | "contact";
  fed_id?: string;
  name?: string;
  district_fed_id?: string | null;
  school_fed_id?: string | null;
  source_url?: string;
  grade: number;
}
interface Query {
  id: string;
  split: "dev" | "heldout";
  query: string;
  entity_type: "district" | "school" | "contact" | null;
  filters?: { state?: string; district_fed_id?: string; school_fed_id?: string };
  relevant: Relevant[];
}

const withServer = async <T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> => {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
};
const databaseUrl = (name: string) => {
  const u = new URL(SERVER);
  u.pathname = `/${name}`;
  return u.toString();
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

// ------------------------------------------------------------------------------------------ relevance

async function relevanceDb(): Promise<Db> {
  const exists = await withServer(
    SERVER,
    async (c) => (await c.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [DATABASE])).rowCount,
  );
  if (!exists) await withServer(SERVER, (c) => c.query(`CREATE DATABASE "${DATABASE}"`));
  const db = await createDb({ databaseUrl: databaseUrl(DATABASE), poolSize: 4 });
  await migrate(db);
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM districts`);
  if (n < 19_000) {
    log(`loading the catalogue into ${DATABASE} (every first-start file; about a minute)`);
    const { seedDemo } = await import("../src/seed");
    await seedDemo(db, { progress: false });
  }
  await loadNews(db);
  return db;
}

/** The labelled news items as articles of the districts they are labelled with (idempotent by URL). */
async function loadNews(db: Db): Promise<void> {
  const file = path.join(packageRoot, "bench/labelled/news/items.jsonl");
  const items = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map(
      (line) => JSON.parse(line) as { url: string; headline: string; summary: string; published_at: string; truth: { leaids: string[] } },
    );
  for (const item of items) {
    const [article] = await db.query<{ id: string }>(
      `INSERT INTO articles (url, title, text, published_at, data_source, origin) VALUES ($1, $2, $3, $4::timestamptz, 'bench', 'cli')
       ON CONFLICT (url) DO UPDATE SET title = excluded.title RETURNING id`,
      [item.url, item.headline, item.summary, item.published_at],
    );
    await db.query(
      `INSERT INTO signals (article_id, signal_type, buying_intent, district_id, data_source)
       SELECT $1::uuid, 'other', 'none', d.id, 'bench' FROM districts d
        WHERE d.fed_id = ANY($2::text[]) AND NOT EXISTS (SELECT 1 FROM signals s WHERE s.article_id = $1::uuid AND s.district_id = d.id)`,
      [article!.id, item.truth.leaids],
    );
  }
}

/** recall@10 and nDCG@10 of one ranked list (keys) against the judged records (README "How a bench should score it"). */
function score(keys: string[], relevant: Map<string, number>): { recall: number; ndcg: number } {
  const top = keys.slice(0, 10);
  const found = top.filter((k) => relevant.has(k)).length;
  const dcg = top.reduce((sum, k, i) => sum + (relevant.get(k) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...relevant.values()]
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  return { recall: found / relevant.size, ndcg: ideal ? dcg / ideal : 0 };
}

const keyOf = (r: {
  entity_type: string;
  fed_id?: string | null;
  name?: string | null;
  district_fed_id?: string | null;
  school_fed_id?: string | null;
}) =>
  r.entity_type === "contact" ? `contact:${r.name}|${r.district_fed_id ?? ""}|${r.school_fed_id ?? ""}` : `${r.entity_type}:${r.fed_id}`;

async function relevance(db: Db, provider: EmbeddingProvider, queries: Query[]) {
  const started = Date.now();
  // --no-embed scores what is embedded now (coverage is reported with the figures).
  for (; !args.includes("--no-embed");) {
    const only = (["district", "school", "contact"] as const).filter(
      (k) => KINDS.includes(k) || (k === "district" && KINDS.includes("news")),
    );
    const report = await embedPending(db, provider, { batchSize: 64, deadline: Date.now() + 60_000, only });
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM embeddings WHERE model = $1`, [provider.model]);
    log(`embedded ${n} texts so far (+${report.embedded}, ${Math.round((Date.now() - started) / 1000)} s)`);
    if (!report.more) break;
  }
  const ids = async (sql: string, values: unknown[]) => (await db.query<{ id: string }>(sql, values))[0]?.id ?? null;
  const rows: { id: string; split: string; kind: string; mode: RetrievalMode; recall: number; ndcg: number; ms: number }[] = [];
  for (const q of queries.filter((query) => KINDS.includes(query.entity_type ?? "news"))) {
    const entityType = (q.entity_type ?? "district") as SemanticSearchEntityType;
    const filters = {
      state: q.filters?.state ?? null,
      districtId: q.filters?.district_fed_id ? await ids(`SELECT id FROM districts WHERE fed_id = $1`, [q.filters.district_fed_id]) : null,
      schoolId: q.filters?.school_fed_id ? await ids(`SELECT id FROM schools WHERE fed_id = $1`, [q.filters.school_fed_id]) : null,
    };
    const relevant = new Map<string, number>();
    for (const r of q.relevant) relevant.set(keyOf(r), Math.max(r.grade, relevant.get(keyOf(r)) ?? 0));
    for (const mode of MODES) {
      const t0 = performance.now();
      const ranked = await rankEntities(db, NOBODY, provider, { query: q.query, entityType, filters, limit: 10 }, mode);
      const ms = performance.now() - t0;
      const hitIds = ranked.map((r) => r.entity_id).filter((id): id is string => id !== null);
      const keys = await db.query<{ id: string; key: string }>(
        entityType === "contact"
          ? `SELECT c.id, 'contact:' || c.name || '|' || coalesce(d.fed_id, sd.fed_id, '') || '|' || coalesce(s.fed_id, '') AS key
               FROM contacts c LEFT JOIN schools s ON s.id = c.school_id LEFT JOIN districts d ON d.id = c.district_id
               LEFT JOIN districts sd ON sd.id = s.district_id WHERE c.id = ANY($1::uuid[])`
          : `SELECT id, '${entityType}:' || fed_id AS key FROM ${entityType === "school" ? "schools" : "districts"} WHERE id = ANY($1::uuid[])`,
        [hitIds],
      );
      const byId = new Map(keys.map((k) => [k.id, k.key]));
      const { recall, ndcg } = score(
        hitIds.map((id) => byId.get(id) ?? id),
        relevant,
      );
      rows.push({ id: q.id, split: q.split, kind: q.entity_type ?? "news", mode, recall, ndcg, ms });
    }
  }
  const summary: Record<string, Record<string, Record<string, { n: number; recall_at_10: number; ndcg_at_10: number }>>> = {};
  for (const split of ["dev", "heldout"])
    for (const kind of ["all", "district", "school", "contact", "news"])
      for (const mode of MODES) {
        const of = rows.filter((r) => r.split === split && r.mode === mode && (kind === "all" || r.kind === kind));
        if (!of.length) continue;
        const mean = (f: (r: (typeof of)[number]) => number) => round(of.reduce((s, r) => s + f(r), 0) / of.length, 3);
        ((summary[split] ??= {})[kind] ??= {})[mode] = {
          n: of.length,
          recall_at_10: mean((r) => r.recall),
          ndcg_at_10: mean((r) => r.ndcg),
        };
      }
  const hybridMs = rows.filter((r) => r.mode === "hybrid").map((r) => r.ms);
  const coverage = await db.query<{ entity_type: string; embedded: number; total: number }>(
    `SELECT t.entity_type, (SELECT count(*) FROM embeddings e WHERE e.entity_type = t.entity_type AND e.source_type = 'profile' AND e.model = $1)::int AS embedded,
            t.total FROM (SELECT 'district' AS entity_type, count(*)::int AS total FROM districts
                          UNION ALL SELECT 'school', count(*)::int FROM schools UNION ALL SELECT 'contact', count(*)::int FROM contacts) t`,
    [provider.model],
  );
  return {
    coverage,
    summary,
    real_catalogue_hybrid_ms: { p50: round(percentile(hybridMs, 50), 1), p95: round(percentile(hybridMs, 95), 1) },
    rows,
  };
}

// ------------------------------------------------------------------------------------------ latency

/** Random unit vectors: the synthetic corpus and queries (seeded mulberry32, so both databases get the same ones). */
function randomVector(seed: number, dimension = 512): number[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  return normalize(Array.from({ length: dimension }, next));
}

const SYNTHETIC = "bench-synthetic-512";

async function fillSynthetic(db: Db, n: number): Promise<void> {
  const [{ have }] = await db.query<{ have: number }>(`SELECT count(*)::int AS have FROM embeddings WHERE model = $1`, [SYNTHETIC]);
  if (have >= n) return;
  const states = ["NE", "IA", "FL", "CA", "TX", "IL", "WA", "MI"];
  for (let start = have; start < n; start += 1000) {
    const count = Math.min(1000, n - start);
    const range = Array.from({ length: count }, (_, i) => start + i);
    const ids = await db.query<{ id: string }>(
      `INSERT INTO districts (fed_id, name, state, data_source, status)
       SELECT 'S' || g, 'Synthetic District ' || g, ($2::text[])[1 + g % 8], 'bench', 'completed' FROM unnest($1::int[]) g
       RETURNING id`,
      [range, states],
    );
    await db.query(
      `INSERT INTO embeddings (entity_type, entity_id, source_type, source_id, content, model, vector, dimension, state, district_id)
       SELECT 'district', t.id, 'profile', 'profile', 'synthetic ' || t.g, $1, t.v::real[], 512, ($4::text[])[1 + t.g % 8], t.id
         FROM unnest($2::uuid[], $3::text[], $5::int[]) AS t(id, v, g)`,
      [SYNTHETIC, ids.map((r) => r.id), range.map((g) => `{${randomVector(g).join(",")}}`), states, range],
    );
    if ((start / 1000) % 20 === 0) log(`  ${start + count} synthetic vectors`);
  }
}

async function latency(db: Db, label: string, queries = SMOKE ? 5 : 60) {
  const t0 = Date.now();
  await fillSynthetic(db, VECTORS);
  const indexStarted = Date.now();
  await ensureVectorIndex(db, SYNTHETIC, 512);
  const indexMs = Date.now() - indexStarted;
  log(`${label}: ${VECTORS} vectors ready in ${Math.round((Date.now() - t0) / 1000)} s (index ${Math.round(indexMs / 1000)} s)`);
  let q = 0;
  const provider: EmbeddingProvider = { model: SYNTHETIC, embed: async (texts) => texts.map(() => randomVector(10_000_000 + q++)) };
  const ms: number[] = [];
  for (let i = 0; i < queries + 3; i++) {
    const started = performance.now();
    await rankEntities(db, NOBODY, provider, {
      query: `synthetic district ${i}`,
      entityType: SemanticSearchEntityType.district,
      filters: { state: null, districtId: null, schoolId: null },
      limit: 10,
    });
    if (i >= 3) ms.push(performance.now() - started); // three warm-up searches
  }
  const filtered: number[] = [];
  for (let i = 0; i < Math.min(queries, 20); i++) {
    const started = performance.now();
    await rankEntities(db, NOBODY, provider, {
      query: `synthetic district ${i}`,
      entityType: SemanticSearchEntityType.district,
      filters: { state: "NE", districtId: null, schoolId: null },
      limit: 10,
    });
    filtered.push(performance.now() - started);
  }
  return {
    vectors: VECTORS,
    index: db.hasVector ? "hnsw" : "exact",
    index_build_s: round(indexMs / 1000, 1),
    p50_ms: round(percentile(ms, 50), 1),
    p95_ms: round(percentile(ms, 95), 1),
    state_filtered_p50_ms: round(percentile(filtered, 50), 1),
    state_filtered_p95_ms: round(percentile(filtered, 95), 1),
  };
}

/** HNSW recall@10 against exact search (the same statement with index scans disabled). */
async function hnswRecall(db: Db, queries = SMOKE ? 3 : 50): Promise<number> {
  let total = 0;
  for (let i = 0; i < queries; i++) {
    const v = `{${randomVector(20_000_000 + i).join(",")}}`;
    const sql = `SELECT e.entity_id FROM embeddings e WHERE e.model = '${SYNTHETIC}' AND e.dimension = 512
                  ORDER BY (e.vector::vector(512)) <=> $1::real[]::vector(512) LIMIT 10`;
    const approx = await db.transaction(async (tx) => {
      await tx.exec(`SET LOCAL hnsw.ef_search = 100`);
      return tx.query<{ entity_id: string }>(sql, [v]);
    });
    const exact = await db.transaction(async (tx) => {
      await tx.exec(`SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off`);
      return tx.query<{ entity_id: string }>(sql, [v]);
    });
    const truth = new Set(exact.map((r) => r.entity_id));
    total += approx.filter((r) => truth.has(r.entity_id)).length / truth.size;
  }
  return round(total / queries, 3);
}

// ------------------------------------------------------------------------------------------ main

async function main(): Promise<void> {
  const results: Record<string, unknown> = { model: "", vectors: VECTORS, kinds: KINDS };
  const provider = embeddingProvider({ EMBEDDINGS_MODEL: "unused" });
  results.model = provider.model;
  const queries = (
    JSON.parse(fs.readFileSync(path.join(packageRoot, "bench/relevance/semantic-queries.json"), "utf8")) as { queries: Query[] }
  ).queries;
  if (!args.includes("--skip-relevance") && !SMOKE) {
    const db = await relevanceDb();
    try {
      results.relevance = await relevance(db, provider, queries);
    } finally {
      await db.close();
    }
  }
  if (SMOKE) {
    // Seconds: a few real districts embedded in memory, three queries through each mode.
    const db = await createDb({ dataDir: "memory://" });
    await migrate(db);
    for (const [fed, name, state] of [
      ["3174820", "Omaha Public Schools", "NE"],
      ["0622710", "Los Angeles Unified", "CA"],
    ])
      await db.query(`INSERT INTO districts (fed_id, name, state, data_source) VALUES ($1, $2, $3, 'bench')`, [fed, name, state]);
    await embedPending(db, provider, { batchSize: 8 });
    for (const q of queries.slice(0, 3))
      for (const mode of MODES)
        await rankEntities(
          db,
          NOBODY,
          provider,
          {
            query: q.query,
            entityType: SemanticSearchEntityType.district,
            filters: { state: null, districtId: null, schoolId: null },
            limit: 10,
          },
          mode,
        );
    results.smoke_embedded = await latency(db, "embedded (smoke)");
    results.smoke_hnsw_recall_at_10 = await hnswRecall(db);
    await db.close();
  } else if (!args.includes("--skip-latency")) {
    if (LATENCY_ON.includes("embedded")) {
      const dir = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "edm-semantic-bench-"));
      const embedded = await createDb({ dataDir: dir });
      try {
        await migrate(embedded);
        results.latency_embedded = await latency(embedded, "embedded");
        results.hnsw_recall_at_10 = await hnswRecall(embedded);
      } finally {
        await embedded.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  if (!SMOKE && !args.includes("--skip-latency") && LATENCY_ON.includes("postgres")) {
    const name = "edm_semantic_bench_latency";
    await withServer(SERVER, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.query(`CREATE DATABASE "${name}"`);
    });
    const pg = await createDb({ databaseUrl: databaseUrl(name), poolSize: 2 });
    try {
      await migrate(pg);
      results.latency_postgres = await latency(pg, `postgres (${pg.hasVector ? "pgvector" : "no pgvector: exact"})`, 20);
    } finally {
      await pg.close();
      await withServer(SERVER, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }
  // A latency-only run keeps its own file, so the relevance run's results stay.
  const out = path.join(
    packageRoot,
    `bench/results/semantic${args.includes("--skip-relevance") ? `-latency-${LATENCY_ON.join("-")}` : ""}.json`,
  );
  writeResults(out, { measured_at: new Date().toISOString(), ...results });
  const { rows: _rows, ...relevanceSummary } = (results.relevance ?? {}) as Record<string, unknown>;
  process.stdout.write(`${JSON.stringify({ ...results, relevance: relevanceSummary }, null, 2)}\n`);
  if (!SMOKE && results.relevance) rewriteReadmeBlock(path.join(packageRoot, "bench/README.md"), "semantic", readmeLines(results));
}

function readmeLines(results: Record<string, unknown>): string[] {
  const rel = results.relevance as {
    summary: Record<string, Record<string, Record<string, { n: number; recall_at_10: number; ndcg_at_10: number }>>>;
  };
  const lines = [
    "| split | kind | n | lexical R@10 / nDCG@10 | vectors R@10 / nDCG@10 | hybrid R@10 / nDCG@10 |",
    "|---|---|---:|---|---|---|",
  ];
  for (const [split, kinds] of Object.entries(rel.summary))
    for (const [kind, modes] of Object.entries(kinds)) {
      const cell = (m: string) => (modes[m] ? `${modes[m].recall_at_10} / ${modes[m].ndcg_at_10}` : "");
      lines.push(`| ${split} | ${kind} | ${modes.hybrid?.n ?? ""} | ${cell("lexical")} | ${cell("vector")} | ${cell("hybrid")} |`);
    }
  return lines;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
