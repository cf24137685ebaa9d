/**
 * One error model. Services throw AppError subclasses; GraphQL carries `extensions.code` (and any extra
 * fields the REST body needs under `extensions.body`); rest-adapter/errors.ts maps codes to HTTP statuses.
 * Anything else is masked as INTERNAL_SERVER_ERROR with no stack, SQL or secrets in the message.
 */
import { GraphQLError } from "graphql";

export type ErrorCode =
  | "BAD_USER_INPUT"
  | "UNAUTHENTICATED"
  | "INSUFFICIENT_CREDITS"
  | "FORBIDDEN"
  | "ENTITLEMENT_REQUIRED"
  | "PARENT_ENTITY_LOCKED"
  | "FOLLOW_LIMIT"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "QUERY_TIMEOUT"
  | "CLIENT_CLOSED_REQUEST"
  | "INTERNAL_SERVER_ERROR";

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
