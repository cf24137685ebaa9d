-- Issue 24, latency (docs/semantic-search.md, bench/semantic.ts): what each search reads by recency becomes an index probe.
-- - Without pgvector each process keeps the vectors in memory and, before a search, reads those written since its last
--   read: (model, entity_type, updated_at) finds them without scanning the model's vectors.
-- - Names and places: a query's words are matched against cities and counties case-insensitively (ILIKE, served by
--   trigram indexes: counties had them, cities get them here) instead of lower() over every row.
-- - The coverage counts are cached per process with a fingerprint: the newest vector (the same index) and the newest
--   `last_updated_at` of the records' tables (districts and schools have that index; contacts get it here).
CREATE INDEX "embeddings_model_entity_type_updated_at_idx" ON "embeddings"("model", "entity_type", "updated_at");
CREATE INDEX "contacts_last_updated_at_idx" ON "contacts"("last_updated_at");
CREATE INDEX "districts_physical_city_trgm_idx" ON "districts" USING GIN ("physical_city" gin_trgm_ops);
CREATE INDEX "schools_physical_city_trgm_idx" ON "schools" USING GIN ("physical_city" gin_trgm_ops);
