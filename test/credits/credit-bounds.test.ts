/**
 * Issue 20 point 10: credits are whole numbers with bounds. `credits grant --amount 1.5` was accepted, and after a
 * 1e20 grant a 6-credit unlock left the balance unchanged (double precision). Now the ledger's amounts and the
 * cached balance are BIGINT, a grant is 1..MAX_CREDIT_GRANT, a balance at most MAX_CREDIT_BALANCE (exact as a JS
 * number), and every charge moves the balance by exactly its cost. The CLI's side: test/cli/admin-cli.test.ts.
 */
import { MAX_CREDIT_BALANCE, MAX_CREDIT_GRANT } from "../../src/features/account/credits/credits.service";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization, grantCredits } from "../../src/features/account/organizations/organization.service";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";
import { ledgerViolations, NO_VIOLATIONS } from "./ledger";

describe("credits are bounded whole numbers (issue 20 point 10)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());
  afterEach(async () => expect(await ledgerViolations(t.db)).toEqual(NO_VIOLATIONS));

  const newOrg = async (credits?: number) => {
    const { organizationId } = await createOrganization(t.db, { name: "Bounds", plan: "pro", credits });
    return { organizationId, key: (await createApiKey(t.db, organizationId)).apiKey };
  };

  it("the ledger checks find a stale balance and an unbalanced transfer (and nothing once repaired)", async () => {
    const { organizationId } = await newOrg(50);
    await t.db.query(`UPDATE organizations SET credit_balance = credit_balance + 1 WHERE id = $1`, [organizationId]);
    const [entry] = await t.db.query<{ id: string; transfer_id: string }>(
      `SELECT id, transfer_id FROM credit_ledger WHERE organization_id = $1 LIMIT 1`,
      [organizationId],
    );
    await t.db.query(`UPDATE credit_ledger SET amount = amount + 1 WHERE id = $1`, [entry!.id]);
    const found = await ledgerViolations(t.db);
    expect(found.staleBalances).toEqual([{ id: organizationId }]);
    expect(found.unbalancedTransfers).toEqual([{ transfer_id: entry!.transfer_id }]);
    await t.db.query(`UPDATE credit_ledger SET amount = amount - 1 WHERE id = $1`, [entry!.id]);
    await t.db.query(`UPDATE organizations SET credit_balance = credit_balance - 1 WHERE id = $1`, [organizationId]);
    expect(await ledgerViolations(t.db)).toEqual(NO_VIOLATIONS);
  });
  const orgCredits = async (key: string) =>
    (await t.http.get("/api/v1/org").set("Authorization", `Bearer ${key}`).expect(200)).body.credits;
  const unlockDistrict = async (key: string) => {
    const id = await insertDistrict(t.db, { status: "completed" });
    return (
      await t.http.post("/api/v1/unlock").set("Authorization", `Bearer ${key}`).send({ entity_type: "district", entity_id: id }).expect(200)
    ).body;
  };
  const ledgerRows = async (organizationId: string) =>
    Number(
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM credit_ledger WHERE organization_id = $1`, [organizationId]))[0].n,
    );
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
    );

  it("stores amounts and balances as BIGINT", async () => {
    const types = await t.db.query(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = current_schema()
          AND (table_name, column_name) IN (('credit_ledger', 'amount'), ('credit_holds', 'amount'), ('organizations', 'credit_balance'))
        ORDER BY table_name`,
    );
    expect(types).toEqual([
      { table_name: "credit_holds", column_name: "amount", data_type: "bigint" },
      { table_name: "credit_ledger", column_name: "amount", data_type: "bigint" },
      { table_name: "organizations", column_name: "credit_balance", data_type: "bigint" },
    ]);
  });

  it("refuses a grant of 1.5, 1e20, 0, a negative, NaN or above MAX_CREDIT_GRANT; nothing is written", async () => {
    const { organizationId, key } = await newOrg(10);
    const rows = await ledgerRows(organizationId);
    for (const amount of [1.5, 0.1, 1e20, 0, -6, Number.NaN, Number.POSITIVE_INFINITY, MAX_CREDIT_GRANT + 1]) {
      expect([amount, await refusal(grantCredits(t.db, organizationId, amount))]).toEqual([
        amount,
        {
          code: "BAD_USER_INPUT",
          message: expect.stringMatching(/^amount must be a whole number of credits from 1 to 1000000000000, got /),
        },
      ]);
    }
    for (const credits of [2.5, 1e20, -1]) {
      const refused = await refusal(createOrganization(t.db, { name: "Fractional", plan: "free", credits }));
      expect(refused).toEqual({ code: "BAD_USER_INPUT", message: expect.stringMatching(/^credits must be a whole number of credits/) });
    }
    expect(await ledgerRows(organizationId)).toBe(rows);
    expect(await orgCredits(key)).toEqual({ balance: 10, held: 0, available: 10 });
  });

  it("after a refused 1e20 grant a 6-credit unlock changes the balance by exactly 6", async () => {
    const { organizationId, key } = await newOrg(100);
    expect(await refusal(grantCredits(t.db, organizationId, 1e20))).toMatchObject({ code: "BAD_USER_INPUT" });
    expect(await unlockDistrict(key)).toMatchObject({ outcome: "unlocked", credits_charged: 6, credits_remaining: 94 });
    expect(await orgCredits(key)).toEqual({ balance: 94, held: 0, available: 94 });
  });

  it("a large valid grant then a 6-credit unlock changes the balance by exactly 6; no grant takes a balance above MAX_CREDIT_BALANCE", async () => {
    const { organizationId, key } = await newOrg();
    // The largest grant, twice over a ledger transfer that brings the balance to 2 grants short of the bound.
    const start = MAX_CREDIT_BALANCE - 2 * MAX_CREDIT_GRANT;
    const transfer = "11111111-1111-4111-8111-111111111111";
    for (const [account, amount] of [
      ["issued", -start],
      ["available", start],
    ] as const)
      await t.db.query(
        `INSERT INTO credit_ledger (organization_id, transfer_id, account, kind, amount, note) VALUES ($1, $2, $3, 'grant', $4, 'test')`,
        [organizationId, transfer, account, amount],
      );
    await t.db.query(`UPDATE organizations SET credit_balance = $2 WHERE id = $1`, [organizationId, start]);
    expect(await grantCredits(t.db, organizationId, MAX_CREDIT_GRANT)).toEqual({ balance: MAX_CREDIT_BALANCE - MAX_CREDIT_GRANT });
    expect(await grantCredits(t.db, organizationId, MAX_CREDIT_GRANT)).toEqual({ balance: MAX_CREDIT_BALANCE });
    expect(await refusal(grantCredits(t.db, organizationId, 1))).toEqual({
      code: "BAD_USER_INPUT",
      message: `a grant of 1 credits would take the balance of ${MAX_CREDIT_BALANCE} above the limit of ${MAX_CREDIT_BALANCE} credits`,
    });

    expect(await unlockDistrict(key)).toMatchObject({ credits_charged: 6, credits_remaining: MAX_CREDIT_BALANCE - 6 });
    expect(await orgCredits(key)).toEqual({ balance: MAX_CREDIT_BALANCE - 6, held: 0, available: MAX_CREDIT_BALANCE - 6 });
    const gql = await t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${key}`)
      .send({ query: "{ organization { credits { balance held available } } }" });
    expect(gql.body.data.organization.credits).toEqual({ balance: MAX_CREDIT_BALANCE - 6, held: 0, available: MAX_CREDIT_BALANCE - 6 });
    const [row] = await t.db.query(`SELECT credit_balance::text AS balance FROM organizations WHERE id = $1`, [organizationId]);
    expect(row).toEqual({ balance: String(MAX_CREDIT_BALANCE - 6) });
  });
});
