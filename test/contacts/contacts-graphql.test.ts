import type { Viewer } from "../../src/features/account/auth/viewer";
import { createContactLoaders } from "../../src/features/catalogue/contacts/contact.loaders";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";
import { insert } from "../support/factories";
import { insertUnlock } from "../support/school-factories";
import { countStatements, measureStatements } from "../support/statements";
import { insertContactCatalogue, type ContactCatalogue } from "./fixtures";

const PAGE = `query($filter: ContactFilter, $unique: Boolean, $orderBy: ContactOrderField, $limit: Int, $offset: Int) {
  contacts(filter: $filter, unique: $unique, orderBy: $orderBy, limit: $limit, offset: $offset) {
    data { id name title email keyFacts enrichmentStatus emailStatus crmSyncStatus _access { isUnlocked isUnlocking creditsSpent unlockCost } }
    pagination { total limit offset hasMore }
    _accessSummary { totalResults unlocked lockedProcessed lockedUnprocessed unlockAllCost }
  }
}`;

describe("contacts over GraphQL, and the per-parent contact loaders", () => {
  let t: TestApp;
  let k: ContactCatalogue;
  beforeAll(async () => {
    t = await createTestApp();
    k = await insertContactCatalogue(t.db);
    await insertUnlock(t.db, t.orgs.enterprise, "contact", k.c.ada);
  });
  afterAll(() => t?.close());

  it("contacts: filter, unique, order, paging, gated fields, _access and _accessSummary", async () => {
    const res = await t.graphql(PAGE, { filter: { districtId: k.d.alpha }, unique: false, orderBy: "created_at", limit: 2 });
    expect(res.errors).toBeUndefined();
    const page = res.data.contacts;
    expect(page.data.map((c: { id: string }) => c.id)).toEqual([k.c.ada, k.c.ada2]);
    expect(page.data[0]).toMatchObject({
      email: "ada@alpha.example.org",
      keyFacts: { fictional_person: true, tenure_years: 4 },
      enrichmentStatus: "completed",
      emailStatus: "sent",
      crmSyncStatus: "synced",
      _access: { isUnlocked: true, isUnlocking: false, creditsSpent: 6, unlockCost: 2 },
    });
    expect(page.data[1]).toMatchObject({ email: null, keyFacts: null, _access: { isUnlocked: false, unlockCost: 2 } });
    expect(page.pagination).toEqual({ total: 6, limit: 2, offset: 0, hasMore: true });
    expect(page._accessSummary).toEqual({ totalResults: 6, unlocked: 1, lockedProcessed: 1, lockedUnprocessed: 4, unlockAllCost: 10 });
    // unique defaults to true
    const unique = (await t.graphql(PAGE, { filter: { districtId: k.d.alpha } })).data.contacts;
    expect(unique.pagination.total).toBe(3);
    // another organization sees its own access only
    const pro = (await t.graphql(PAGE, { filter: { districtId: k.d.alpha } }, "pro")).data.contacts;
    expect(pro._accessSummary).toEqual({ totalResults: 3, unlocked: 0, lockedProcessed: 2, lockedUnprocessed: 1, unlockAllCost: 6 });
  });

  it("bad arguments are coded errors naming the problem", async () => {
    const res = await t.graphql(PAGE, { limit: 201 });
    expect(res.errors?.[0]).toMatchObject({ message: expect.stringContaining("limit"), extensions: { code: "BAD_USER_INPUT" } });
    const state = await t.graphql(PAGE, { filter: { state: "Nebraska" } });
    expect(state.errors?.[0].message).toContain("state");
  });

  it("contact(id): a listed contact, null for one whose parent was not extracted", async () => {
    const q = `query($id: UUID!) { contact(id: $id) { id name email _access { isUnlocked } } }`;
    expect((await t.graphql(q, { id: k.c.ada })).data.contact).toEqual({
      id: k.c.ada,
      name: "Ada Lovelace",
      email: "ada@alpha.example.org",
      _access: { isUnlocked: true },
    });
    expect((await t.graphql(q, { id: k.c.ada }, "pro")).data.contact.email).toBeNull();
    expect((await t.graphql(q, { id: k.hidden.eve })).data.contact).toBeNull();
  });

  it("runs 2 statements per GraphQL page (API key + the list statement) at limit 1 and 200", async () => {
    const count = async (limit: number) => {
      await t.graphql(PAGE, { limit });
      return countStatements(t.db, () => t.graphql(PAGE, { limit }));
    };
    expect(await count(1)).toBe(2);
    expect(await count(200)).toBe(2);
  });

  describe("loaders of contacts by parent (for District.contacts, School.contacts)", () => {
    const viewer = (): Viewer => ({
      organizationId: t.orgs.enterprise,
      organizationName: "Test enterprise",
      plan: "enterprise",
      entitlements: new Set(),
      apiKeyId: "test",
    });

    it("pages each district's contacts (district and school level) with its own summary, one statement per batch", async () => {
      const loaders = createContactLoaders(t.db, viewer());
      const args = { orderBy: null, orderAscending: null, limit: 2, offset: 0, unique: null };
      const { statements, result } = await measureStatements(t.db, () =>
        Promise.all([k.d.alpha, k.d.beta, k.d.pending].map((id) => loaders.ofDistrict(args).load(id))),
      );
      expect(statements).toBe(1);
      const [alpha, beta, pending] = result;
      expect(alpha.data.map((c) => c.id)).toEqual([k.c.ada, k.c.bob]);
      expect(alpha.pagination).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
      expect(alpha._access_summary).toEqual({
        total_results: 3,
        unlocked: 1,
        locked_processed: 1,
        locked_unprocessed: 1,
        unlock_all_cost: 4,
      });
      expect(alpha.data[0].email).toBe("ada@alpha.example.org");
      expect(alpha.data[1].email).toBeNull();
      expect(beta.data.map((c) => c.id)).toEqual([k.c.gus]);
      expect(pending.data).toEqual([]);
      expect(pending.pagination.total).toBe(0);
      // Past the end of a page the totals still come back.
      const past = await loaders.ofDistrict({ ...args, offset: 10 }).load(k.d.alpha);
      expect(past.data).toEqual([]);
      expect(past.pagination.total).toBe(3);
      expect(past._access_summary.total_results).toBe(3);
      // Every source row with unique false; a school's contacts.
      expect((await loaders.ofDistrict({ ...args, unique: false, limit: 200 }).load(k.d.alpha)).pagination.total).toBe(6);
      const school = await loaders.ofSchool({ ...args, unique: false, orderBy: "created_at" as never }).load(k.s.adams);
      expect(school.data.map((c) => c.id)).toEqual([k.c.cara, k.c.cara2]);
      // Rows of parent pages are primed into byId: no statement for them.
      expect(await countStatements(t.db, () => loaders.byId.load(k.c.cara2))).toBe(0);
    });

    it("costs one statement for 200 districts at limit 1 and at limit 200", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 200; i += 1) {
        const id = await insertDistrict(t.db, { state: "KS", status: "completed" });
        ids.push(id);
        if (i % 20 === 0) await insert(t.db, "contacts", { name: `Person ${i}`, district_id: id, data_source: "demo", state: "KS" });
      }
      for (const limit of [1, 200]) {
        const loaders = createContactLoaders(t.db, viewer());
        const args = { orderBy: null, orderAscending: null, limit, offset: 0, unique: null };
        const { statements, result } = await measureStatements(t.db, () => Promise.all(ids.map((id) => loaders.ofDistrict(args).load(id))));
        expect(statements).toBe(1);
        expect(result.filter((page) => page.data.length === 1)).toHaveLength(10);
      }
    });
  });
});
