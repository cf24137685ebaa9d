-- Issue 23: the opportunity agent (src/features/research/opportunities, docs/opportunities.md).
-- An opportunity is written once per (project, entity, signal): dedupe_key says which ("district:<id>:<signal id>",
-- "district:<id>:profile" for a supplementary prospect). The rows the demo seed wrote before get their key.
ALTER TABLE "opportunities" ADD COLUMN "dedupe_key" TEXT;
UPDATE "opportunities"
   SET "dedupe_key" = "entity_type" || ':' || coalesce("school_id", "district_id")::text || ':' || coalesce("signal_ids"[1]::text, 'profile');
ALTER TABLE "opportunities" ALTER COLUMN "dedupe_key" SET NOT NULL;
CREATE UNIQUE INDEX "opportunities_project_id_dedupe_key_key" ON "opportunities"("project_id", "dedupe_key");
-- Nothing expires (a standing staffing gap, a trend in federal data): window_status durable.
ALTER TABLE "opportunities" ADD COLUMN "window_durable" BOOLEAN NOT NULL DEFAULT false;
-- What verification looks for: the reason's kind and, per source URL, the text the source must still say.
ALTER TABLE "opportunities" ADD COLUMN "claim" JSONB;
-- The verification run in flight (POST /opportunities/{id}/refresh): a refresh while it runs starts no second one.
ALTER TABLE "opportunities" ADD COLUMN "verification_job_id" UUID;
ALTER TABLE "opportunities" ADD COLUMN "verification_started_at" TIMESTAMPTZ(3);

-- The agent's bookkeeping per project: when it last ran, the profile it ran on (projects.updated_at then) and the
-- newest signal it had seen; the worker's sweep runs it again when either moved on.
ALTER TABLE "projects" ADD COLUMN "opportunities_run_at" TIMESTAMPTZ(3);
ALTER TABLE "projects" ADD COLUMN "opportunities_profile_at" TIMESTAMPTZ(3);
ALTER TABLE "projects" ADD COLUMN "opportunities_signals_through" TIMESTAMPTZ(3);

CREATE INDEX "signals_created_at_idx" ON "signals"("created_at");
