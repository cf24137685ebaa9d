/**
 * The table of REST endpoints (/api/v1): every installed feature's `rest` declarations (src/graphql/rest.ts),
 * each with its operation's document from the codegen output. Grouped by resource (the path's first
 * segment), in the features' order within a group.
 */
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { INSTALLED } from "../src/graphql/features";
import type { RestEndpoint } from "../src/graphql/rest";
import * as operations from "./generated/operations";
import type { RouteSpec } from "./route";

const DOCUMENTS = operations as unknown as Record<string, TypedDocumentNode<unknown, unknown> | undefined>;

function routeOf({ operation, ...endpoint }: RestEndpoint): RouteSpec {
  const document = DOCUMENTS[`${operation}Document`];
  if (!document)
    throw new Error(`${endpoint.method} ${endpoint.path}: no GraphQL operation named ${operation} (a *.rest.graphql document)`);
  return { ...endpoint, document };
}

const resource = (path: string): string => path.split("/")[1];

export const routes: RouteSpec[] = INSTALLED.rest
  .map(routeOf)
  .map((route, n) => ({ route, n }))
  .sort((a, b) => resource(a.route.path).localeCompare(resource(b.route.path)) || a.n - b.n)
  .map(({ route }) => route);
