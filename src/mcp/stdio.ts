/**
 * `edmarket mcp`: the MCP server over stdio for a local assistant. It opens the configured database
 * (DATABASE_URL, else the embedded one in DATA_DIR), refuses to start without a valid API key, and runs
 * every tool call on its own execution engine with the same limits, gating and errors as the HTTP server.
 * The embedded directory admits one process: when a running `serve` holds it, this process relays to that
 * service's /mcp instead (forward.ts; docs/mcp.md). Stdout carries only MCP messages; logs go to stderr.
 */
import crypto from "node:crypto";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Env } from "../config/env";
import type { Db } from "../db/client";
import { DataDirLockedError, dataDirHolder, type LockHolder } from "../db/data-dir-lock";
import { migrate } from "../db/migrate";
import { openDatabase } from "../db/open";
import { ApiKeyAuthenticator, presentedApiKey } from "../features/account/auth/api-key.service";
import { rekeyLegacyExtractionIds } from "../features/research/extraction/extraction.rekey";
import { createContext, type Context } from "../graphql/context";
import { ExecutionEngine } from "../graphql/execution";
import { boundedDb, commitWhile, RequestTimeoutError } from "../graphql/request-budget";
import { getSchema } from "../graphql/schema";
import type { JobQueue } from "../jobs/queue";
import { logger } from "../logger";
import { createMcpServer } from "./server";
import type { StdioSession } from "./session";
import type { McpHost } from "./tools";

/** A tool call's context: the key checked again (a revoked key stops working), and the request time budget. */
export function stdioHost(deps: {
  db: Db;
  env: Env;
  /** The job queue, or its start still under way (a call waits for it; the handshake does not). */
  jobs?: JobQueue | Promise<JobQueue | undefined>;
  apiKey: string;
  authenticator: ApiKeyAuthenticator;
}): McpHost {
  const engine = new ExecutionEngine(getSchema(), { maxCost: deps.env.GRAPHQL_MAX_COST, cacheSize: deps.env.GRAPHQL_COMPILED_CACHE_SIZE });
  return {
    engine,
    async context(): Promise<Context> {
      const viewer = await deps.authenticator.authenticate(`Bearer ${deps.apiKey}`);
      const budgetMs = deps.env.REQUEST_TIMEOUT_MS;
      const controller = new AbortController();
      const deadline = Date.now() + budgetMs;
      const timer = setTimeout(() => controller.abort(new RequestTimeoutError(budgetMs)), budgetMs);
      timer.unref();
      const spent = () => {
        if (!controller.signal.aborted && Date.now() >= deadline) controller.abort(new RequestTimeoutError(budgetMs));
        return controller.signal.aborted;
      };
      const db = boundedDb(deps.db, controller.signal, budgetMs, spent);
      const jobs = await deps.jobs;
      return createContext(
        { db, env: deps.env, jobs },
        viewer,
        `mcp-${crypto.randomUUID()}`,
        controller.signal,
        commitWhile(spent, controller.signal),
      );
    },
  };
}

/** The running service that holds the embedded DATA_DIR and serves HTTP, if any. */
function servingHolder(env: Env, locked?: LockHolder): LockHolder | undefined {
  if (env.DATABASE_URL) return undefined;
  const holder = locked ?? dataDirHolder(env.dataDir);
  return holder?.url ? holder : undefined;
}

export async function runMcpStdio(options: { env: Env; apiKey: string | undefined }): Promise<StdioSession> {
  const { env } = options;
  const relayTo = (holder: LockHolder) =>
    import("./forward").then(({ forwardMcpStdio }) => forwardMcpStdio({ url: holder.url!, apiKey: options.apiKey, holderPid: holder.pid }));
  const serving = servingHolder(env);
  if (serving) return relayTo(serving);
  // A missing or malformed key ends the command before the database is opened (as an unknown key does after).
  presentedApiKey(options.apiKey ? `Bearer ${options.apiKey}` : undefined);
  let db: Db;
  try {
    db = await openDatabase(env);
  } catch (error) {
    // Taken between the check and the open: the holder may be a service to relay to, or an admin command.
    const holder = error instanceof DataDirLockedError ? servingHolder(env, error.holder) : undefined;
    if (holder) return relayTo(holder);
    throw error;
  }
  let jobsStarted: Promise<{ queue: JobQueue; stop(): Promise<void> }> | undefined;
  const close = async () => {
    // A queue still starting is stopped once it has started.
    await jobsStarted?.then((jobs) => jobs.stop()).catch(() => undefined);
    await db.close().catch(() => undefined);
  };
  let transport: StdioServerTransport;
  let server: ReturnType<typeof createMcpServer>;
  try {
    await migrate(db);
    await rekeyLegacyExtractionIds(db);
    const authenticator = new ApiKeyAuthenticator(db, env.API_KEY_CACHE_SECONDS * 1000);
    // A missing or bad key ends the command here (exit 1, one JSON line on stderr), before any MCP message.
    await authenticator.authenticate(options.apiKey ? `Bearer ${options.apiKey}` : undefined);
    // Pending unlocks enqueue a job. The embedded database cannot be shared, so this process also works
    // the jobs there; with PostgreSQL the workers of `serve` do. The queue starts while the client's
    // handshake runs (a tool call waits for it): the handshake does not wait for pg-boss.
    jobsStarted = import("../compose-jobs").then(({ startServiceJobs }) => startServiceJobs(db, env, { work: db.kind === "embedded" }));
    const queue = jobsStarted.then((started) => started.queue);
    // Handled here (a failure is logged; a tool call needing the queue fails with it), never an unhandled rejection.
    queue.catch((error: unknown) => logger.error("mcp: the job queue did not start", { error: String(error) }));
    server = createMcpServer(stdioHost({ db, env, jobs: queue, apiKey: options.apiKey!, authenticator }));
    transport = new StdioServerTransport();
    await server.connect(transport);
  } catch (error) {
    await close();
    throw error;
  }
  logger.info("mcp server on stdio", { database: db.kind });
  let stopping: Promise<void> | undefined;
  // Deferred: transport.close() reports through server.onclose, which calls stop() again; `stopping` must be
  // set by then. (Called inside its own `??=`, it recursed until the stack overflowed: three RangeErrors per exit.)
  const stop = () =>
    (stopping ??= Promise.resolve()
      .then(() => transport.close())
      .then(close));
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => void stop().then(resolve);
    process.stdin.once("end", () => void stop().then(resolve));
  });
  return { closed, stop };
}
