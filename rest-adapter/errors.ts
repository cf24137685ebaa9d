/**
 * The single map from GraphQL error codes to HTTP statuses and the generic error body
 * `{ error, message, statusCode, ...extra }` (contract section 2).
 */
import type { GraphQLFormattedError } from "graphql";

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
  CONFLICT: [409, "conflict"],
  PAYLOAD_TOO_LARGE: [413, "payload_too_large"],
  RATE_LIMITED: [429, "rate_limited"],
  // The request asked for more than its time budget allows (docs/limits.md): narrower is the fix.
  QUERY_TIMEOUT: [400, "bad_request"],
  // Nobody reads this answer (the socket is gone); 499 as nginx logs it.
  CLIENT_CLOSED_REQUEST: [499, "client_closed_request"],
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
