/**
 * One error model. Services throw AppError subclasses; GraphQL carries `extensions.code` (and any extra
 * fields the REST body needs under `extensions.body`); `httpError` is the one map from codes to HTTP
 * statuses and the generic body `{ error, message, statusCode, ...extra }` (contract section 2).
 * Anything else is masked as INTERNAL_SERVER_ERROR with no stack, SQL or secrets in the message.
 */
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { isDatabaseUnavailable } from "../db/unavailable";
import { logger } from "../logger";
import { HTTP_DICTIONARY as HTTP } from "./dictionary/http";

export type ErrorCode =
  | "BAD_USER_INPUT"
  | "UNAUTHENTICATED"
  | "INSUFFICIENT_CREDITS"
  | "FORBIDDEN"
  | "ENTITLEMENT_REQUIRED"
  | "PARENT_ENTITY_LOCKED"
  | "FOLLOW_LIMIT"
  | "NOT_FOUND"
  | "NOT_ACCEPTABLE"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "QUERY_TIMEOUT"
  | "CLIENT_CLOSED_REQUEST"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL_SERVER_ERROR";

/**
 * A client's value echoed in a message, on every face (REST, GraphQL, MCP): at most `max` characters, with
 * its length when longer, so a 100k-character argument is not sent back whole.
 */
export const clip = (value: string, max = 80): string =>
  value.length > max ? `${value.slice(0, max)}… (${value.length} characters)` : value;

/** A client's value as JSON text (strings quoted), clipped; `undefined` and unserializable values as their String(). */
export function echo(value: unknown, max = 80): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return clip(text ?? String(value), max);
}

