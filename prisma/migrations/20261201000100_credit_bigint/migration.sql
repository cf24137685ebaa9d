-- Issue 20 point 10: credits are whole numbers. The ledger's amounts, the holds' amounts and the cached balance were
-- double precision: a 1.5-credit grant was stored, and after a 1e20 grant a 6-credit charge left the balance
-- unchanged. They become BIGINT; the service bounds grants (1..1e12) and balances (1e15, exact as JS numbers).
--
-- Rows written before: a fraction is rounded (half to even, so the two rows of a movement, n and -n, stay
-- opposite), and an amount beyond the balance bound is clamped to it (a 1e20 grant does not fit BIGINT and meant
-- nothing); then each balance is the sum of the organization's own accounts again, as the ledger defines it.
ALTER TABLE "credit_ledger" ALTER COLUMN "amount" TYPE BIGINT
  USING (sign("amount") * least(abs(round("amount")), 1e15))::bigint;
ALTER TABLE "credit_holds" ALTER COLUMN "amount" TYPE BIGINT
  USING (sign("amount") * least(abs(round("amount")), 1e15))::bigint;
ALTER TABLE "organizations" ALTER COLUMN "credit_balance" DROP DEFAULT;
ALTER TABLE "organizations" ALTER COLUMN "credit_balance" TYPE BIGINT USING 0;
ALTER TABLE "organizations" ALTER COLUMN "credit_balance" SET DEFAULT 0;
UPDATE "organizations" o
   SET "credit_balance" = l.s
  FROM (SELECT organization_id, sum(amount)::bigint AS s FROM "credit_ledger"
         WHERE account IN ('available', 'held') GROUP BY organization_id) l
 WHERE l.organization_id = o.id;
