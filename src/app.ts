/**
 * The HTTP application: request ids, body limits, health, authentication, GraphQL at /graphql (Apollo
 * Server) and, when the composition root passes one, the REST adapter at /api/v1. Both run operations
 * through the one execution engine (graphql/execution.ts): same compiled path, limits and error model.
 */
import crypto from "node:crypto";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import type { GatewayInterface } from "@apollo/server-gateway-interface";
import { expressMiddleware } from "@as-integrations/express5";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Env } from "./config/env";
import type { Db } from "./db/client";
import { ApiKeyAuthenticator } from "./features/account/auth/api-key.service";
import type { Viewer } from "./features/account/auth/viewer";
import { createContext, type Context } from "./graphql/context";
import { AppError, clip, httpError, maskError } from "./graphql/errors";
import { ExecutionEngine, type RestAdapterFactory } from "./graphql/execution";
import type { IdempotencyHooks } from "./graphql/idempotency";
import { limitRules } from "./graphql/limits";
import type { JobQueue } from "./jobs/queue";
import { startRequestBudget } from "./graphql/request-budget";
import { getSchema } from "./graphql/schema";
import { browserPages } from "./http/pages";
import { bearerChallenge, compressResponses, cors, methodNotAllowed, parseCorsOrigins } from "./http/conventions";
import { logger, withRequestContext } from "./logger";
import { routeLabel, type Metrics } from "./observability/metrics";
import { checkReadiness, type WorkerHealth } from "./observability/readiness";
import { mcpRouter } from "./mcp/http";
import { controlChannel } from "./db/control";
import { mcpCalls, rateLimit, requestUsage } from "./features/account/rate-limits/rate-limit.middleware";
import { RefusalHold } from "./features/account/rate-limits/rate-limit.hold";
import { OperationScheduler } from "./features/account/rate-limits/rate-limit.scheduler";
import { meteredEngine } from "./features/account/rate-limits/rate-limit.metering";
import { policiesFromEnv } from "./features/account/rate-limits/rate-limit.policy";
import { RateLimiter } from "./features/account/rate-limits/rate-limit.service";

export interface AppDeps {
  db: Db;
  env: Env;
  rest?: RestAdapterFactory;
  /** The job queue (sending only unless this process is also a worker). */
  jobs?: JobQueue;
  /** This process's worker loop, when it works jobs (readiness reports it). */
  worker?: () => WorkerHealth;
  /** Request metrics, when METRICS_PORT is set (src/observability/metrics.ts). */
  metrics?: Metrics;
  /** The Idempotency-Key kit's test seam (src/graphql/idempotency.ts): tests hold a request open with it; production passes none. */
  idempotency?: IdempotencyHooks;
}

export interface App {
  app: express.Express;
  apollo: ApolloServer<Context>;
  engine: ExecutionEngine;
  stop(): Promise<void>;
}

