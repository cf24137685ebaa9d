import { createTestApp, type TestApp } from "../support/app";
import { insert } from "../support/factories";
import { ledgerViolations, NO_VIOLATIONS } from "./ledger";

describe("GET /org and the credit ledger", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ FREE_FOLLOW_SLOTS: "4" });
  });
  afterAll(() => t?.close());
  afterEach(async () => expect(await ledgerViolations(t.db)).toEqual(NO_VIOLATIONS));

  it("answers the caller's organization with credits and unlimited follow slots on a paid plan", async () => {
    const res = await t.get("/api/v1/org", "enterprise").expect(200);
    expect(res.body).toEqual({
      id: t.orgs.enterprise,
      name: "Test enterprise",
      plan: "enterprise",
      entitlements: ["signals"],
      credits: { balance: 100, held: 0, available: 100 },
      follow_slots: { used: 0, limit: null },
    });
  });

  it("counts active follows and unfollowed ones whose slot is not released yet against FREE_FOLLOW_SLOTS on the free plan", async () => {
    const projectId = await insert(t.db, "projects", { organization_id: t.orgs.free, name: "p" });
    const follow = (entity: number, unfollowed: Date | null, released: Date | null = unfollowed) =>
      insert(t.db, "follows", {
        organization_id: t.orgs.free,
        project_id: projectId,
        entity_type: "district",
        entity_id: `00000000-0000-4000-8000-00000000000${entity}`,
        unfollowed_at: unfollowed,
        slot_released_at: released,
      });
    const now = Date.now();
    await follow(1, null);
    await follow(1, new Date(now - 1000));
    await follow(2, new Date(now - 1000)); // released
    // Unfollowed, but its slot is held until slot_released_at (contract section 7): still used.
    await follow(3, new Date(now - 1000), new Date(now + 86_400_000));
    const res = await t.get("/api/v1/org", "free").expect(200);
    expect(res.body.follow_slots).toEqual({ used: 2, limit: 4 });
  });

  it("is the GraphQL query organization", async () => {
    const res = await t.graphql(`{ organization { plan credits { balance held available } followSlots { used limit } } }`, {}, "pro");
    expect(res).toEqual({
      data: { organization: { plan: "pro", credits: { balance: 100, held: 0, available: 100 }, followSlots: { used: 0, limit: null } } },
    });
  });

  it("writes a grant as two ledger rows summing to zero", async () => {
    const rows = await t.db.query<{ account: string; amount: number; kind: string }>(
      `SELECT account, amount, kind FROM credit_ledger WHERE organization_id = $1 ORDER BY amount`,
      [t.orgs.pro],
    );
    expect(rows).toEqual([
      { account: "issued", amount: -100, kind: "grant" },
      { account: "available", amount: 100, kind: "grant" },
    ]);
  });
});
