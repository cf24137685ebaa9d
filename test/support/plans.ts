/**
 * One organization and API key per plan, as the test apps (app.ts) and the fuzz bench (bench/fuzz.ts) use them,
 * and the rate limits no test meets.
 */
import type { Db } from "../../src/db/client";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";

export const PLANS = ["free", "pro", "enterprise", "internal"] as const;
export type PlanKey = (typeof PLANS)[number];

/**
 * Test files fire hundreds of requests from one key at once: limits no test meets, unless it sets its own
 * (test/http/rate-limits.test.ts). The limiter still runs, so every test exercises its statement and headers.
 */
export const GENEROUS_RATE_LIMITS = Object.fromEntries(
  ["FREE", "PRO", "ENTERPRISE"].map((plan) => [
    `RATE_LIMIT_${plan}`,
    "rate=1000000 burst=1000000 concurrency=100000 cost_rate=1000000000000 cost_burst=1000000000000",
  ]),
);

/** "Test <plan>" organizations with 100 credits (enterprise and internal with the signals module), one key each. */
export async function createPlanOrganizations(db: Db): Promise<{ keys: Record<PlanKey, string>; orgs: Record<PlanKey, string> }> {
  const keys = {} as Record<PlanKey, string>;
  const orgs = {} as Record<PlanKey, string>;
  for (const plan of PLANS) {
    const { organizationId } = await createOrganization(db, {
      name: `Test ${plan}`,
      plan,
      credits: 100,
      entitlements: plan === "enterprise" || plan === "internal" ? ["signals"] : [],
    });
    orgs[plan] = organizationId;
    keys[plan] = (await createApiKey(db, organizationId)).apiKey;
  }
  return { keys, orgs };
}
