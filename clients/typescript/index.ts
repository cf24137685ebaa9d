/**
 * A typed client for the edmarket REST API (/api/v1): openapi-fetch over the types openapi-typescript
 * generated from the service's OpenAPI document (generated/, `npm run generate:client`). Paths, parameters,
 * bodies and responses are checked by the TypeScript compiler against the document.
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./generated/schema";

export type { components, operations, paths };
export type EdmarketClient = Client<paths>;
/** The generic error body every error answers (`{ error, message, statusCode }`, some codes add fields). */
export type ErrorBody = components["schemas"]["ErrorBody"];

export interface ClientOptions {
  /** Where the service runs, e.g. http://localhost:3000 (the client adds /api/v1). */
  baseUrl: string;
  /** An API key of your organization (sk_live_...). */
  apiKey: string;
  /** A fetch implementation (default: the global fetch of Node 18+ and browsers). */
  fetch?: typeof fetch;
}

export function createEdmarketClient(options: ClientOptions): EdmarketClient {
  return createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, "")}/api/v1`,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    // Lists travel as one comma-separated parameter (ids=a,b), as the document's `explode: false` says.
    querySerializer: { array: { style: "form", explode: false } },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
