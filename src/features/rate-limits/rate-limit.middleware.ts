/**
 * The limiter in the HTTP path (src/app.ts mounts it behind the API key on /graphql, /mcp and /api/v1):
 * IETF RateLimit headers on every limited key's response, 429 `rate_limited` with Retry-After when refused,
 * the lease released and the request's query cost spent when the response ends.
 */
import type { NextFunction, Request, Response } from "express";
import { httpError } from "../../graphql/errors";
import { logger } from "../../logger";
import type { Viewer } from "../auth/viewer";
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
 */
export function rateLimit(limiter: RateLimiter, weigh: (req: Request) => number = () => 1) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const viewer = res.locals.viewer as Viewer;
    let decision: RateDecision | null;
    try {
      decision = await limiter.admit(viewer.apiKeyId, viewer.plan, weigh(req));
    } catch (error) {
      logger.warn("rate limit check failed; request admitted", { error: String((error as Error)?.message ?? error) });
      return next();
    }
    if (!decision) return next();
    setHeaders(res, decision);
    if (!decision.admitted) {
      res.setHeader("Retry-After", String(decision.retryAfter));
      res.status(429).json(httpError("RATE_LIMITED", refusal(decision, viewer.plan)));
      return;
    }
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
