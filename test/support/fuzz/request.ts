/** One fuzzed HTTP request, as the generators build it and the runner sends it. */
import type { PlanKey } from "../plans";

/** Whose API key the request carries: a plan's organization, none, or a key that is not one. */
export type Caller = PlanKey | "none" | "malformed" | "unknown";

export interface FuzzRequest {
  face: "rest" | "graphql";
  /** What it exercises, for reports: `GET /districts/:id`, `graphql Query.districts`. */
  label: string;
  method: string;
  /** Path and query string, encoded as they go on the wire. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  caller: Caller;
}

/** A request as one line a person can replay with curl (body clipped). */
export function describeRequest(request: FuzzRequest, max = 600): string {
  const headers = Object.entries(request.headers)
    .map(([k, v]) => ` -H '${k}: ${v.slice(0, 120)}'`)
    .join("");
  const body =
    request.body === undefined
      ? ""
      : ` --data-binary '${request.body.slice(0, max)}${request.body.length > max ? `…(${request.body.length} chars)` : ""}'`;
  const path = request.path.length > max ? `${request.path.slice(0, max)}…(${request.path.length} chars)` : request.path;
  return `[${request.caller}] ${request.method} ${path}${headers}${body}`;
}
