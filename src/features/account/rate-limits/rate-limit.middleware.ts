/**
 * The limiter in the HTTP path (src/app.ts mounts it behind the API key on /graphql, /mcp and /api/v1):
 * IETF RateLimit headers on every limited key's response, 429 `rate_limited` with Retry-After when refused,
 * the lease released and the request's query cost spent when the response ends.
 */
import type { NextFunction, Request, Response } from "express";
import { httpError } from "../../../graphql/errors";
import { logger } from "../../../logger";
import type { Viewer } from "../auth/viewer";
import type { RefusalHold } from "./rate-limit.hold";
import type { RateDecision, RateLimiter } from "./rate-limit.service";

/** What a request spends while it runs: GraphQL's and REST's query cost (every operation of an MCP batch). */
export interface RequestUsage {
  cost: number;
}

/** The usage meter of the request behind `res` (undefined when its key is not limited). */
export const requestUsage = (res: Response): RequestUsage | undefined => res.locals.rateLimitUsage as RequestUsage | undefined;

/** Structured-field lists of draft-ietf-httpapi-ratelimit-headers: the request policy and the cost budget. */
function setHeaders(res: Response, d: RateDecision): void {
  const { policy } = d;
  res.setHeader(
    "RateLimit-Policy",
    `"default";q=${policy.burst};w=${Math.ceil(policy.burst / policy.rate)}, "cost";q=${policy.costBurst};w=${Math.ceil(policy.costBurst / policy.costRate)}`,
  );
  res.setHeader(
    "RateLimit",
    `"default";r=${d.remaining};t=${d.admitted ? d.reset : d.retryAfter}, "cost";r=${Math.max(0, d.costRemaining)};t=${d.costReset}`,
  );
}

/**
 * An unlimited plan (internal) gets the same header fields with a policy no client reaches: 10^9 requests and
 * 10^12 of cost per second, not counted anywhere (no statement), always full.
 */
const UNLIMITED_POLICY = `"default";q=1000000000;w=1, "cost";q=1000000000000;w=1`;
const UNLIMITED_STATE = `"default";r=1000000000;t=0, "cost";r=1000000000000;t=0`;

/** 429 bodies built once per distinct message (plan, limit and Retry-After): a refusal serializes nothing. */
const refusalBodies = new Map<string, Buffer>();

function refusalBody(d: RateDecision, plan: string): Buffer {
  const key = `${plan}|${d.reason}|${d.retryAfter}|${d.policy.rate}|${d.policy.burst}|${d.policy.concurrency}|${d.policy.costRate}|${d.policy.costBurst}`;
  let body = refusalBodies.get(key);
  if (!body) {
    if (refusalBodies.size >= 1_000) refusalBodies.clear();
    body = Buffer.from(JSON.stringify(httpError("RATE_LIMITED", refusal(d, plan))));
    refusalBodies.set(key, body);
  }
  return body;
}

function sendRefusal(res: Response, body: Buffer): void {
  // The client may have gone during a hold.
  if (res.writableEnded || res.destroyed) return;
  res.statusCode = 429;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

function refusal(d: RateDecision, plan: string): string {
  const { policy } = d;
  if (d.reason === "concurrency")
    return `too many requests in flight for this API key: at most ${policy.concurrency} at once on the ${plan} plan; retry after ${d.retryAfter} s`;
  if (d.reason === "cost")
    return `query cost budget exhausted: ${policy.costRate} cost per second, ${policy.costBurst} at most, on the ${plan} plan; retry after ${d.retryAfter} s`;
  return `rate limit exceeded: ${policy.rate} requests per second with bursts of ${policy.burst} on the ${plan} plan; retry after ${d.retryAfter} s`;
}

/**
 * `weigh` counts the requests one HTTP request stands for (an MCP JSON-RPC batch: its calls); default 1.
 * A limiter whose database fails lets the request through (logged): the request meets the same database next.
 * `hold`: refusals of a key that keeps sending while refused are answered after a bounded hold (rate-limit.hold.ts).
 */
export function rateLimit(limiter: RateLimiter, weigh: (req: Request) => number = () => 1, hold?: RefusalHold) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const viewer = res.locals.viewer as Viewer;
    let decision: RateDecision | null;
    try {
      decision = await limiter.admit(viewer.apiKeyId, viewer.plan, weigh(req));
    } catch (error) {
      logger.warn("rate limit check failed; request admitted", { error: String((error as Error)?.message ?? error) });
      return next();
    }
    if (!decision) {
      res.setHeader("RateLimit-Policy", UNLIMITED_POLICY);
      res.setHeader("RateLimit", UNLIMITED_STATE);
      return next();
    }
    setHeaders(res, decision);
    if (!decision.admitted) {
      res.setHeader("Retry-After", String(decision.retryAfter));
      const body = refusalBody(decision, viewer.plan);
      const delay = hold?.refused(viewer.apiKeyId, decision.retryAfter) ?? 0;
      if (delay === 0) return sendRefusal(res, body);
      let held = true;
      const end = () => {
        if (!held) return;
        held = false;
        clearTimeout(timer);
        hold!.release(viewer.apiKeyId);
      };
      const timer = setTimeout(() => {
        end();
        sendRefusal(res, body);
      }, delay);
      res.once("close", end);
      return;
    }
    hold?.admitted(viewer.apiKeyId);
    const usage: RequestUsage = { cost: 0 };
    res.locals.rateLimitUsage = usage;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      limiter.release(viewer.apiKeyId, decision.leaseId, usage.cost);
    };
    res.once("finish", release);
    res.once("close", release);
    next();
  };
}

/** The calls of an MCP request: each JSON-RPC request of a batch counts (notifications and responses do not). */
export function mcpCalls(req: Request): number {
  const body = req.body as unknown;
  const messages = Array.isArray(body) ? body : [body];
  const calls = messages.filter(
    (m) => m !== null && typeof m === "object" && typeof (m as { method?: unknown }).method === "string" && "id" in m,
  );
  return Math.max(1, calls.length);
}
