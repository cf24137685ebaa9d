/**
 * The HTTP application: request ids, body limits, health, authentication, GraphQL at /graphql and the
 * REST adapter at /api/v1 (which runs GraphQL operations through the same Apollo server).
 */
import crypto from "node:crypto";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { expressMiddleware } from "@as-integrations/express5";
import express, { type NextFunction, type Request, type Response } from "express";
import {
  getOperationAST,
  isEnumType,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { httpError } from "../rest-adapter/errors";
import { createRestRouter, type GraphQLExecutor } from "../rest-adapter/router";
import { routes } from "../rest-adapter/routes";
import type { Env } from "./config/env";
import type { Db } from "./db/client";
import { pendingMigrations } from "./db/migrate";
import { ApiKeyAuthenticator } from "./features/auth/api-key.service";
import type { Viewer } from "./features/auth/viewer";
import { createContext, type Context } from "./graphql/context";
import { restDocument, restSchema, serializeTimestamp, serializeUuid } from "./graphql/fields";
import { DateTimeScalar, UUIDScalar } from "./graphql/scalars";
import { AppError } from "./graphql/errors";
import { checkOperationCost, checkVariableText, limitRules } from "./graphql/limits";
import { startRequestBudget } from "./graphql/request-budget";
import { getSchema } from "./graphql/schema";
import { logger } from "./logger";

export interface AppDeps {
  db: Db;
  env: Env;
}

export interface App {
  app: express.Express;
  apollo: ApolloServer<Context>;
  stop(): Promise<void>;
}

export async function createApp(deps: AppDeps): Promise<App> {
  const { db, env } = deps;
  const schema = getSchema();
  const apollo = new ApolloServer<Context>({
    schema,
    // The parser stops at this many tokens: every later walk (validation, cost) is bounded by it.
    parseOptions: { maxTokens: env.GRAPHQL_MAX_TOKENS },
    validationRules: limitRules({ maxDepth: env.GRAPHQL_MAX_DEPTH, maxAliases: env.GRAPHQL_MAX_ALIASES }),
    includeStacktraceInErrorResponses: false,
    // serve() drains requests and closes the database on SIGTERM/SIGINT; Apollo's own handler would
    // re-send the signal and end the process before the database is closed.
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginLandingPageDisabled(), operationAdmission(schema, env.GRAPHQL_MAX_COST)],
    formatError: (formatted, error) => maskError(formatted, error),
    logger: { debug() {}, info() {}, warn: (m) => logger.warn(String(m)), error: (m) => logger.error(String(m)) },
  });
  await apollo.start();
  const authenticator = new ApiKeyAuthenticator(db, env.API_KEY_CACHE_SECONDS * 1000);

  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  app.use(requestId);
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    try {
      const pending = await pendingMigrations(db);
      if (pending.length) res.status(503).json({ status: "migrations_pending", pending });
      else res.json({ status: "ready", database: db.kind });
    } catch {
      res.status(503).json({ status: "database_unreachable" });
    }
  });

  const json = [express.json({ limit: "1mb", type: () => true }), bodyDepthLimit];
  const authenticate = async (req: Request, res: Response, next: NextFunction) => {
    try {
      res.locals.viewer = await authenticator.authenticate(req.headers.authorization);
      next();
    } catch (error) {
      next(error);
    }
  };
  const contextFor = (req: Request, res: Response): Context => {
    const budget = startRequestBudget(db, env.REQUEST_TIMEOUT_MS, req, res);
    return createContext({ db: budget.db, env }, res.locals.viewer as Viewer, String(res.locals.requestId), budget.signal);
  };

  app.use("/graphql", authenticate, json, expressMiddleware(apollo, { context: async ({ req, res }) => contextFor(req, res) }));

  // REST operations are ours (their snake_case aliases are the naming rule, not a client's repeats), so
  // the alias bound is for client documents; the cost bound applies to both, with the request's variables.
  const restRules = limitRules({ maxDepth: env.GRAPHQL_MAX_DEPTH, maxAliases: Number.POSITIVE_INFINITY });
  const executor = createJitExecutor(schema, restRules, env.GRAPHQL_MAX_COST, contextFor);
  app.use("/api/v1", authenticate, json, createRestRouter(routes, executor));

  app.use((req, res) => {
    res.status(404).json(httpError("NOT_FOUND", `no route for ${req.method} ${req.path}`));
  });
  app.use(errorHandler);

  return {
    app,
    apollo,
    async stop() {
      await apollo.stop();
    },
  };
}

function requestId(req: Request, res: Response, next: NextFunction): void {
  const inbound = req.headers["x-request-id"];
  const id = typeof inbound === "string" && /^[\w.-]{1,128}$/.test(inbound) ? inbound : crypto.randomUUID();
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  next();
}