export async function createApp(deps: AppDeps): Promise<App> {
  const { db, env } = deps;
  const schema = getSchema();
  const rules = limitRules({
    maxDepth: env.GRAPHQL_MAX_DEPTH,
    maxAliases: env.GRAPHQL_MAX_ALIASES,
    maxSelections: env.GRAPHQL_MAX_SELECTIONS,
  });
  const engine = new ExecutionEngine(schema, {
    maxCost: env.GRAPHQL_MAX_COST,
    cacheSize: env.GRAPHQL_COMPILED_CACHE_SIZE,
    idempotency: deps.idempotency,
  });
  // Expensive operations of every key take turns (round-robin over keys) in this process.
  const scheduler = new OperationScheduler({ slots: env.EXPENSIVE_OPERATION_SLOTS, threshold: env.EXPENSIVE_OPERATION_COST });
  const apollo = new ApolloServer<Context>({
    gateway: compiledExecution(engine),
    // The parser stops at this many tokens: every later walk (validation, cost) is bounded by it.
    parseOptions: { maxTokens: env.GRAPHQL_MAX_TOKENS },
    validationRules: rules,
    includeStacktraceInErrorResponses: false,
    // serve() drains requests and closes the database on SIGTERM/SIGINT; Apollo's own handler would
    // re-send the signal and end the process before the database is closed.
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginLandingPageDisabled(), operationAdmission(engine, scheduler)],
    formatError: (formatted, error) => maskError(formatted, error),
    logger: { debug() {}, info() {}, warn: (m) => logger.warn(String(m)), error: (m) => logger.error(String(m)) },
  });
  await apollo.start();
  const authenticator = new ApiKeyAuthenticator(db, env.API_KEY_CACHE_SECONDS * 1000);
  // Rate limits and deadline cancels use a side channel to the database (src/db/control.ts). A lease outlives
  // its request's budget by a margin, so only a crashed process's leases ever expire instead of being released.
  const control = controlChannel(db);
  const limiter = new RateLimiter(control, policiesFromEnv(env), env.REQUEST_TIMEOUT_MS / 1000 + 5);
  const hold = new RefusalHold({ ms: env.RATE_LIMIT_HOLD_MS, perKey: env.RATE_LIMIT_HOLD_MAX, total: 4_096 });
  const limited = rateLimit(limiter, undefined, hold);

  const app = express();
  app.disable("x-powered-by");
  // ETags only where they are computed on purpose (detail reads, rest-adapter/router.ts), not on every body.
  app.set("etag", false);
  app.set("query parser", "simple");
  app.use(requestId);
  app.use(accessLog);
  if (deps.metrics) app.use(deps.metrics.record);
  app.use(compressResponses());
  app.use(cors(parseCorsOrigins(env.CORS_ORIGINS)));
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const { httpStatus, body } = await checkReadiness({ db, jobs: deps.jobs !== undefined, worker: deps.worker });
    res.status(httpStatus).json(body);
  });
  app.all(["/healthz", "/readyz"], methodNotAllowed(["GET", "HEAD", "OPTIONS"]));

  const json = [express.json({ limit: "1mb", type: () => true }), bodyDepthLimit];
  const authenticate = async (req: Request, res: Response, next: NextFunction) => {
    // Every answer depends on the caller's key: a cache must never give one caller's response to another.
    res.vary("Authorization");
    try {
      res.locals.viewer = await authenticator.authenticate(req.headers.authorization);
      next();
    } catch (error) {
      next(error);
    }
  };
  const contextFor = (req: Request, res: Response, fresh?: "fresh"): Context => {
    // One budget per HTTP request, however many operations it runs (an MCP batch's calls share it); an export's
    // later pages each replace it with one counting from now (RestAdapterHost.contextFor).
    if (fresh && res.locals.budget) {
      (res.locals.budget as ReturnType<typeof startRequestBudget>).release();
      res.locals.budget = undefined;
    }
    const budget = (res.locals.budget ??= startRequestBudget(db, env.REQUEST_TIMEOUT_MS, req, res, {
      startedAt: fresh ? Date.now() : (res.locals.startedAt as number | undefined),
      cancel: (pid) => control.cancel(pid),
      onDeadline: (error) => answerAtDeadline(req, res, error),
    })) as ReturnType<typeof startRequestBudget>;
    const context = createContext(
      { db: budget.db, env, jobs: deps.jobs },
      res.locals.viewer as Viewer,
      String(res.locals.requestId),
      budget.signal,
      budget.commit,
    );
    context.usage = requestUsage(res);
    return context;
  };

  // GraphiQL (GET /graphql from a browser) and /docs: pages and their bundled assets, no key needed.
  app.use(browserPages());
  // Apollo would answer other methods 405 in GraphQL's error format: the generic body and Allow instead.
  const graphqlMethodNotAllowed = methodNotAllowed(["GET", "POST", "OPTIONS"]);
  app.all("/graphql", (req, res, next) => {
    if (req.method !== "GET" && req.method !== "POST") return graphqlMethodNotAllowed(req, res, next);
    res.locals.route = "/graphql"; // the metrics' and access log's route label (this route and Apollo's mount would read /graphql/graphql)
    next();
  });
  app.use("/graphql", authenticate, limited, json, expressMiddleware(apollo, { context: async ({ req, res }) => contextFor(req, res) }));
  // MCP over streamable HTTP (src/mcp/): its tools run fixed GraphQL operations on the same engine, behind the same key.
  // MCP counts each call of a JSON-RPC batch, so the body is read before the limiter.
  app.use(
    "/mcp",
    authenticate,
    json,
    rateLimit(limiter, mcpCalls, hold),
    mcpRouter({ engine: meteredEngine(engine, scheduler), contextFor }),
  );
  if (deps.rest) {
    const rest = deps.rest({
      engine: meteredEngine(engine, scheduler),
      contextFor,
      exports: {
        chunkRows: env.EXPORT_CHUNK_ROWS,
        rowCaps: {
          free: env.EXPORT_ROW_CAP_FREE,
          pro: env.EXPORT_ROW_CAP_PRO,
          enterprise: env.EXPORT_ROW_CAP_ENTERPRISE,
          internal: env.EXPORT_ROW_CAP_INTERNAL,
        },
      },
    });
    if (rest.open) app.use("/api/v1", rest.open);
    app.use("/api/v1", authenticate, limited, json, rest.router);
  }

  app.use((req, res) => {
    res.status(404).json(httpError("NOT_FOUND", `no route for ${req.method} ${clip(req.path)}`));
  });
  app.use(errorHandler);

  return {
    app,
    apollo,
    engine,
    async stop() {
      await apollo.stop();
      await limiter.close();
    },
  };
}

