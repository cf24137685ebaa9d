-- Issue 26: every mutation takes an Idempotency-Key (src/graphql/idempotency.ts, docs/http-conventions.md).
-- A reservation is running while `finished_at` is null (a status code no longer marks it: the stored result is the
-- operation's, whose HTTP status follows from the route); `response` keeps the result's JSON text as it was written,
-- so a replay sends the first body byte for byte (jsonb would reorder its keys). Rows of the unlock-only scheme stay:
-- finished ones keep refusing another request with their key until their 24 hours are over.
ALTER TABLE "idempotency_keys" ADD COLUMN "finished_at" TIMESTAMPTZ(3);
UPDATE "idempotency_keys" SET "finished_at" = "created_at" WHERE "status_code" <> 0;
ALTER TABLE "idempotency_keys" DROP COLUMN "status_code";
ALTER TABLE "idempotency_keys" ALTER COLUMN "response" TYPE TEXT USING "response"::text;