/** Errors thrown before or around the GraphQL layer (auth, body parsing) and unexpected ones. */
function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
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
  res.status(body.statusCode).json({ ...body, ...(body.statusCode === 500 ? { request_id: res.locals.requestId } : {}) });
}

/**
 * REST runs a fixed set of operations, so each is validated (same rules as /graphql) and compiled with
 * graphql-jit once, then executed with the same resolvers, context factory and error masking as
 * Apollo's /graphql. Compiling removes graphql-js's per-field interpretation from the hot list paths;
 * compiling against restSchema (fields named by their REST names) turns every plain column into an
 * inline property read instead of a resolver call.
 */
function createJitExecutor(
  schema: GraphQLSchema,
  rules: ValidationRule[],
  maxCost: number,
  contextFor: (req: Request, res: Response) => Context,
): GraphQLExecutor {
  const compiled = new WeakMap<DocumentNode, CompiledQuery>();
  const rest = restSchema(schema);
  // Built-in scalars and enums are written as resolvers return them: graphql-jit otherwise calls a
  // serializer and allocates error-path arrays for every leaf (most of a list page's garbage). Rows
  // already hold values of the declared types (pg parses numbers and booleans); enums qualify only
  // while every value is its own name, so passing the value through writes the same JSON.
  const disableLeafSerialization = Object.values(schema.getTypeMap()).every(
    (type) => !isEnumType(type) || type.getValues().every((value) => value.value === value.name),
  );
  const compile = (document: DocumentNode): CompiledQuery => {
    const errors = validate(schema, document, [...specifiedRules, ...rules]);
    if (errors.length) throw new Error(`REST operation is invalid: ${errors.map((e) => e.message).join("; ")}`);
    const query = compileQuery(rest, restDocument(document), undefined, {
      disableLeafSerialization,
      customSerializers: { [DateTimeScalar.name]: serializeTimestamp, [UUIDScalar.name]: serializeUuid },
    });
    if (!isCompiledQuery(query)) throw new Error(`REST operation does not compile: ${JSON.stringify(query.errors)}`);
    compiled.set(document, query);
    return query;
  };
  return {
    schema,
    async execute(document, variables, req, res) {
      const query = compiled.get(document) ?? compile(document);
      try {
        checkOperationCost(schema, document, getOperationAST(document)!, variables, maxCost);
        checkVariableText(variables);
      } catch (error) {
        const formatted = (error as GraphQLError).toJSON();
        return { data: null, errors: [formatted] };
      }
      const result = await query.query(undefined, contextFor(req, res), variables);
      // Errors without data were raised before execution (variable values the types reject): the
      // caller's input, as graphql-js and Apollo classify them.
      // A null `data` is a failed non-null root field (a resolver's error): that one is masked as usual.
      const requestError = result.data === undefined ? "BAD_USER_INPUT" : undefined;
      return {
        data: result.data as Record<string, unknown> | null | undefined,
        errors: result.errors?.map((error) => {
          const formatted = error.toJSON();
          if (requestError && !formatted.extensions?.code)
            return { ...formatted, extensions: { ...formatted.extensions, code: requestError } };
          return maskError(formatted, error);
        }),
      };
    },
  };
}

/**
 * Checks that need the operation and its variable values (Apollo caches validation per document, so
 * they cannot be validation rules): cost with the actual `limit`s, and NUL characters in variables.
 */
function operationAdmission(schema: GraphQLSchema, maxCost: number): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, request }) {
          if (!operation) return;
          checkOperationCost(schema, document, operation, request.variables, maxCost);
          checkVariableText(request.variables);
        },
      };
    },
  };
}

/** GraphQL errors: coded AppErrors and GraphQL's own validation errors pass; anything else is masked. */
function maskError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = (error as { originalError?: unknown })?.originalError;
  if (original instanceof AppError || error instanceof AppError) return formatted;
  // Apollo's own request errors (a persisted-query hash that does not match, an unsupported version)
  // carry an HTTP 4xx but no code: they are the client's, not ours.
  const status = (error as GraphQLError)?.extensions?.http as { status?: number } | undefined;
  if (
    status?.status &&
    status.status >= 400 &&
    status.status < 500 &&
    (!formatted.extensions?.code || formatted.extensions.code === "INTERNAL_SERVER_ERROR")
  )
    return { ...formatted, extensions: { ...formatted.extensions, code: "BAD_REQUEST" } };
  const code = formatted.extensions?.code;
  if (code && code !== "INTERNAL_SERVER_ERROR") return formatted;
  logger.error("resolver error", { error: String((original as Error)?.stack ?? original ?? formatted.message) });
  return { message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } };
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
