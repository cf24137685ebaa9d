/**
 * The opportunity agent's jobs (docs/opportunities.md):
 * - `opportunities.generate` runs the agent for one project (opportunity.agent.ts). The worker's sweep
 *   (scheduleOpportunityRuns, every WORKER_POLL_SECONDS) sends one for every project the agent has not run on since
 *   it was created, since its profile changed (projects.updated_at) or since newer signals arrived, with a job id
 *   derived from that state, so one state is one job however many sweeps see it. A new project therefore has its
 *   first opportunities within seconds of the next sweep (contract section 6: within a minute).
 * - `opportunities.verify` is one verification run (opportunity.verify.ts), sent by POST /opportunities/{id}/refresh.
 */
import type { Db } from "../../../db/client";
import { defineJob, jobIdOf, type JobDefinition } from "../../../jobs/job";
import { runOpportunityAgent } from "./opportunity.agent";

export interface GenerateOpportunitiesData {
  projectId: string;
}

export const generateOpportunitiesJob = defineJob<GenerateOpportunitiesData>({
  name: "opportunities.generate",
  async run({ db }, data) {
    await runOpportunityAgent(db, data.projectId);
  },
});

export interface VerifyOpportunityData {
  opportunityId: string;
  /** The run this job is: the row's verification_job_id when it was sent. */
  jobId: string;
}

export const verifyOpportunityJob = defineJob<VerifyOpportunityData>({
  name: "opportunities.verify",
  // The fetcher (readability, linkedom) loads in the worker at the first run, not at every start.
  async run({ db, env }, data) {
    await (await import("./opportunity.verify")).verifyOpportunity(db, env, data.opportunityId, data.jobId);
  },
  async onFinalFailure({ db }, data, error) {
    await (await import("./opportunity.verify")).failVerification(db, data.opportunityId, data.jobId, error);
  },
});

export const opportunityJobs: JobDefinition<never>[] = [
  generateOpportunitiesJob as JobDefinition<never>,
  verifyOpportunityJob as JobDefinition<never>,
];

export interface AgentSender {
  sendNow<T>(job: JobDefinition<T>, data: T, id: string): Promise<string | null>;
}

/**
 * Sends the agent's job for every project that needs a run: never run, profile changed since, or a signal newer than
 * the newest it saw. Returns how many new jobs were sent. One statement to find them.
 */
export async function scheduleOpportunityRuns(db: Db, queue: AgentSender): Promise<number> {
  const due = await db.query<{ id: string; state: string }>(
    `SELECT p.id::text AS id,
            concat_ws('|', p.updated_at::text, (SELECT max(s.created_at) FROM signals s)::text) AS state
       FROM projects p
      WHERE p.opportunities_run_at IS NULL
         OR p.opportunities_profile_at IS DISTINCT FROM p.updated_at
         OR EXISTS (SELECT 1 FROM signals s WHERE s.created_at > coalesce(p.opportunities_signals_through, '-infinity'::timestamptz))
      ORDER BY p.opportunities_run_at NULLS FIRST, p.id
      LIMIT 500`,
  );
  let sent = 0;
  for (const { id, state } of due)
    if (await queue.sendNow(generateOpportunitiesJob, { projectId: id }, jobIdOf(`opportunities.generate:${id}:${state}`))) sent += 1;
  return sent;
}
