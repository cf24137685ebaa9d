/**
 * Per-key rate limits, cost budget and concurrency, counted in the database so that every API process of
 * one database shares them (table rate_limits, one row per API key).
 *
 * A request's admission is ONE statement: an INSERT ... ON CONFLICT DO UPDATE that refills the key's two
 * token buckets (requests and query cost) by the time since the last refill, drops expired concurrency
 * leases and those this process finished since, applies the finished requests' cost, decides, and takes a
 * request token and a lease when admitted; the row lock of the upsert serializes concurrent processes.
 * A finished request's release (its lease and its cost, known only at the end) waits in this process for
 * the key's next admission statement, or for a flush a few milliseconds later when none comes.
 * Leases expire (REQUEST_TIMEOUT_MS plus a margin), so a crashed process does not hold slots forever.
 * A refusal the database would certainly give (the key's last known row, refilled since, is short; or this
 * process alone holds every slot) is answered without a statement, so a flood of refused requests is cheap.
 */
import crypto from "node:crypto";
import type { ControlChannel } from "../../../db/control";
import { logger } from "../../../logger";
import type { Plan } from "../auth/viewer";
import type { PlanPolicy, RatePolicy } from "./rate-limit.policy";

/** How long a finished request's release may wait for the key's next admission before it is flushed on its own. */
const RELEASE_FLUSH_MS = 10;

export type RefusalReason = "rate" | "cost" | "concurrency";

export interface RateDecision {
  admitted: boolean;
  reason?: RefusalReason;
  policy: RatePolicy;
  /** Whole request tokens left after this request. */
  remaining: number;
  /** Seconds until the request bucket is full again. */
  reset: number;
  /** Cost budget left (negative: spent ahead, refused until it refills above zero). */
  costRemaining: number;
  /** Seconds until the cost budget is full again. */
  costReset: number;
  /** Seconds to wait before a retry can be admitted (refusals). */
  retryAfter: number;
  /** Requests of the key in flight, this one included when admitted. */
  inFlight: number;
  /** The lease to release when the request ends (admitted only). */
  leaseId?: string;
}

interface Pending {
  leases: string[];
  cost: number;
}

const ADMIT = `
INSERT INTO rate_limits AS r (api_key_id, tokens, cost_tokens, leases, refilled_at, admitted)
SELECT $1::uuid, $2::float8 - $4::float8, $5::float8 - $10::float8, jsonb_build_object($7::text, t + $8::float8), t, true
  FROM (SELECT extract(epoch FROM clock_timestamp())::float8 AS t) clock
ON CONFLICT (api_key_id) DO UPDATE SET (tokens, cost_tokens, leases, refilled_at, admitted) = (
  SELECT CASE WHEN ok THEN d.tokens - $4::float8 ELSE d.tokens END,
         d.cost_tokens,
         CASE WHEN ok THEN d.leases || jsonb_build_object($7::text, d.t + $8::float8) ELSE d.leases END,
         d.t,
         ok
    FROM (SELECT s.*, s.tokens >= $4::float8 AND s.cost_tokens > 0
                      AND (SELECT count(*) FROM jsonb_object_keys(s.leases)) < $6::int AS ok
            FROM (SELECT least($2::float8, r.tokens + (EXCLUDED.refilled_at - r.refilled_at) * $3::float8) AS tokens,
                         least($5::float8, r.cost_tokens - $10::float8 + (EXCLUDED.refilled_at - r.refilled_at) * $11::float8) AS cost_tokens,
                         (SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb)
                            FROM jsonb_each(r.leases - $9::text[]) WHERE value::float8 > EXCLUDED.refilled_at) AS leases,
                         EXCLUDED.refilled_at AS t) s) d)
RETURNING tokens, cost_tokens, admitted, (SELECT count(*) FROM jsonb_object_keys(leases))::int AS in_flight`;

const RELEASE = `
UPDATE rate_limits r SET leases = r.leases - ARRAY(SELECT jsonb_array_elements_text(u.leases)), cost_tokens = r.cost_tokens - u.cost
  FROM jsonb_to_recordset($1::jsonb) AS u(api_key_id uuid, leases jsonb, cost float8)
 WHERE r.api_key_id = u.api_key_id`;

export class RateLimiter {
  private readonly pending = new Map<string, Pending>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  /** The key's row as the database last answered, and when that statement was sent (this process's clock). */
  private readonly known = new Map<string, { tokens: number; cost: number; at: number }>();
  /** Requests of each key admitted by this process and not yet released. */
  private readonly inFlightHere = new Map<string, number>();

  constructor(
    private readonly control: ControlChannel,
    private readonly policies: Record<Plan, PlanPolicy>,
    /** Seconds a lease lives when its request never releases it (a crashed process). */
    private readonly leaseSeconds: number,
  ) {}

  /** Statements the limiter sent (its own counter: db.stats counts the requests' statements only). */
  get stats(): { statements: number } {
    return this.control.stats;
  }

  policyOf(plan: Plan): PlanPolicy {
    return this.policies[plan];
  }

