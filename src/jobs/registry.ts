/** Every background job: a feature adds its job here (declared in its `<x>.jobs.ts`). */
import { buildBriefJob } from "../features/research/briefs/brief.jobs";
import { extractJob } from "../features/account/unlocks/unlock.jobs";
import type { JobDefinition } from "./job";

export const JOBS: readonly JobDefinition<never>[] = [extractJob as JobDefinition<never>, buildBriefJob as JobDefinition<never>];
