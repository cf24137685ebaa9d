import { ApiKeyAuthenticator, hashApiKey } from "../../src/features/account/auth/api-key.service";
import { createApiKey, revokeApiKeys } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization, createProject, grantCredits } from "../../src/features/account/organizations/organization.service";
import { createTestDb, type TestDb } from "../support/db";
import { countStatements, measureStatements } from "../support/statements";

describe("organizations and API keys through the Prisma client", () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(() => db.close());

  it("creates an organization with its initial grant in one transaction, and grants more", async () => {
    const { organizationId } = await createOrganization(db, {
      name: " Acme ",
      plan: "pro",
      credits: 10,
      entitlements: ["signals", "signals"],
    });
    expect(await db.query(`SELECT name, plan, entitlements, credit_balance FROM organizations WHERE id = $1`, [organizationId])).toEqual([
      { name: "Acme", plan: "pro", entitlements: ["signals"], credit_balance: 10 },
    ]);
    expect(await grantCredits(db, organizationId, 5)).toEqual({ balance: 15 });
    const ledger = await db.query(
      `SELECT kind, amount, note FROM credit_ledger WHERE organization_id = $1 AND account = 'available' ORDER BY created_at, amount DESC`,
      [organizationId],
    );
    expect(ledger).toEqual([
      { kind: "grant", amount: 10, note: "initial grant" },
      { kind: "grant", amount: 5, note: "grant" },
    ]);
    const { projectId } = await createProject(db, organizationId, "Plains", { states: ["NE"] });
    expect(await db.query(`SELECT name, icp FROM projects WHERE id = $1`, [projectId])).toEqual([
      { name: "Plains", icp: { states: ["NE"] } },
    ]);
  });

  it("answers 404 for an unknown or malformed organization, and leaves nothing behind", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    await expect(grantCredits(db, unknown, 5)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(createApiKey(db, unknown)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(createProject(db, "not-a-uuid", "x")).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.query(`SELECT 1 FROM credit_ledger WHERE organization_id = $1`, [unknown])).toEqual([]);
  });

  it("looks a key up with its organization in one statement; a revoked key is refused", async () => {
    const { organizationId } = await createOrganization(db, { name: "Lookup", plan: "enterprise", entitlements: ["signals"] });
    const { apiKey, id } = await createApiKey(db, organizationId, "ci");
    const auth = new ApiKeyAuthenticator(db, 0);
    const { statements, result: viewer } = await measureStatements(db, () => auth.authenticate(`Bearer ${apiKey}`));
    expect(statements).toBe(1);
    expect(viewer).toEqual({
      organizationId,
      organizationName: "Lookup",
      plan: "enterprise",
      entitlements: new Set(["signals"]),
      apiKeyId: id,
    });
    expect(await revokeApiKeys(db, apiKey.slice(0, 16))).toBe(1);
    await expect(auth.authenticate(`Bearer ${apiKey}`)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const cached = new ApiKeyAuthenticator(db, 60_000);
    await expect(cached.authenticate(`Bearer ${apiKey}`)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect(await countStatements(db, () => cached.authenticate(`Bearer ${apiKey}`).catch(() => undefined))).toBe(0);
  });

  it("revokes by the stored 16-character prefix, reading _ and % literally", async () => {
    const { organizationId } = await createOrganization(db, { name: "Prefixes", plan: "free" });
    await db.query(
      `INSERT INTO api_keys (organization_id, key_prefix, key_hash) VALUES ($1, 'sk_liveXabcdefgh', $2), ($1, 'sk_live_abcdefgh', $3)`,
      [organizationId, hashApiKey("a"), hashApiKey("b")],
    );
    // A longer prefix compares on its first 16 characters; `_` matches only an underscore.
    expect(await revokeApiKeys(db, "sk_live_abcdefghIJKL")).toBe(1);
    expect(await revokeApiKeys(db, "sk_live_abc%")).toBe(0);
    const rows = await db.query<{ key_prefix: string; revoked: boolean }>(
      `SELECT key_prefix, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE organization_id = $1 ORDER BY key_prefix`,
      [organizationId],
    );
    expect(rows).toEqual([
      { key_prefix: "sk_liveXabcdefgh", revoked: false },
      { key_prefix: "sk_live_abcdefgh", revoked: true },
    ]);
    await expect(revokeApiKeys(db, "sk_test_abcdefgh")).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });
});
