/** Ledger invariants asserted by SQL after each money-path test (docs/architecture.md, "Ledger and jobs"). */
import type { Db } from "../../src/db/client";

export async function ledgerViolations(db: Db): Promise<Record<string, unknown[]>> {
  const check = (sql: string) => db.query(sql);
  return {
    // every movement is two rows summing to zero
    unbalancedTransfers: await check(`SELECT transfer_id FROM credit_ledger GROUP BY transfer_id HAVING count(*) <> 2 OR sum(amount) <> 0`),
    // the cached balance is the sum of the organization's own accounts
    staleBalances: await check(
      `SELECT o.id FROM organizations o
         LEFT JOIN (SELECT organization_id, sum(amount) AS s FROM credit_ledger WHERE account IN ('available', 'held') GROUP BY 1) l
           ON l.organization_id = o.id
        WHERE o.credit_balance <> coalesce(l.s, 0)`,
    ),
    // the held account equals the open holds
    heldMismatch: await check(
      `SELECT o.id FROM organizations o
        WHERE (SELECT coalesce(sum(amount), 0) FROM credit_ledger WHERE organization_id = o.id AND account = 'held')
           <> (SELECT coalesce(sum(amount), 0) FROM credit_holds WHERE organization_id = o.id AND status = 'open')`,
    ),
    // nobody overdrew
    negativeAvailable: await check(
      `SELECT organization_id FROM credit_ledger WHERE account = 'available' GROUP BY 1 HAVING sum(amount) < 0`,
    ),
    // a settled hold has exactly one settlement movement, an open one none
    badSettlements: await check(
      `SELECT h.id FROM credit_holds h
        WHERE (SELECT count(DISTINCT transfer_id) FROM credit_ledger l WHERE l.hold_id = h.id AND l.kind IN ('hold_commit', 'hold_release'))
           <> CASE WHEN h.status = 'open' THEN 0 ELSE 1 END`,
    ),
  };
}

export const NO_VIOLATIONS = { unbalancedTransfers: [], staleBalances: [], heldMismatch: [], negativeAvailable: [], badSettlements: [] };
