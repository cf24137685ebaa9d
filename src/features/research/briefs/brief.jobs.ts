/**
 * The build of a brief (`briefs.build`): assembles the dossier (brief.dossier.ts) and marks the brief
 * ready. A job acts only on the build it was sent for (the brief's job_id): a restarted build (POST on a
 * brief stuck over 60 minutes) supersedes the old job, whose late result is dropped. A throwing build is
 * retried (JOB_RETRY_LIMIT, backoff); after the last attempt the brief is failed with the error.
 */
import { faultPoint } from "../../../fault-points";
import { defineJob } from "../../../jobs/job";
import { logger } from "../../../logger";
import { emitEvent } from "../../account/webhooks/webhook.outbox";
import { buildDossier } from "./brief.dossier";

export interface BuildBriefData {
  briefId: string;
  /** The build this job is: the brief's job_id when it was sent. */
  jobId: string;
}

export const buildBriefJob = defineJob<BuildBriefData>({
  name: "briefs.build",
  async run(ctx, data) {
    const current = { id: data.briefId, job_id: data.jobId, status: "building" };
    const brief = await ctx.db.prisma.brief.findFirst({
      where: current,
      select: { organization_id: true, entity_type: true, entity_id: true },
    });
    if (!brief) return; // superseded by a restarted build, or gone
    const built = await buildDossier(ctx.db, ctx.env, brief);
    const now = new Date();
    // The brief is ready and its brief.ready event written in one transaction (docs/webhooks.md).
    const count = await ctx.db.prisma.$transaction(async (tx) => {
      const { count: updated } = await tx.brief.updateMany({
        where: current,
        data: {
          status: "ready",
          dossier: built.dossier as never,
          generator: built.generator,
          error: null,
          finished_at: now,
          updated_at: now,
        },
      });
      if (updated)
        await emitEvent(tx, "brief.ready", brief.organization_id, {
          id: data.briefId,
          entity_type: brief.entity_type,
          entity_id: brief.entity_id,
          finished_at: now.toISOString(),
        });
      await faultPoint("brief.ready");
      return updated;
    });
    if (!count) logger.info("brief build superseded", { briefId: data.briefId, jobId: data.jobId });
  },
  async onFinalFailure(ctx, data, error) {
    const now = new Date();
    await ctx.db.prisma.brief.updateMany({
      where: { id: data.briefId, job_id: data.jobId, status: "building" },
      data: { status: "failed", error: `build failed: ${error.message}`.slice(0, 500), finished_at: now, updated_at: now },
    });
  },
});
