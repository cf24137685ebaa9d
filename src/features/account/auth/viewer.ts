export type Plan = "free" | "pro" | "enterprise" | "internal";
export const PLANS: readonly Plan[] = ["free", "pro", "enterprise", "internal"];

/** The caller, resolved from its API key once per request. */
export interface Viewer {
  organizationId: string;
  organizationName: string;
  plan: Plan;
  entitlements: ReadonlySet<string>;
  apiKeyId: string;
}

/** Free-plan history is gated to the latest year unless the entity is followed (contract section 4). */
export const isPaidPlan = (viewer: Viewer): boolean => viewer.plan !== "free";
