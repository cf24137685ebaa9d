import type { JobDefinition } from "../../../jobs/job";

/** The feed's background jobs (polling, article processing). */
export const newsJobs: JobDefinition<never>[] = [];