  /**
   * Admits or refuses one request of `apiKeyId` that counts `weight` requests (an MCP batch: its calls).
   * null: the plan is unlimited.
   */
  async admit(apiKeyId: string, plan: Plan, weight = 1): Promise<RateDecision | null> {
    const policy = this.policies[plan];
    if (!policy) return null;
    // A request weighing more than the whole bucket could never pass: it takes the whole bucket.
    const need = Math.min(weight, policy.burst);
    const local = this.refusedHere(apiKeyId, policy, need);
    if (local) return local;
    // A release already on its way lands first: this decision sees the cost and slots it returns.
    await this.flushing;
    const released = this.pending.get(apiKeyId);
    this.pending.delete(apiKeyId);
    const leaseId = crypto.randomUUID();
    const sentAt = Date.now();
    let row: { tokens: number; cost_tokens: number; admitted: boolean; in_flight: number };
    try {
      [row] = (await this.control.query(
        ADMIT,
        [
          apiKeyId,
          policy.burst,
          policy.rate,
          need,
          policy.costBurst,
          policy.concurrency,
          leaseId,
          this.leaseSeconds,
          released?.leases ?? [],
          released?.cost ?? 0,
          policy.costRate,
        ],
        "rate_limit_admit",
      )) as [typeof row];
    } catch (error) {
      if (released) this.queue(apiKeyId, released.leases, released.cost);
      throw error;
    }
    const tokens = Number(row.tokens);
    const cost = Number(row.cost_tokens);
    this.known.set(apiKeyId, { tokens, cost, at: sentAt });
    if (row.admitted) this.inFlightHere.set(apiKeyId, (this.inFlightHere.get(apiKeyId) ?? 0) + 1);
    return decision(policy, need, tokens, cost, row.admitted, row.in_flight, row.admitted ? leaseId : undefined);
  }

  /**
   * A refusal the database would give anyway, answered without asking it: other processes only take tokens,
   * cost and slots, so the key's last known row refilled since (measured from when that statement was sent)
   * is at least what the database holds, and this process's own unreleased requests are at most what it
   * counts in flight. A flood of refused requests then costs no statement.
   */
  private refusedHere(apiKeyId: string, policy: RatePolicy, need: number): RateDecision | undefined {
    const known = this.known.get(apiKeyId);
    if (!known) return undefined;
    const elapsed = Math.max(0, (Date.now() - known.at) / 1000);
    const tokens = Math.min(policy.burst, known.tokens + elapsed * policy.rate);
    const cost = Math.min(policy.costBurst, known.cost + elapsed * policy.costRate);
    const here = this.inFlightHere.get(apiKeyId) ?? 0;
    if (tokens >= need && cost > 0 && here < policy.concurrency) return undefined;
    return decision(policy, need, tokens, cost, false, here, undefined);
  }

  /** The request holding `leaseId` ended having spent `cost`: freed with the key's next admission, or flushed shortly. */
  release(apiKeyId: string, leaseId: string | undefined, cost: number): void {
    // After close (a response that outlived the app's stop) the lease expires on its own.
    if (leaseId) {
      const here = (this.inFlightHere.get(apiKeyId) ?? 1) - 1;
      if (here > 0) this.inFlightHere.set(apiKeyId, here);
      else this.inFlightHere.delete(apiKeyId);
    }
    if (this.closed) return;
    this.queue(apiKeyId, leaseId ? [leaseId] : [], cost);
  }

  private queue(apiKeyId: string, leases: string[], cost: number): void {
    const entry = this.pending.get(apiKeyId) ?? { leases: [], cost: 0 };
    entry.leases.push(...leases);
    entry.cost += cost;
    this.pending.set(apiKeyId, entry);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, RELEASE_FLUSH_MS);
  }

  /** Sends every waiting release in one statement. */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.size === 0) return this.flushing;
    const batch = [...this.pending].map(([api_key_id, p]) => ({ api_key_id, leases: p.leases, cost: p.cost }));
    this.pending.clear();
    this.flushing = this.flushing
      .then(() => this.control.query(RELEASE, [JSON.stringify(batch)]))
      .then(
        () => undefined,
        // The leases expire on their own; only the cost of these requests goes uncounted.
        (error: unknown) => logger.warn("rate limit release failed", { error: String((error as Error)?.message ?? error) }),
      );
    return this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    await this.control.close();
  }
}

function decision(
  policy: RatePolicy,
  need: number,
  tokens: number,
  cost: number,
  admitted: boolean,
  inFlight: number,
  leaseId: string | undefined,
): RateDecision {
  const reason: RefusalReason | undefined = admitted ? undefined : tokens < need ? "rate" : cost <= 0 ? "cost" : "concurrency";
  const retryAfter =
    reason === "rate"
      ? Math.ceil((need - tokens) / policy.rate)
      : reason === "cost"
        ? Math.ceil(-cost / policy.costRate + 1e-9)
        : reason === "concurrency"
          ? 1
          : 0;
  return {
    admitted,
    reason,
    policy,
    remaining: Math.max(0, Math.floor(tokens)),
    reset: Math.ceil(Math.max(0, policy.burst - tokens) / policy.rate),
    costRemaining: Math.floor(cost),
    costReset: Math.ceil(Math.max(0, policy.costBurst - cost) / policy.costRate),
    retryAfter: Math.max(1, retryAfter),
    inFlight,
    leaseId,
  };
}