/**
 * Apollo's gateway interface is its documented seam for a custom executor: the schema is ours, and
 * execution goes to the compiled engine instead of graphql-js.
 */
function compiledExecution(engine: ExecutionEngine): GatewayInterface {
  return {
    async load() {
      return {
        executor: (request) =>
          engine.executeGraphQL({
            queryHash: request.queryHash,
            source: request.source,
            document: request.document,
            // The client's operationName: Apollo's own (request.operationName) is that of the operation it resolved, null
            // when it resolved none (an unknown name), and the executor would then run the document's only operation.
            operationName: request.request.operationName ?? null,
            context: request.context as Context,
            variables: request.request.variables,
          }),
      };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: engine.schema, coreSupergraphSdl: "" });
      return () => undefined;
    },
    async stop() {},
  };
}

function requestId(req: Request, res: Response, next: NextFunction): void {
  const inbound = req.headers["x-request-id"];
  const id = typeof inbound === "string" && /^[\w.-]{1,128}$/.test(inbound) ? inbound : crypto.randomUUID();
  res.locals.requestId = id;
  res.locals.startedAt = Date.now(); // the request's time budget counts from here (request-budget.ts)
  res.setHeader("X-Request-Id", id);
  // Every log line written while this request is handled carries its id (src/logger.ts).
  withRequestContext(id, next);
}

/** One structured line per finished request: method, route pattern, status, duration, request id. */
function accessLog(req: Request, res: Response, next: NextFunction): void {
  const start = process.hrtime.bigint();
  res.on("finish", () => {
    const fields = {
      requestId: res.locals.requestId,
      method: req.method,
      route: routeLabel(req, res),
      // The path as requested (the mount point included), without its query string (parameters stay out of logs).
      path: req.originalUrl.split("?")[0].slice(0, 200),
      status: res.statusCode,
      duration_ms: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
    };
    if (res.statusCode >= 500) logger.error("request", fields);
    else logger.info("request", fields);
  });
  next();
}

/**
 * The answer of a request its deadline passed while it waited on something that does not end with the budget's
 * signal (a Prisma statement, a transaction): the same time-budget error the request's own error path gives,
 * GraphQL-shaped on /graphql, the generic body elsewhere (docs/limits.md).
 */
function answerAtDeadline(req: Request, res: Response, error: AppError): void {
  if (req.baseUrl === "/graphql") {
    res.status(200).json({ data: null, errors: [{ message: error.message, extensions: { code: error.code } }] });
  } else {
    const body = httpError(error.code, error.message);
    res.status(body.statusCode).json(body);
  }
}

