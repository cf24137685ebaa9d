-- Per-key rate limits (docs/limits.md, src/features/rate-limits): one row per API key, shared by every API
-- process of this database. Two token buckets refilled by elapsed time (requests, query cost) and the key's
-- in-flight requests as leases { lease id: expiry in epoch seconds }, so a crashed process's leases expire.
CREATE TABLE "rate_limits" (
    "api_key_id" UUID NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "cost_tokens" DOUBLE PRECISION NOT NULL,
    "leases" JSONB NOT NULL DEFAULT '{}',
    "refilled_at" DOUBLE PRECISION NOT NULL,
    "admitted" BOOLEAN NOT NULL DEFAULT true,
    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("api_key_id")
);
