import { defineFeature } from "../../../graphql/feature";
import type { JobDefinition } from "../../../jobs/job";
import { extractJob } from "./unlock.jobs";
import { UnlockResolver } from "./unlock.resolver";

/** Credits spent on unlocks (POST /unlock, GET /unlock-status) and the extraction job an unlock starts. */
export const unlocksFeature = defineFeature({
  name: "unlocks",
  resolvers: [UnlockResolver],
  jobs: [extractJob as JobDefinition<never>],
});
