import path from "node:path";
import { z } from "zod";

/** The service's whole configuration, read once from the environment. README's table mirrors this. */
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./.data"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  LOG_LEVEL: z.enum(["silent", "error", "warn", "info", "debug"]).default("info"),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(12),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(250_000),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(10_000),
  GRAPHQL_COMPILED_CACHE_SIZE: z.coerce.number().int().min(1).default(500),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(15_000),
  API_KEY_CACHE_SECONDS: z.coerce.number().min(0).default(5),
  SEED_ON_EMPTY: z.enum(["true", "false"]).optional(),
  /** Follow slots of a free organization (contract section 3); paid plans are unlimited. */
  FREE_FOLLOW_SLOTS: z.coerce.number().int().min(0).default(3),
  /** How long a pending unlock's hold may stay open before the sweeper releases it. */
  HOLD_TTL_SECONDS: z.coerce.number().int().min(1).default(1800),
  /** Attempts of an extraction job after the first, with exponential backoff from JOB_RETRY_DELAY_SECONDS. */
  JOB_RETRY_LIMIT: z.coerce.number().int().min(0).default(3),
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(5),
  /** How often the worker polls for jobs and sweeps expired holds. */
  WORKER_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
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
