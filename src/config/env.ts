import path from "node:path";
import { z } from "zod";
import { DEFAULT_POLICIES, parsePolicy } from "../features/account/rate-limits/rate-limit.policy";
import { parseCorsOrigins } from "../http/conventions";

function ratePolicy() {
  return z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        parsePolicy(value, DEFAULT_POLICIES.pro);
      } catch (error) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (error as Error).message });
      }
    });
}

/** The service's whole configuration, read once from the environment. README's table mirrors this. */
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./.data"),
  /**
   * The embedded database's buffer pool in a serving process (PostgreSQL's `shared_buffers`). PGlite reads every page
   * outside it through JavaScript file calls on the one thread, so the semantic search's HNSW index (260 MB at
   * 100,000 vectors) must fit (docs/semantic-search.md). Zeroed at the start: resident memory from then on.
   */
  EMBEDDED_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9][0-9]*(kB|MB|GB)$/, "a size such as 512MB")
    .default("512MB"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * "false": WebAssembly (the embedded database, Prisma's query compiler) stays on V8's baseline compiler (Liftoff) and
   * is never recompiled by the optimizing one (TurboFan) in the background. For processes that live seconds, such as an
   * admin command or a test's server: `db migrate` on an embedded data directory took 1.5 CPU-s instead of 2.8. A
   * serving process or a long ingest keeps the default (the first load of every file of data/: 18% more CPU on Liftoff).
   */
  WASM_TIER_UP: z.enum(["true", "false"]).default("true"),
  /** Prometheus metrics (GET /metrics) on this port, on HOST; unset: no metrics listener (docs/operations.md). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HOST: z.string().default("0.0.0.0"),
  LOG_LEVEL: z.enum(["silent", "error", "warn", "info", "debug"]).default("info"),
  /** Origins browsers may call the API from: `*`, or exact origins comma-separated; unset: none (docs/http-conventions.md). */
  CORS_ORIGINS: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      try {
        parseCorsOrigins(value);
      } catch (error) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (error as Error).message });
      }
    }),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(12),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(250_000),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(10_000),
  /** Field selections of an operation with its fragments expanded at every spread (docs/limits.md). */
  GRAPHQL_MAX_SELECTIONS: z.coerce.number().int().min(1).default(20_000),
  GRAPHQL_COMPILED_CACHE_SIZE: z.coerce.number().int().min(1).default(500),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(15_000),
  /**
   * An Idempotency-Key reservation whose request never finished (its process died) is taken over after this long
   * (src/graphql/idempotency.ts): longer than any request runs (its time budget, and the money path's transaction bounds).
   */
  IDEMPOTENCY_STALE_SECONDS: z.coerce.number().int().min(1).default(300),
  API_KEY_CACHE_SECONDS: z.coerce.number().min(0).default(5),
  /** Rows per page an export reads (0: the list's own maximum page size); docs/exports.md. */
  EXPORT_CHUNK_ROWS: z.coerce.number().int().min(0).default(0),
  /** Rows one CSV / NDJSON export may stream, per plan (docs/exports.md). */
  EXPORT_ROW_CAP_FREE: z.coerce.number().int().min(1).default(1_000),
  EXPORT_ROW_CAP_PRO: z.coerce.number().int().min(1).default(50_000),
  EXPORT_ROW_CAP_ENTERPRISE: z.coerce.number().int().min(1).default(500_000),
  EXPORT_ROW_CAP_INTERNAL: z.coerce.number().int().min(1).default(500_000),
  /** Rate limits per plan: `unlimited` or `rate=N burst=N concurrency=N cost_rate=N cost_burst=N` over the plan's defaults (docs/limits.md). */
  RATE_LIMIT_FREE: ratePolicy(),
  RATE_LIMIT_PRO: ratePolicy(),
  RATE_LIMIT_ENTERPRISE: ratePolicy(),
  RATE_LIMIT_INTERNAL: ratePolicy(),
  // A key that keeps sending while refused: its refusals are held this long at most (0: never), this many at once per key.
  RATE_LIMIT_HOLD_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
  RATE_LIMIT_HOLD_MAX: z.coerce.number().int().min(0).default(64),
  // Operations of at least this query cost run this many at once per process, keys taking turns (0: unscheduled).
  EXPENSIVE_OPERATION_COST: z.coerce.number().int().min(1).default(10_000),
  EXPENSIVE_OPERATION_SLOTS: z.coerce.number().int().min(0).default(1),
  SEED_ON_EMPTY: z.enum(["true", "false"]).optional(),
  /** Follow slots of a free organization (contract section 3); paid plans are unlimited. */
  FREE_FOLLOW_SLOTS: z.coerce.number().int().min(0).default(3),
  /** Days a free follow slot stays used after the follow began, even if unfollowed sooner (contract section 7). */
  FOLLOW_SLOT_MIN_DAYS: z.coerce.number().int().min(0).default(30),
  /** How long a pending unlock's hold may stay open before the sweeper releases it. */
  HOLD_TTL_SECONDS: z.coerce.number().int().min(1).default(1800),
  /** Attempts of an extraction job after the first, with exponential backoff from JOB_RETRY_DELAY_SECONDS. */
  JOB_RETRY_LIMIT: z.coerce.number().int().min(0).default(3),
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(5),
  /** A running job's heartbeat: a job whose worker died (no heartbeat for this long) is retried by another worker. */
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).default(30),
  /** How often the worker polls for jobs and sweeps expired holds. */
  WORKER_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
  // ---- extraction pipeline (docs/extraction.md)
  /** Sent with every crawler request; names the product. */
  EXTRACTION_USER_AGENT: z.string().min(1).default("edmarket-crawler/0.1 (education market data; honours robots.txt)"),
  /** Pages and documents fetched per site (robots.txt and sitemaps not counted). */
  EXTRACTION_MAX_PAGES: z.coerce.number().int().min(1).default(60),
  /** Link depth from the site root (sitemap URLs count as depth 1). */
  EXTRACTION_MAX_DEPTH: z.coerce.number().int().min(0).default(3),
  /** Bytes of one response body (after decompression); larger responses are cut off and recorded as errors. */
  EXTRACTION_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(5 * 1024 * 1024),
  EXTRACTION_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
  /** Longest silence while waiting for response headers or the next bytes of the body. */
  EXTRACTION_READ_TIMEOUT_MS: z.coerce.number().int().min(1).default(15_000),
  EXTRACTION_MAX_REDIRECTS: z.coerce.number().int().min(0).default(5),
  /** Pause between two requests to one host (a robots.txt Crawl-delay up to 30 s raises it). */
  EXTRACTION_HOST_DELAY_MS: z.coerce.number().int().min(0).default(500),
  /** Wall-clock budget of one site's crawl; when spent, the crawl stops and extraction uses what it has. */
  EXTRACTION_SITE_BUDGET_SECONDS: z.coerce.number().int().min(1).default(600),
  /** Sitemap URLs read per site (sitemap indexes followed one level). */
  EXTRACTION_MAX_SITEMAP_URLS: z.coerce.number().int().min(0).default(5_000),
  /** Whether the crawler may connect to loopback, private and link-local addresses (tests, intranets). */
  EXTRACTION_ALLOW_PRIVATE_HOSTS: z.enum(["true", "false"]).default("false"),
  /** Entities without a website_url get the demo extraction (rows data_source "demo"); false: they end in error. */
  EXTRACTION_DEMO_FALLBACK: z.enum(["true", "false"]).default("true"),
  // ---- webhooks (docs/webhooks.md)
  /** Attempts of one delivery (the first included) before it is marked failed. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** Wait before the second attempt; each later wait doubles (30 s, 1 min, 2 min ... about 1 h over 8 attempts). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.1).default(30),
  /** Failed attempts in a row (any delivery of the webhook) after which the webhook is disabled. */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(15),
  /** Time one delivery attempt may take (connect, send, response headers) before it counts as failed. */
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.5).default(10),
  // ---- semantic search (docs/semantic-search.md)
  /** Embed the catalogue in the background (the worker's sweep sends a low-priority job); false: only what is embedded explicitly. */
  EMBEDDINGS_AUTO: z.enum(["true", "false"]).default("true"),
  /** An OpenAI-compatible embeddings endpoint (POST {url}/embeddings); unset: the offline Universal Sentence Encoder lite (512 dims). */
  EMBEDDINGS_BASE_URL: z.string().url().optional(),
  /** The endpoint's model name (with EMBEDDINGS_BASE_URL); recorded with every vector, so another model embeds again. */
  EMBEDDINGS_MODEL: z.string().trim().min(1).max(200).default("text-embedding-3-small"),
  /** Bearer token of the endpoint (with EMBEDDINGS_BASE_URL). */
  EMBEDDINGS_API_KEY: z.string().optional(),
  /** Texts embedded per batch: one batch blocks the event loop about 12 ms per text with the offline model. */
  EMBEDDINGS_BATCH_SIZE: z.coerce.number().int().min(1).max(512).default(16),
  /** How long one background embedding job works (seconds); one is sent per period of twice this (at least 10 s): about half a core. */
  EMBEDDINGS_JOB_SECONDS: z.coerce.number().min(1).max(900).default(5),
  // ---- news ingest (docs/signals.md, "Sources and ingest")
  /** How often the worker polls each registered news feed (a conditional GET: an unchanged feed costs one request). */
  NEWS_POLL_MINUTES: z.coerce.number().min(1).default(60),
  /** After a failed poll the feed is tried again this many minutes later, doubled per consecutive failure, at most NEWS_POLL_MINUTES. */
  NEWS_RETRY_MINUTES: z.coerce.number().min(0.01).default(5),
  /** Whom an organization without a paid module asks for it (the 403 entitlement_required body's `contact`). */
  SALES_CONTACT: z.string().trim().min(3).max(200).default("sales@edmarket.example"),
  /** Item pages fetched and read at once by one feed ingest (requests to one host still take turns). */
  NEWS_FETCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** Pause between two news-ingest requests to one host (a robots.txt Crawl-delay up to 30 s raises it). */
  NEWS_HOST_DELAY_MS: z.coerce.number().int().min(0).default(0),
  // ---- text generation (src/features/research/text-generation): unset = the extractive provider, no language model
  /** Base URL of an OpenAI-compatible API (`.../v1`); its `/chat/completions` is called. */
  TEXT_GENERATION_BASE_URL: z.string().url().optional(),
  TEXT_GENERATION_API_KEY: z.string().optional(),
  TEXT_GENERATION_MODEL: z.string().default("gpt-4o-mini"),
  TEXT_GENERATION_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
});

export type Env = z.infer<typeof EnvSchema> & { dataDir: string };

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid configuration: ${problems}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
