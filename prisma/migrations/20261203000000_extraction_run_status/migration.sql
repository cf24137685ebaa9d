-- Issue 20 points 7, 8 and 11 (docs/extraction.md, docs/contacts.md).

-- Point 8: a run is recorded from its start ("running", no finished_at yet) to its end ("completed" or
-- "error"); a re-extraction's progress and failure live on its run, not on the served catalogue row.
ALTER TABLE "extraction_runs" ALTER COLUMN "finished_at" DROP NOT NULL;

-- Point 8, existing data: an entity whose re-extraction failed (or was interrupted) before this change was
-- left in "error"/"processing" although a completed run's rows are still stored: it serves them again.
UPDATE "districts" d SET "status" = 'completed', "error_message" = NULL
 WHERE d."status" IN ('error', 'processing')
   AND EXISTS (SELECT 1 FROM "extraction_runs" r WHERE r."entity_type" = 'district' AND r."entity_id" = d."id" AND r."status" = 'completed');
UPDATE "schools" s SET "status" = 'completed', "error_message" = NULL
 WHERE s."status" IN ('error', 'processing')
   AND EXISTS (SELECT 1 FROM "extraction_runs" r WHERE r."entity_type" = 'school' AND r."entity_id" = s."id" AND r."status" = 'completed');

-- Point 11: the attempts an unlock's extraction job made (unlock-status `attempts`; `error` is the last one's).
ALTER TABLE "unlocks" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;

-- Point 7: secrets generated once per database (the key of extracted rows' ids); every process of one
-- database reads the same row, so they all compute the same ids.
CREATE TABLE "server_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "server_secrets_pkey" PRIMARY KEY ("name")
);
