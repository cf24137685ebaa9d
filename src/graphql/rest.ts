/**
 * A feature's REST face, declared in its `feature.ts` as data: each endpoint names the GraphQL operation it
 * runs (a named operation in the feature's `*.rest.graphql`, typed by codegen). rest-adapter/ is the engine
 * that serves them (its router, coercion, OpenAPI document); src/ never imports it.
 */
import type { ErrorCode } from "./errors";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * One REST endpoint: which GraphQL operation it runs, where its variables come from, and how the
 * (snake_cased) result becomes the response body. Validation is the operation's variable types
 * (rest-adapter/coerce.ts) plus the service's own rules, reported as 400s naming the parameter.
 */
export interface RestEndpoint {
  method: HttpMethod;
  /** Express path under /api/v1, e.g. /districts/:id (path params become variables of the same name). */
  path: string;
  /** The name of the GraphQL operation it runs (`query Districts(...)` -> "Districts"). */
  operation: string;
  /**
   * Where the remaining variables come from:
   * - query: the query string, strings coerced by variable type
   * - string-body: a JSON object of strings (the POST twins), same coercion as the query string
   * - json-body: the JSON body as the `input` variable (keys snake_case -> camelCase)
   * - none: nothing beyond the path
   */
  input: "query" | "string-body" | "json-body" | "none";
  /** Path into the snake_cased data: the response body, or null -> 404. */
  select: string[];
  /** Wrap the selected value as `{ data: value }` (detail endpoints). */
  wrap?: boolean;
  /** Success status (default 200): 201 for a POST that creates, 204 to answer with no body at all. */
  status?: number;
  /**
   * Request headers passed as variables: header name -> variable name. A mutation's route takes Idempotency-Key ->
   * idempotencyKey without declaring it (rest-adapter/routes.ts, src/graphql/idempotency.ts).
   */
  headers?: Record<string, string>;
  /**
   * The response from the selected value when the status depends on the result (e.g. POST /unlock: 200 or
   * 202, single body or `{ results }`); replaces `wrap` and `status`.
   */
  respond?: (value: Record<string, unknown>) => { status: number; body: unknown };
  /** What `respond` answers, by status, for the OpenAPI document (required with `respond`; the others are described by select/wrap/status). */
  responses?: Record<number, { description: string; body: BodyDoc }>;
  /** Error codes this endpoint answers beyond those of every endpoint (400, 401, 404, 500), for the OpenAPI document. */
  errors?: ErrorCode[];
}

/**
 * A response body as the OpenAPI document describes it: the value at a path of the selected value (a path
 * that crosses a list continues in its items), optionally wrapped as `{ data }`; one of several bodies; an
 * object or an array of such bodies; or the generic error body (a batch item's failure).
 */
export type BodyDoc =
  | { select: string[]; wrap?: boolean }
  | { oneOf: BodyDoc[] }
  | { object: Record<string, BodyDoc>; descriptions?: Record<string, string> }
  | { items: BodyDoc }
  | { error: true };

/**
 * The extension marking an input type whose fields are a REST route's query parameters (a list's filter,
 * defineList): rest-adapter/coerce.ts expands a variable of that type into one parameter per field.
 */
export const REST_PARAMETERS_EXTENSION = "restParameters";

/** A list's GET and its POST twin (same operation, the filters in a JSON body of strings: long id lists). */
export const listEndpoints = (path: string, operation: string, select: string): RestEndpoint[] => [
  { method: "GET", path, operation, input: "query", select: [select] },
  { method: "POST", path, operation, input: "string-body", select: [select] },
];