export class AppError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields of the REST error body beyond error/message/statusCode (e.g. balance, required). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...(Object.keys(body).length ? { body } : {}) } });
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super("BAD_USER_INPUT", message);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = "a valid API key is required: Authorization: Bearer sk_live_...") {
    super("UNAUTHENTICATED", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super("FORBIDDEN", message);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string) {
    super("NOT_FOUND", `${what} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super("CONFLICT", message);
  }
}

/** The request did nothing and may be sent again: the database cannot be used right now, or this process is shutting down. */
export class ServiceUnavailableError extends AppError {
  constructor(message = "temporarily unavailable (the database cannot be reached or is busy); send the request again shortly") {
    super("SERVICE_UNAVAILABLE", message);
  }
}

/**
 * An error as the error model answers it: an AppError as it is; a database that cannot be used right now (down,
 * restarting, connection cut, no connection in time to start a transaction: src/db/unavailable.ts) as
 * SERVICE_UNAVAILABLE; null for anything else, which is masked as an internal error.
 */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  return isDatabaseUnavailable(error) ? new ServiceUnavailableError() : null;
}

const STATUS: Record<string, [number, string]> = {
  BAD_USER_INPUT: [400, "bad_request"],
  BAD_REQUEST: [400, "bad_request"],
  GRAPHQL_VALIDATION_FAILED: [400, "bad_request"],
  GRAPHQL_PARSE_FAILED: [400, "bad_request"],
  UNAUTHENTICATED: [401, "unauthorized"],
  INSUFFICIENT_CREDITS: [402, "insufficient_credits"],
  FORBIDDEN: [403, "forbidden"],
  ENTITLEMENT_REQUIRED: [403, "entitlement_required"],
  PARENT_ENTITY_LOCKED: [403, "PARENT_ENTITY_LOCKED"],
  FOLLOW_LIMIT: [403, "FOLLOW_LIMIT"],
  NOT_FOUND: [404, "not_found"],
  // A known path with a method it does not serve (the response's Allow lists those it does).
  METHOD_NOT_ALLOWED: [405, "method_not_allowed"],
  // An Accept header naming no format the endpoint produces (JSON everywhere; CSV and NDJSON on lists: docs/exports.md).
  NOT_ACCEPTABLE: [406, "not_acceptable"],
  CONFLICT: [409, "conflict"],
  PAYLOAD_TOO_LARGE: [413, "payload_too_large"],
  RATE_LIMITED: [429, "rate_limited"],
  // The request asked for more than its time budget allows (docs/limits.md): narrower is the fix.
  QUERY_TIMEOUT: [400, "bad_request"],
  // Nobody reads this answer (the socket is gone); 499 as nginx logs it.
  CLIENT_CLOSED_REQUEST: [499, "client_closed_request"],
  // Nothing was done and the request may be sent again: the database is down or restarting, or the process is draining.
  SERVICE_UNAVAILABLE: [503, "service_unavailable"],
};

/** Every code's HTTP status and `error` string, in the map's order (the OpenAPI document lists the error bodies from it). */
export function errorStatuses(): { code: string; statusCode: number; error: string }[] {
  const masked = httpError("INTERNAL_SERVER_ERROR", ""); // any code not in the map
  return [
    ...Object.entries(STATUS).map(([code, [statusCode, error]]) => ({ code, statusCode, error })),
    { code: "INTERNAL_SERVER_ERROR", statusCode: masked.statusCode, error: masked.error },
  ];
}

/**
 * The fields some error bodies add beside error/message/statusCode (contract section 2), as JSON Schema,
 * for the OpenAPI document (descriptions from the field dictionary's REST part). The services that throw
 * these codes fill exactly these fields.
 */
export const ERROR_BODY_EXTRAS: Partial<Record<ErrorCode, Record<string, object>>> = {
  INSUFFICIENT_CREDITS: {
    balance: { type: "integer", description: HTTP.InsufficientCreditsError.balance },
    required: { type: "integer", description: HTTP.InsufficientCreditsError.required },
  },
  PARENT_ENTITY_LOCKED: {
    parent_entity_type: { type: "string", enum: ["district", "school"], description: HTTP.ParentEntityLockedError.parent_entity_type },
    parent_entity_id: { type: "string", format: "uuid", description: HTTP.ParentEntityLockedError.parent_entity_id },
    unlock_cost: { type: "integer", description: HTTP.ParentEntityLockedError.unlock_cost },
  },
  FOLLOW_LIMIT: {
    slots: {
      type: "object",
      description: HTTP.FollowLimitError.slots,
      properties: {
        used: { type: "integer", description: HTTP.FollowLimitError["slots.used"] },
        limit: { type: "integer", description: HTTP.FollowLimitError["slots.limit"] },
        tier: { type: "string", description: HTTP.FollowLimitError["slots.tier"] },
      },
      required: ["used", "limit", "tier"],
    },
  },
  ENTITLEMENT_REQUIRED: {
    module: { type: "string", description: HTTP.EntitlementRequiredError.module },
    contact: { type: "string", description: HTTP.EntitlementRequiredError.contact },
  },
};

export interface ErrorBody {
  error: string;
  message: string;
  statusCode: number;
  [extra: string]: unknown;
}

export function httpError(code: string | undefined, message: string, extra: Record<string, unknown> = {}): ErrorBody {
  const [statusCode, error] = STATUS[code ?? ""] ?? [500, "internal_error"];
  return { ...extra, error, message: statusCode === 500 ? "internal error" : message, statusCode };
}

/** The HTTP answer for the first GraphQL error of a result. */
export function fromGraphQLError(error: GraphQLFormattedError): ErrorBody {
  const code = typeof error.extensions?.code === "string" ? error.extensions.code : undefined;
  const extra = (error.extensions?.body as Record<string, unknown> | undefined) ?? {};
  return httpError(code, error.message, extra);
}

/** GraphQL's own messages quote what the client wrote (field names, literals): each long quoted run clipped as `clip` does. */
function clipQuoted(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const message = formatted.message.replace(/"([^"]{81,})"/g, (_m, text: string) => `"${clip(text)}"`);
  return message === formatted.message ? formatted : { ...formatted, message };
}

/** GraphQL errors: coded AppErrors and GraphQL's own validation errors pass (client text clipped); anything else is masked. */
export function maskError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = (error as { originalError?: unknown })?.originalError;
  if (original instanceof AppError || error instanceof AppError) return formatted;
  const unavailable = asAppError(original ?? error);
  if (unavailable) {
    logger.warn("database unavailable", { error: String((original as Error)?.message ?? original ?? formatted.message).slice(0, 300) });
    return { message: unavailable.message, ...(formatted.path ? { path: formatted.path } : {}), extensions: { code: unavailable.code } };
  }
  // Apollo's own request errors (a persisted-query hash that does not match, an unsupported version)
  // carry an HTTP 4xx but no code: they are the client's, not ours.
  const http = (error as GraphQLError)?.extensions?.http as { status?: number } | undefined;
  const code = formatted.extensions?.code;
  if (http?.status && http.status >= 400 && http.status < 500 && (!code || code === "INTERNAL_SERVER_ERROR"))
    return { ...clipQuoted(formatted), extensions: { ...formatted.extensions, code: "BAD_REQUEST" } };
  if (code && code !== "INTERNAL_SERVER_ERROR") return clipQuoted(formatted);
  logger.error("resolver error", { error: String((original as Error)?.stack ?? original ?? formatted.message) });
  return { message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } };
}
