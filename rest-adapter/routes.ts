/**
 * The table of REST endpoints (/api/v1): every installed feature's `rest` declarations (src/graphql/rest.ts),
 * each with its operation's document from the codegen output. Grouped by resource (the path's first
 * segment), in the features' order within a group. A route running a mutation changes state: it takes the
 * Idempotency-Key header (src/graphql/idempotency.ts), which its operation passes to the mutation, and may
 * answer 409 conflict; the router, the OpenAPI document and the typed client follow from that.
 */
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { INSTALLED } from "../src/graphql/features";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_ARGUMENT, isMutationDocument, withIdempotencyKey } from "../src/graphql/idempotency";
import type { RestEndpoint } from "../src/graphql/rest";
import * as operations from "./generated/operations";
import type { RouteSpec } from "./route";

const DOCUMENTS = operations as unknown as Record<string, TypedDocumentNode<unknown, unknown> | undefined>;

function routeOf({ operation, ...endpoint }: RestEndpoint): RouteSpec {
  const document = DOCUMENTS[`${operation}Document`];
  if (!document)
    throw new Error(`${endpoint.method} ${endpoint.path}: no GraphQL operation named ${operation} (a *.rest.graphql document)`);
  if (!isMutationDocument(document)) return { ...endpoint, document };
  return {
    ...endpoint,
    document: withIdempotencyKey(document),
    idempotent: true,
    headers: { ...endpoint.headers, [IDEMPOTENCY_HEADER]: IDEMPOTENCY_KEY_ARGUMENT },
    errors: [...new Set([...(endpoint.errors ?? []), "CONFLICT" as const])],
  };
}

const resource = (path: string): string => path.split("/")[1];

/**
 * Express takes the first route that matches: at the first position where one path has a fixed segment and the
 * other a parameter, the fixed one goes first (`/districts/summary` before `/districts/:id`), whatever the
 * features' order.
 */
function fixedBeforeParameter(a: string, b: string): number {
  // Lexicographic over "is a parameter" per segment, a shorter path first when one is a prefix of the other: a total
  // order, as Array.prototype.sort needs.
  const [x, y] = [a.split("/"), b.split("/")];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [px, py] = [x[i]!.startsWith(":"), y[i]!.startsWith(":")];
    if (px !== py) return px ? 1 : -1;
  }
  return x.length - y.length;
}

export const routes: RouteSpec[] = INSTALLED.rest
  .map(routeOf)
  .map((route, n) => ({ route, n }))
  .sort(
    (a, b) => resource(a.route.path).localeCompare(resource(b.route.path)) || fixedBeforeParameter(a.route.path, b.route.path) || a.n - b.n,
  )
  .map(({ route }) => route);
