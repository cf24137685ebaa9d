/**
 * HTTP conventions integrators expect (docs/http-conventions.md): response compression, CORS with
 * configured origins, the Bearer challenge on 401, weak ETags with 304 on detail reads, and Allow on 405.
 * Each is a small function app.ts or the REST router applies; none knows about GraphQL or the route table.
 */
import crypto from "node:crypto";
import compression from "compression";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { httpError } from "../graphql/errors";

/** Bodies smaller than this go uncompressed: the framing costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * gzip or brotli (quality 4: a 200-record page compresses in milliseconds, where the default 11 takes
 * seconds), chosen from Accept-Encoding; identity when the client asks for neither. Event streams are
 * never compressed: a buffered stream would hold events back.
 */
export function compressResponses(): RequestHandler {
  return compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
  });
}

/** Headers a browser may send cross-origin, and those its script may read. */
const ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Request-Id";
const EXPOSED_HEADERS = "ETag, X-Request-Id, X-Query-Cost, X-Query-Cost-Limit, WWW-Authenticate, Allow";
const ALLOWED_METHODS = "GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS";
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * `CORS_ORIGINS` parsed: `*` (any origin), or exact origins (`https://app.example.com`), comma-separated;
 * empty (the default) allows no cross-origin browser calls at all.
 */
export function parseCorsOrigins(raw: string | undefined): "*" | string[] {
  const items = (raw ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.includes("*")) {
    if (items.length > 1) throw new Error("CORS_ORIGINS: * cannot be combined with other origins");
    return "*";
  }
  for (const item of items) {
    let url: URL | undefined;
    try {
      url = new URL(item);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== item.replace(/\/$/, "")) {
      throw new Error(`CORS_ORIGINS: ${JSON.stringify(item)} is not an origin such as https://app.example.com`);
    }
  }
  return items.map((item) => item.replace(/\/$/, ""));
}

/**
 * CORS. Keys travel in the Authorization header, never in cookies, so no credentials mode is offered and
 * `*` is safe to configure; the default is still no cross-origin access, an operator's choice to open.
 * Every OPTIONS request (a preflight) is answered here, before authentication: a browser sends none with it.
 */
export function cors(origins: "*" | string[]): RequestHandler {
  const allowed = origins === "*" ? null : new Set(origins);
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (allowed) res.vary("Origin");
    const permitted = typeof origin === "string" && (origins === "*" || allowed!.has(origin));
    if (permitted) {
      res.setHeader("Access-Control-Allow-Origin", origins === "*" ? "*" : origin);
      res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
    if (req.method !== "OPTIONS") return next();
    if (permitted && req.headers["access-control-request-method"]) {
      res.setHeader("Access-Control-Allow-Methods", ALLOWED_METHODS);
      res.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      res.setHeader("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_SECONDS));
    }
    res.setHeader("Allow", ALLOWED_METHODS);
    res.status(204).end();
  };
}

/**
 * The challenge of a 401 (RFC 6750): `Bearer realm="edmarket"`, with `error="invalid_token"` when a
 * credential was sent and refused (no error attribute when none was sent, as the RFC asks).
 */
export function bearerChallenge(req: Request): string {
  return req.headers.authorization ? 'Bearer realm="edmarket", error="invalid_token"' : 'Bearer realm="edmarket"';
}

/** A weak validator of the exact bytes served: weak, because compression changes the bytes on the wire but not the content. */
export function weakEtag(body: Buffer): string {
  return `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

/**
 * Whether If-None-Match names `etag` (weak comparison, RFC 9110 13.1.2): `*`, or a list of entity tags.
 * A malformed header matches nothing, so the full response is served (a validator the client cannot have
 * received from us is not an error worth refusing the read for).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header || header.length > 8192) return false;
  if (header.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  for (const tag of header.split(",")) {
    const candidate = tag.trim().replace(/^W\//, "");
    if (/^"[\x21\x23-\x7e]*"$/.test(candidate) && candidate === opaque) return true;
  }
  return false;
}

/** 405 for a path the service knows with a method it does not serve there; `Allow` lists the ones it does. */
export function methodNotAllowed(allow: readonly string[]): RequestHandler {
  const header = allow.join(", ");
  return (req, res) => {
    res.setHeader("Allow", header);
    res.status(405).json(httpError("METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${req.path}; allowed: ${header}`));
  };
}
