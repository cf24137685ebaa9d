-- The extraction pipeline (docs/extraction.md): every extracted row keeps the page it came from.
ALTER TABLE "entity_vendors" ADD COLUMN "source_url" TEXT;
ALTER TABLE "funding" ADD COLUMN "source_url" TEXT;
ALTER TABLE "contracts" ADD COLUMN "source_url" TEXT;
ALTER TABLE "bids" ADD COLUMN "source_url" TEXT;

-- One row per pipeline run: pages, bytes, per-extractor counts and the pages that failed.
CREATE TABLE "extraction_runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "job_id" UUID,
    "root_url" TEXT,
    "status" TEXT NOT NULL,
    "pages_fetched" INTEGER NOT NULL DEFAULT 0,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "counts" JSONB,
    "errors" JSONB,
    "error_message" TEXT,
    "text_provider" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "extraction_runs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "extraction_runs_entity_type_entity_id_started_at_idx" ON "extraction_runs" ("entity_type", "entity_id", "started_at");
