-- Issue 24 (semantic search, docs/semantic-search.md): each vector records its model's dimension and the hash of the
-- text it embeds (a changed text or another model is embedded again), and carries its entity's state, district and
-- school, so the search filters inside the vector scan instead of after it (a filtered page is never short).
-- `vector` (REAL[]) stays the canonical column on every database: Debian's PostgreSQL 15 has no pgvector, so no
-- vector-typed DDL can be in a migration; where the extension exists, the HNSW index is an expression index over
-- this column, created by src/features/research/semantic-search/vector-index.ts (see there for why).
ALTER TABLE "embeddings" ADD COLUMN "dimension" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "content_sha256" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "state" TEXT,
  ADD COLUMN "district_id" UUID,
  ADD COLUMN "school_id" UUID,
  ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

CREATE INDEX "embeddings_model_entity_type_source_type_idx" ON "embeddings"("model", "entity_type", "source_type");
CREATE INDEX "embeddings_model_entity_type_state_idx" ON "embeddings"("model", "entity_type", "state");
CREATE INDEX "embeddings_entity_id_idx" ON "embeddings"("entity_id");
