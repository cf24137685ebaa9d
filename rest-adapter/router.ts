/**
 * Turns the declarative table (routes.ts) into an Express router. Every request runs its GraphQL
 * operation on the shared execution engine (validated when the router is built, compiled once when first
 * requested, response keys in snake_case) with the same schema, context, loaders, limits and error model as /graphql.
 */
import { Router, type Request, type Response } from "express";
import {
  getOperationAST,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLFormattedError,
  type GraphQLInputType,
} from "graphql";
import { clip, fromGraphQLError, httpError } from "../src/graphql/errors";
import { ifNoneMatchMatches, methodNotAllowed, weakEtag } from "../src/http/conventions";
import type { RestAdapterHost } from "../src/graphql/execution";
import { camel, snake } from "../src/graphql/naming";
import { coerceParameters, coerceString, operationVariables, ParameterError } from "./coerce";
import { executeRoute } from "./executor";
import { exportPlan, MEDIA, negotiate, streamExport, type Format } from "./export";
import { isDetailRead, type RouteSpec } from "./route";

export function createRestRouter(routes: RouteSpec[], host: RestAdapterHost): Router {
  const router = Router();
  const methodsOf = new Map<string, Set<string>>();
  for (const spec of routes) {
    if (!methodsOf.has(spec.path)) methodsOf.set(spec.path, new Set());
    methodsOf.get(spec.path)!.add(spec.method);
    // A detail read (GET /districts/{id} ...) answers with a weak ETag and 304 to a matching If-None-Match.
    const detail = isDetailRead(spec);
    const operation = getOperationAST(spec.document);
    if (!operation) throw new Error(`${spec.method} ${spec.path}: document has no single operation`);
    const variables = operationVariables(host.engine.schema, operation);
    const document = spec.document;
    // Validated and compiled when a request first needs it (engine.prepareRest): validating the whole table was about
    // 150 ms of CPU of every start and every test file's app; test/rest/openapi.test.ts prepares every route.
    const pathParams = [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const reserved = new Set(pathParams.map(camel));
    for (const name of reserved) if (!variables.has(name)) throw new Error(`${spec.method} ${spec.path}: operation lacks $${name}`);
    for (const name of Object.values(spec.headers ?? {})) {
      if (!variables.has(name)) throw new Error(`${spec.method} ${spec.path}: operation lacks $${name}`);
      reserved.add(name); // a header's variable is not also a query or body parameter
    }
    const method = spec.method.toLowerCase() as "get" | "post" | "patch" | "put" | "delete";
    // A list GET also answers CSV and NDJSON (docs/exports.md); every route answers JSON.
    const exported =
      spec.method === "GET" && spec.input === "query"
        ? exportPlan(host.engine.schema, document, operation, spec.path, spec.select)
        : undefined;
    const formats: Format[] = exported ? ["json", "csv", "ndjson"] : ["json"];

    router[method](spec.path, async (req: Request, res: Response) => {
      res.locals.route = `${req.baseUrl}${spec.path}`; // the metrics' and access log's route label
      if (exported) res.vary("Accept"); // the body's format depends on it
      const format = negotiate(req.headers.accept, formats);
      if (!format)
        return send(
          res,
          httpError(
            "NOT_ACCEPTABLE",
            `this endpoint answers ${formats.map((f) => MEDIA[f]).join(", ")}; Accept asked for ${clip(req.headers.accept ?? "", 200)}`,
          ),
        );
      let vars: Record<string, unknown>;
      try {
        vars = {};
        for (const name of pathParams) vars[camel(name)] = coerceString(name, String(req.params[name]), variables.get(camel(name))!.type);
        const query = req.query as Record<string, unknown>;
        if (spec.input === "query") Object.assign(vars, coerceParameters(query, variables, reserved));
        else {
          coerceParameters(query, new Map(), reserved); // any query parameter here is unknown: 400
          if (spec.input === "string-body") Object.assign(vars, coerceParameters(bodyObject(req.body), variables, reserved));
          if (spec.input === "json-body") vars.input = camelKeys(bodyObject(req.body), variables.get("input")?.type);
          if (spec.input === "none") {
            // Contract section 1: unknown body properties are a 400, also where a route takes none.
            const extra = Object.keys(bodyObject(req.body));
            if (extra.length)
              throw new ParameterError(
                `unknown body propert${extra.length > 1 ? "ies" : "y"} ${clip(extra.join(", "), 200)}; this route takes no body`,
              );
          }
        }
        for (const [header, name] of Object.entries(spec.headers ?? {})) {
          const value = req.headers[header.toLowerCase()];
          if (typeof value === "string") vars[name] = coerceString(header, value, variables.get(name)!.type);
        }
      } catch (error) {
        if (error instanceof ParameterError) return send(res, httpError("BAD_USER_INPUT", error.message));
        throw error;
      }
      if (exported && format !== "json") return streamExport(host, document, exported, format, vars, req, res, (body) => send(res, body));
      const result = await executeRoute(host, document, vars, req, res);
      if (result.errors?.length) return send(res, fromGraphQLError(restNames(result.errors[0])));
      let value: unknown = result.data;
      for (const key of spec.select) value = (value as Record<string, unknown> | null)?.[key] ?? null;
      if (value === null) return send(res, httpError("NOT_FOUND", `${clip(req.path, 200)} not found`));
      if (spec.respond) {
        const { status, body } = spec.respond(value as Record<string, unknown>);
        return sendJson(res, status, body);
      }
      if (spec.status === 204) return void res.writeHead(204).end(); // No Content: no body, no Content-Type
      // A list page's or summary's notices (history_gated ...) sit beside data (and pagination), only when there are any;
      // the OpenAPI document declares them on every unwrapped body of an operation with $metricQuery.
      if (result.notices?.length && !spec.wrap && hasData(value)) value = { ...value, notices: result.notices };
      sendJson(res, spec.status ?? 200, spec.wrap ? { data: value } : value, detail ? req : undefined);
    });
  }
  // Registered after every route, so they only see the methods no route of their path took: 405 with Allow.
  for (const [path, methods] of methodsOf) {
    const allow = [...methods];
    if (methods.has("GET")) allow.push("HEAD");
    router.all(path, methodNotAllowed([...allow, "OPTIONS"]));
  }
  return router;
}

/**
 * Refused variable values are worded with REST names by the executor (restMessage); a GraphQL message that
 * still names a variable (the compiled query's own parsing) names the parameter instead.
 */
function restNames(error: GraphQLFormattedError): GraphQLFormattedError {
  return { ...error, message: error.message.replace(/Variable "\$(\w+)"/g, (_m, name: string) => `parameter ${snake(name)}`) };
}

/**
 * A result body, stringified once and written as it is. List pages carry no ETag (hashing megabytes of
 * 200 full records on each request for a validator nobody revalidates); detail reads (`revalidate`: the
 * request) do: a weak ETag of the exact bytes this caller is served, so another organization's view of
 * the same record (gated columns, _access) has its own, and `Cache-Control: private` keeps shared caches out.
 */
function sendJson(res: Response, status: number, body: unknown, revalidate?: Request): void {
  // Encoded once: its length is the Content-Length, and the socket writes the bytes as they are.
  const bytes = Buffer.from(JSON.stringify(body));
  if (revalidate && status === 200) {
    const etag = weakEtag(bytes);
    res.setHeader("ETag", etag);
    res.setHeader("Cache-Control", "private, no-cache");
    if (ifNoneMatchMatches(revalidate.headers["if-none-match"], etag)) return void res.writeHead(304).end();
  }
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": bytes.length });
  res.end(bytes);
}

const hasData = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Array.isArray((value as { data?: unknown }).data);

function send(res: Response, body: { statusCode: number }): void {
  res.status(body.statusCode).json(body);
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ParameterError("the request body must be a JSON object");
  return body as Record<string, unknown>;
}

/**
 * JSON bodies are snake_case like the rest of REST; GraphQL inputs are camelCase. The keys of input
 * objects are renamed (`type`: the variable's type, followed down); the value of a scalar field such as
 * JSON (a project's `icp`) is the caller's own and is kept as it is.
 */
function camelKeys(value: unknown, type: GraphQLInputType | undefined): unknown {
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (inner && isScalarType(inner)) return value;
  if (Array.isArray(value)) return value.map((item) => camelKeys(item, inner && isListType(inner) ? inner.ofType : undefined));
  if (value === null || typeof value !== "object") return value;
  const fields = inner && isInputObjectType(inner) ? inner.getFields() : undefined;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      // snake_case only: `entityType` is not another spelling of `entity_type`.
      if (snake(camel(key)) !== key) throw new ParameterError(`unknown body property ${clip(key)}`);
      return [camel(key), camelKeys(item, fields ? fields[camel(key)]?.type : undefined)];
    }),
  );
}