/** Errors thrown before or around the GraphQL layer (auth, body parsing) and unexpected ones. */
function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  // Answered already (at the deadline, answerAtDeadline): the handler's late failure to write has no reader.
  if (res.headersSent) return;
  const e = error as { type?: string; status?: number; message?: string; errno?: unknown; encoding?: string };
  let body;
  if (error instanceof AppError) body = httpError(error.code, error.message, error.body);
  else if (e?.type === "entity.too.large") body = httpError("PAYLOAD_TOO_LARGE", "request body exceeds the 1 MiB limit");
  else if (e?.type === "entity.parse.failed") body = httpError("BAD_USER_INPUT", `malformed JSON body: ${e.message ?? "parse error"}`);
  else if (e?.type === "encoding.unsupported")
    body = httpError(
      "BAD_USER_INPUT",
      `unsupported Content-Encoding ${JSON.stringify(e.encoding ?? "")}; send identity, gzip, deflate or br`,
    );
  else if (e?.type === "charset.unsupported") body = httpError("BAD_USER_INPUT", e.message ?? "unsupported charset");
  // body-parser passes the decompression stream's own error on (zlib's errno, status 400, no type).
  else if (e?.status === 400 && e.type === undefined && typeof e.errno === "number" && req.headers["content-encoding"])
    body = httpError(
      "BAD_USER_INPUT",
      `the request body does not match its Content-Encoding ${req.headers["content-encoding"].slice(0, 40)}`,
    );
  else if (e?.type === "request.size.invalid" || e?.type === "request.aborted") body = httpError("BAD_USER_INPUT", e.message ?? "bad body");
  // The router decodes path parameters with decodeURIComponent: "Failed to decode param '%zz'".
  else if (error instanceof URIError && e.status === 400) {
    const segment = /^Failed to decode param '(.*)'$/s.exec(error.message)?.[1] ?? req.path;
    body = httpError("BAD_USER_INPUT", `path segment ${JSON.stringify(segment.slice(0, 200))} is not valid percent-encoding`);
  } else {
    logger.error("unhandled error", { requestId: res.locals.requestId, path: req.path, error: String((error as Error)?.stack ?? error) });
    body = httpError("INTERNAL_SERVER_ERROR", "internal error");
  }
  if (body.statusCode === 401) res.setHeader("WWW-Authenticate", bearerChallenge(req));
  res.status(body.statusCode).json({ ...body, ...(body.statusCode === 500 ? { request_id: res.locals.requestId } : {}) });
}

/**
 * Checks that need the operation and its variable values (Apollo caches validation per document, so
 * they cannot be validation rules): cost with the actual `limit`s, and NUL characters in variables.
 */
function operationAdmission(engine: ExecutionEngine, scheduler: OperationScheduler): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      // The turn of an expensive operation in the process's scheduler, given back when the response is sent.
      let leave: (() => void) | undefined;
      // Reported in every response's extensions.cost; null when the document never reached cost analysis
      // (it did not parse or validate).
      let requested: number | null = null;
      return {
        async didResolveOperation({ document, operation, request, contextValue }) {
          if (!operation) return;
          // Variable values first (a refused one is BAD_USER_INPUT naming it), then the cost they ask for.
          const variables = engine.variables(operation, request.variables);
          requested = engine.cost(document, operation, variables);
          engine.admit(document, operation, variables, requested);
          // Admitted: the operation's cost is spent against the key's cost budget (rate-limits).
          if (contextValue.usage) contextValue.usage.cost += requested;
          leave = await scheduler.enter(contextValue.viewer.apiKeyId, requested, contextValue.signal);
        },
        async willSendResponse({ response, contextValue }) {
          leave?.();
          const cost = { requested, limit: engine.maxCost };
          // What the resolvers noted (src/graphql/notices.ts: history_gated ...), only when there are any.
          const notices = contextValue.notices?.length ? { notices: contextValue.notices } : {};
          if (response.body.kind === "single") {
            response.body.singleResult.extensions = { ...response.body.singleResult.extensions, cost, ...notices };
          }
        },
      };
    },
  };
}

/** The deepest JSON body accepted: nothing legitimate comes close, and recursive walks stay bounded. */
const MAX_BODY_DEPTH = 64;

/**
 * Refuses parsed JSON bodies nested deeper than MAX_BODY_DEPTH before anything walks them recursively
 * (input coercion, key renaming). The walk itself is iterative.
 */
function bodyDepthLimit(req: Request, res: Response, next: NextFunction): void {
  if (!nestedDeeperThan(req.body, MAX_BODY_DEPTH)) return next();
  res.status(400).json(httpError("BAD_USER_INPUT", `the request body is nested deeper than ${MAX_BODY_DEPTH} levels`));
}

function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== "object") return false;
  const pending: [object, number][] = [[value, 1]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [node, depth] = item;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") pending.push([child as object, depth + 1]);
    }
  }
  return false;
}
