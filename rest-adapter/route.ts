import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { RestEndpoint } from "../src/graphql/rest";

export type { BodyDoc, HttpMethod } from "../src/graphql/rest";

/** A feature's REST endpoint (src/graphql/rest.ts) with its operation's parsed, typed document. */
export interface RouteSpec extends Omit<RestEndpoint, "operation"> {
  document: TypedDocumentNode<unknown, unknown>;
  /** A state-changing route (its operation is a mutation): it takes the Idempotency-Key header (routes.ts). */
  idempotent?: boolean;
}

/** A detail read (GET /districts/{id} ...): answered with a weak ETag, and 304 to a matching If-None-Match. */
export const isDetailRead = (spec: RouteSpec): boolean => spec.method === "GET" && spec.wrap === true && /\/:\w+$/.test(spec.path);
