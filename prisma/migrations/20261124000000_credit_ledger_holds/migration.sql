-- Double-entry credit ledger (contract section 5): every movement is two rows sharing transfer_id,
-- amounts summing to zero, on the accounts available / held (the organization's) and issued / spent.
ALTER TABLE "credit_ledger" ADD COLUMN "transfer_id" UUID;
ALTER TABLE "credit_ledger" ADD COLUMN "account" TEXT;
-- Rows written before this migration were single-entry grants: they become the `available` leg, and
-- each gets its `issued` counter-leg.
UPDATE "credit_ledger" SET "transfer_id" = "id", "account" = 'available';
INSERT INTO "credit_ledger" ("organization_id", "transfer_id", "account", "kind", "amount", "note", "created_at")
SELECT "organization_id", "transfer_id", 'issued', "kind", -"amount", "note", "created_at" FROM "credit_ledger";
ALTER TABLE "credit_ledger" ALTER COLUMN "transfer_id" SET NOT NULL;
ALTER TABLE "credit_ledger" ALTER COLUMN "account" SET NOT NULL;
CREATE INDEX "credit_ledger_transfer_id_idx" ON "credit_ledger" ("transfer_id");

-- Holds expire; the sweeper releases expired open holds.
ALTER TABLE "credit_holds" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
UPDATE "credit_holds" SET "expires_at" = "created_at" + interval '30 minutes';
ALTER TABLE "credit_holds" ALTER COLUMN "expires_at" SET NOT NULL;
CREATE INDEX "credit_holds_status_expires_at_idx" ON "credit_holds" ("status", "expires_at");

-- The channel an unlock was requested through (dashboard, mcp, api).
ALTER TABLE "unlocks" ADD COLUMN "channel" TEXT;
