/**
 * Rate-limit policies per plan (contract section 2, docs/limits.md). One variable per plan,
 * `RATE_LIMIT_FREE` ... `RATE_LIMIT_INTERNAL`: `unlimited`, or `name=value` pairs (spaces or commas
 * between them) overriding the plan's defaults, e.g. `rate=5 burst=60 concurrency=4`.
 */
import type { Plan } from "../auth/viewer";

export interface RatePolicy {
  /** Requests per second refilled into the key's bucket. */
  rate: number;
  /** The bucket's size: requests a key may send at once after a pause. */
  burst: number;
  /** Requests of the key in flight at once, over every API process. */
  concurrency: number;
  /** Query cost per second refilled into the key's cost budget. */
  costRate: number;
  /** The cost budget's size. */
  costBurst: number;
}

/** null: the plan is not limited (no counter, no statement, no RateLimit headers). */
export type PlanPolicy = RatePolicy | null;

const PAID: RatePolicy = { rate: 50, burst: 500, concurrency: 4, costRate: 500_000, costBurst: 5_000_000 };

/**
 * Defaults that let an integrator page through a whole state while one key cannot take the machine from the
 * others (bench/fairness.ts). A full 200-record REST page of districts costs about 120,000: a paid key's budget
 * holds some 40 such pages and refills 4 a second (a state of 1,000 districts is 5 pages), a free key's 8 and one
 * every 1.2 s; cheap requests (a 1-record page costs about 600) meet the request bucket first. Concurrency stays
 * well below the API's pool of 10 connections.
 */
export const DEFAULT_POLICIES: Record<Plan, PlanPolicy> = {
  free: { rate: 5, burst: 60, concurrency: 2, costRate: 100_000, costBurst: 1_000_000 },
  pro: PAID,
  enterprise: PAID,
  internal: null,
};

const NAMES: Record<string, keyof RatePolicy> = {
  rate: "rate",
  burst: "burst",
  concurrency: "concurrency",
  cost_rate: "costRate",
  cost_burst: "costBurst",
};

/** Parses one plan's variable; throws a message naming the bad part. */
export function parsePolicy(text: string | undefined, defaults: PlanPolicy): PlanPolicy {
  if (text === undefined || text.trim() === "") return defaults;
  if (text.trim() === "unlimited") return null;
  const policy: RatePolicy = { ...(defaults ?? PAID) };
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const match = /^([a-z_]+)=(\d+(?:\.\d+)?)$/.exec(part);
    const name = match ? NAMES[match[1]!] : undefined;
    if (!match || !name) throw new Error(`"${part.slice(0, 40)}": expected unlimited or ${Object.keys(NAMES).join("=N, ")}=N`);
    const value = Number(match[2]);
    if (!(value > 0) || (name === "concurrency" && !Number.isInteger(value))) {
      throw new Error(`${match[1]} must be a positive ${name === "concurrency" ? "integer" : "number"}`);
    }
    policy[name] = value;
  }
  if (policy.burst < 1) throw new Error("burst must be at least 1");
  return policy;
}

export function policiesFromEnv(env: Partial<Record<`RATE_LIMIT_${Uppercase<Plan>}`, string>>): Record<Plan, PlanPolicy> {
  return {
    free: parsePolicy(env.RATE_LIMIT_FREE, DEFAULT_POLICIES.free),
    pro: parsePolicy(env.RATE_LIMIT_PRO, DEFAULT_POLICIES.pro),
    enterprise: parsePolicy(env.RATE_LIMIT_ENTERPRISE, DEFAULT_POLICIES.enterprise),
    internal: parsePolicy(env.RATE_LIMIT_INTERNAL, DEFAULT_POLICIES.internal),
  };
}
