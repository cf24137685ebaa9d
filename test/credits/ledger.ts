/** Ledger invariants asserted by SQL after each money-path test (docs/architecture.md, "Ledger and jobs"). */
import type { Db } from "../../src/db/client";

/** Each invariant as SQL listing the rows that break it (none when it holds). */
export const LEDGER_CHECKS = {
  // every movement is two rows summing to zero
  unbalancedTransfers: `SELECT transfer_id FROM credit_ledger GROUP BY transfer_id HAVING count(*) <> 2 OR sum(amount) <> 0`,
  // the cached balance is the sum of the organization's own accounts
  staleBalances: `SELECT o.id FROM organizations o
       LEFT JOIN (SELECT organization_id, sum(amount) AS s FROM credit_ledger WHERE account IN ('available', 'held') GROUP BY 1) l
         ON l.organization_id = o.id
      WHERE o.credit_balance <> coalesce(l.s, 0)`,
  // the held account equals the open holds
  heldMismatch: `SELECT o.id FROM organizations o
      WHERE (SELECT coalesce(sum(amount), 0) FROM credit_ledger WHERE organization_id = o.id AND account = 'held')
         <> (SELECT coalesce(sum(amount), 0) FROM credit_holds WHERE organization_id = o.id AND status = 'open')`,
  // nobody overdrew
  negativeAvailable: `SELECT organization_id FROM credit_ledger WHERE account = 'available' GROUP BY 1 HAVING sum(amount) < 0`,
  // a settled hold has exactly one settlement movement, an open one none
  badSettlements: `SELECT h.id FROM credit_holds h
      WHERE (SELECT count(DISTINCT transfer_id) FROM credit_ledger l WHERE l.hold_id = h.id AND l.kind IN ('hold_commit', 'hold_release'))
         <> CASE WHEN h.status = 'open' THEN 0 ELSE 1 END`,
};

/**
 * The rows breaking each check, every check in one statement (a model test checks after each of its ~750 steps:
 * one round trip, not one per check).
 */
export async function violationsOf<K extends string>(db: Db, checks: Record<K, string>): Promise<Record<K, unknown[]>> {
  const names = Object.keys(checks) as K[];
  const fields = names.map((name, i) => `'${name}', (SELECT coalesce(json_agg(v${i}), '[]'::json) FROM (${checks[name]}) v${i})`);
  const [row] = await db.query<{ v: Record<K, unknown[]> | string }>(`SELECT json_build_object(${fields.join(", ")}) AS v`);
  const found = typeof row!.v === "string" ? (JSON.parse(row!.v) as Record<K, unknown[]>) : row!.v;
  return Object.fromEntries(names.map((name) => [name, found[name]])) as Record<K, unknown[]>;
}

export const ledgerViolations = (db: Db): Promise<Record<string, unknown[]>> => violationsOf(db, LEDGER_CHECKS);

export const NO_VIOLATIONS = { unbalancedTransfers: [], staleBalances: [], heldMismatch: [], negativeAvailable: [], badSettlements: [] };
