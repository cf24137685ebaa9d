import { createTestApp, type TestApp } from "../support/app";
import { insert } from "../support/factories";
import { insertList, insertUnlock } from "../support/school-factories";
import { countStatements } from "../support/statements";
import { insertContactCatalogue, type ContactCatalogue } from "./fixtures";

/** Every field of the spec's contact record (plus data_source), in no particular order. */
const RECORD_FIELDS = [
  "id",
  "district_id",
  "school_id",
  "association_id",
  "head_start_program_id",
  "childcare_center_id",
  "name",
  "title",
  "email",
  "phone",
  "state",
  "is_district_contact",
  "linkedin_url",
  "profile_summary",
  "key_facts",
  "source",
  "source_url",
  "data_source",
  "enrichment_status",
  "enriched_at",
  "enrichment_error",
  "enrichment_retry_count",
  "qualification_score",
  "qualification_justification",
  "qualified_at",
  "email_status",
  "email_error",
  "email_retry_count",
  "emailed",
  "email_bounced",
  "emailed_at",
  "email_bounced_at",
  "email_confidence_score",
  "email_verification_status",
  "email_verified_at",
  "crm_contact_id",
  "crm_synced_at",
  "crm_sync_status",
  "crm_sync_error",
  "notes",
  "discovered_at",
  "last_updated_at",
  "created_at",
  "_access",
];
const GATED = ["email", "phone", "linkedin_url", "profile_summary", "key_facts"];

type Rec = { id: string; name: string; [k: string]: unknown };
type Body = { data: Rec[]; pagination: Record<string, unknown>; _access_summary: Record<string, number> };

describe("contacts REST: list, detail, unique, filters, gating, summary, errors", () => {
  let t: TestApp;
  let k: ContactCatalogue;
  /** Contact id -> short fixture name, so assertions read as names. */
  const short = new Map<string, string>();
  const ids = (body: Body) => body.data.map((r) => short.get(r.id) ?? r.id);
  const get = async (query: string, plan: "enterprise" | "pro" = "enterprise") =>
    (await t.get(`/api/v1/contacts${query}`, plan).expect(200)).body as Body;
  const bad = async (query: string, text: string, status = 400) => {
    const res = await t.get(`/api/v1/contacts${query}`).expect(status);
    expect(res.body).toMatchObject({ statusCode: status, error: status === 400 ? "bad_request" : "not_found" });
    expect(res.body.message).toContain(text);
  };

  beforeAll(async () => {
    t = await createTestApp();
    k = await insertContactCatalogue(t.db);
    for (const [name, id] of Object.entries({ ...k.c, ...k.hidden })) short.set(id, name);
  });
  afterAll(() => t?.close());

  describe("listing and the deduplicated view", () => {
    it("lists one row per person by default (unique=true), never a contact whose parent was not extracted", async () => {
      const body = await get("");
      expect(ids(body)).toEqual(["ada", "bob", "cara", "gus"]);
      expect(body.pagination).toEqual({ total: 4, limit: 50, offset: 0, has_more: false });
      expect(Object.keys(body.data[0]).sort()).toEqual([...RECORD_FIELDS].sort());
    });

    it("unique=false lists every source row; the matching rules are dedupe_key, email (any case), name in the district", async () => {
      const all = await get("?unique=false&order_by=created_at");
      expect(ids(all)).toEqual(["ada", "ada2", "bob", "bob2", "cara", "cara2", "gus"]);
      expect(all.pagination.total).toBe(7);
      expect(all._access_summary.total_results).toBe(7);
      // Each duplicate pair collapses to one row, and only those pairs.
      expect((await get("?unique=true")).pagination.total).toBe(4);
    });

    it("matches a dedupe_key within one district only, an email across districts", async () => {
      const namesake = await insert(t.db, "contacts", {
        name: "Ada Lovelace",
        title: "Superintendent",
        district_id: k.d.beta,
        state: "IA",
        dedupe_key: "ada.lovelace|superintendent",
        data_source: "demo",
      });
      const sameEmail = await insert(t.db, "contacts", {
        name: "Bobby Builder",
        title: "Consultant",
        district_id: k.d.beta,
        state: "IA",
        email: "Bob@Alpha.example.org",
        data_source: "demo",
      });
      try {
        const body = await get("?order_by=created_at");
        expect(body.pagination.total).toBe(5);
        expect(body.data.map((r) => r.id)).toContain(namesake);
        // Bob's three rows (two emails in alpha, one in beta) are one person: the newest row represents him.
        expect(body.data.map((r) => r.id).filter((id) => [k.c.bob, k.c.bob2, sameEmail].includes(id))).toEqual([sameEmail]);
      } finally {
        await t.db.query(`DELETE FROM contacts WHERE id = ANY($1::uuid[])`, [[namesake, sameEmail]]);
      }
    });

    it("keeps the enriched row of a person, else the newest, and the row the caller unlocked before either", async () => {
      const body = await get("?order_by=created_at");
      expect(ids(body)).toEqual(["ada", "bob", "cara", "gus"]);
      // The pro organization unlocked the pending duplicate of Ada: it represents her for pro only.
      await insertUnlock(t.db, t.orgs.pro, "contact", k.c.ada2);
      try {
        expect(ids(await get("", "pro"))).toEqual(["ada2", "bob", "cara", "gus"]);
        expect(ids(await get(""))).toEqual(["ada", "bob", "cara", "gus"]);
      } finally {
        await t.db.query(`DELETE FROM unlocks WHERE entity_id = $1`, [k.c.ada2]);
      }
    });

    it("serves the documented status values of enrichment, email and CRM sync", async () => {
      const rows = (await get("?unique=false")).data;
      const by = (name: string) => rows.find((r) => short.get(r.id) === name)!;
      expect(by("ada")).toMatchObject({ enrichment_status: "completed", email_status: "sent", emailed: true, crm_sync_status: "synced" });
      expect(by("bob")).toMatchObject({
        enrichment_status: "pending",
        email_status: "failed",
        email_error: "bounced",
        crm_sync_status: "failed",
      });
      expect(by("bob2")).toMatchObject({ enrichment_status: "processing", email_status: "pending", crm_sync_status: "pending" });
      expect(by("cara2")).toMatchObject({ enrichment_status: "error", enrichment_error: "no public profile" });
      expect(by("ada").enriched_at).toBe("2026-01-03T00:00:00.000Z");
      expect(by("ada").data_source).toBe("demo");
    });
  });

  describe("gating, _access and _access_summary", () => {
    afterEach(() => t.db.query(`DELETE FROM unlocks`));

    it("nulls the gated fields of locked contacts and reveals them once the organization unlocked the contact", async () => {
      const locked = (await get("?search=lovelace")).data[0];
      for (const field of GATED) expect(locked[field]).toBeNull();
      expect(locked._access).toEqual({ is_unlocked: false, is_unlocking: false, unlocked_at: null, credits_spent: 0, unlock_cost: 2 });
      expect(locked).toMatchObject({ name: "Ada Lovelace", title: "Superintendent", source_url: "https://demo.example.org/alpha/staff" });

      await insertUnlock(t.db, t.orgs.enterprise, "contact", k.c.ada);
      const open = (await get("?search=lovelace")).data[0];
      expect(open).toMatchObject({
        email: "ada@alpha.example.org",
        phone: "(402) 555-0101",
        linkedin_url: "https://linkedin.example.org/ada",
        profile_summary: "Fictional superintendent.",
        key_facts: { fictional_person: true, tenure_years: 4 },
      });
      expect(open._access).toEqual({
        is_unlocked: true,
        is_unlocking: false,
        unlocked_at: "2026-01-02T03:04:05.678Z",
        credits_spent: 6,
        unlock_cost: 2,
      });
      // Tenant isolation: another organization's view is unchanged.
      const other = (await get("?search=lovelace", "pro")).data[0];
      for (const field of GATED) expect(other[field]).toBeNull();
      expect(other._access).toMatchObject({ is_unlocked: false });
    });

    it("summarizes the whole result set, not the page: unlocked, locked processed/unprocessed, unlock_all_cost", async () => {
      expect((await get("?limit=1"))._access_summary).toEqual({
        total_results: 4,
        unlocked: 0,
        locked_processed: 2, // ada, cara: enrichment completed (instant unlock)
        locked_unprocessed: 2, // bob (pending), gus (error)
        unlock_all_cost: 8,
      });
      await insertUnlock(t.db, t.orgs.enterprise, "contact", k.c.ada);
      await insertUnlock(t.db, t.orgs.enterprise, "contact", k.c.gus);
      await insertUnlock(t.db, t.orgs.enterprise, "contact", k.c.bob, "unlock_pending");
      const body = await get("?limit=1&offset=1");
      expect(body._access_summary).toEqual({
        total_results: 4,
        unlocked: 2,
        locked_processed: 1,
        locked_unprocessed: 1,
        unlock_all_cost: 4,
      });
      const bob = (await get("?search=builder")).data[0];
      expect(bob._access).toMatchObject({ is_unlocked: false, is_unlocking: true });
      expect(bob.email).toBeNull();
      // Past the end: no rows, the same summary and total.
      const past = await get("?offset=50");
      expect(past.data).toEqual([]);
      expect(past.pagination).toEqual({ total: 4, limit: 50, offset: 50, has_more: false });
      expect(past._access_summary).toEqual(body._access_summary);
      // Another organization's unlocks never count here, nor ours there.
      expect((await get("", "pro"))._access_summary).toEqual({
        total_results: 4,
        unlocked: 0,
        locked_processed: 2,
        locked_unprocessed: 2,
        unlock_all_cost: 8,
      });
      // Without deduplication every row counts.
      expect((await get("?unique=false"))._access_summary).toEqual({
        total_results: 7,
        unlocked: 2,
        locked_processed: 1, // cara
        locked_unprocessed: 4, // ada2, bob, bob2, cara2
        unlock_all_cost: 10,
      });
    });
  });

  describe("filters", () => {
    afterEach(() => t.db.query(`DELETE FROM unlocks`));

    it("district_id (district and school level), school_id, state", async () => {
      expect(ids(await get(`?district_id=${k.d.alpha}`))).toEqual(["ada", "bob", "cara"]);
      expect(ids(await get(`?district_id=${k.d.beta}`))).toEqual(["gus"]);
      expect(ids(await get(`?district_id=${k.d.pending}`))).toEqual([]);
      expect(ids(await get(`?school_id=${k.s.adams}`))).toEqual(["cara"]);
      expect(ids(await get(`?school_id=${k.s.adams}&unique=false&order_by=created_at`))).toEqual(["cara", "cara2"]);
      expect(ids(await get(`?school_id=${k.s.pending}`))).toEqual([]);
      expect(ids(await get("?state=ia"))).toEqual(["gus"]);
      expect(ids(await get("?state=NE"))).toEqual(["ada", "bob", "cara"]);
    });

    it("search (name or title, literal % and _), title_ilike (a pattern), is_district_contact, enrichment_status", async () => {
      expect(ids(await get("?search=LOVE"))).toEqual(["ada"]);
      expect(ids(await get("?search=principal"))).toEqual(["cara"]);
      expect(ids(await get("?search=%25"))).toEqual([]);
      expect(ids(await get("?title_ilike=super%25&unique=false&order_by=created_at"))).toEqual(["ada", "ada2"]);
      expect(ids(await get("?title_ilike=SUPERINTENDENT&unique=false"))).toEqual(["ada"]);
      expect(ids(await get("?title_ilike=c_o&unique=false"))).toEqual(["bob2"]);
      // A backslash escapes a wildcard (and itself): no title holds a literal % or \.
      expect(ids(await get("?title_ilike=super%5C%25"))).toEqual([]);
      expect(ids(await get("?title_ilike=%25%5C%5C"))).toEqual([]);
      expect(ids(await get("?is_district_contact=false"))).toEqual(["cara"]);
      expect(ids(await get("?is_district_contact=true"))).toEqual(["ada", "bob", "gus"]);
      // Filters apply before deduplication: Cara's errored duplicate represents her here.
      expect(ids(await get("?enrichment_status=error&order_by=created_at"))).toEqual(["cara2", "gus"]);
      expect(ids(await get("?enrichment_status=error&unique=false&order_by=created_at"))).toEqual(["cara2", "gus"]);
      expect(ids(await get("?enrichment_status=processing&unique=false"))).toEqual(["bob2"]);
      expect(ids(await get("?enrichment_status=processing"))).toEqual(["bob2"]);
      expect(ids(await get("?enrichment_status=completed"))).toEqual(["ada", "cara"]);
    });

    it("list_id, district_list_ids, school_list_ids: the caller's lists only", async () => {
      const org = t.orgs.enterprise;
      const contacts = await insertList(t.db, org, "contact", [k.c.gus, k.c.bob2, k.hidden.eve]);
      expect(ids(await get(`?list_id=${contacts}`))).toEqual(["gus", "bob2"]);
      const districts = await insertList(t.db, org, "district", [k.d.beta]);
      expect(ids(await get(`?district_list_ids=${districts}`))).toEqual(["gus"]);
      const schools = await insertList(t.db, org, "school", [k.s.adams]);
      expect(ids(await get(`?school_list_ids=${schools}`))).toEqual(["cara"]);
      expect(
        ids(await get(`?district_list_ids=${districts},${(await insertList(t.db, org, "district", [k.d.alpha])).toString()}`)),
      ).toEqual(["ada", "bob", "cara", "gus"]);
      // Another organization's list is not found, a list of another entity type is a 400.
      const foreign = await insertList(t.db, t.orgs.pro, "contact", [k.c.ada]);
      await bad(`?list_id=${foreign}`, `list ${foreign} not found`, 404);
      await bad(`?list_id=${districts}`, "is a list of districts, not of contacts");
      await bad(`?school_list_ids=${contacts}`, "school_list_ids");
    });

    it("intelligence filters read the contact's parent and match only parents the caller unlocked", async () => {
      const vendor = await insert(t.db, "vendors", { name: "Contact Test SIS", category: "sis", data_source: "test" });
      await insert(t.db, "entity_vendors", { entity_type: "district", district_id: k.d.alpha, vendor_id: vendor, data_source: "test" });
      await insert(t.db, "pain_points", {
        entity_type: "school",
        school_id: k.s.adams,
        category: "staffing",
        description: "x",
        data_source: "test",
      });
      await insert(t.db, "funding", { entity_type: "district", district_id: k.d.beta, source: "esser", data_source: "test" });
      const soon = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      await insert(t.db, "contracts", { entity_type: "district", district_id: k.d.alpha, expires_on: soon, data_source: "test" });
      await insert(t.db, "bids", { entity_type: "school", school_id: k.s.adams, title: "RFP", status: "open", data_source: "test" });
      const queries = [
        `?vendor_ids=${vendor}`,
        "?vendor_category=sis",
        "?pain_point_category=staffing",
        "?has_pain_points=true",
        "?funding_source=esser",
        "?has_expiring_contracts=true",
        "?rfp_status=open",
      ];
      // Nothing unlocked: no filter matches, whatever the data.
      for (const q of queries) expect(ids(await get(q))).toEqual([]);
      await insertUnlock(t.db, t.orgs.enterprise, "district", k.d.alpha);
      await insertUnlock(t.db, t.orgs.enterprise, "school", k.s.adams);
      await insertUnlock(t.db, t.orgs.enterprise, "district", k.d.beta);
      expect(ids(await get(`?vendor_ids=${vendor}`))).toEqual(["ada", "bob"]);
      expect(ids(await get("?vendor_category=sis"))).toEqual(["ada", "bob"]);
      expect(ids(await get("?vendor_category=lms"))).toEqual([]);
      expect(ids(await get("?pain_point_category=staffing"))).toEqual(["cara"]);
      expect(ids(await get("?has_pain_points=true"))).toEqual(["cara"]);
      expect(ids(await get("?has_pain_points=false"))).toEqual(["ada", "bob", "gus"]);
      expect(ids(await get("?funding_source=esser"))).toEqual(["gus"]);
      expect(ids(await get("?has_expiring_contracts=true"))).toEqual(["ada", "bob"]);
      expect(ids(await get("?rfp_status=open"))).toEqual(["cara"]);
      expect(ids(await get("?rfp_status=closed"))).toEqual([]);
      // The other organization unlocked nothing: its filters still match nothing.
      for (const q of queries) expect(ids(await get(q, "pro"))).toEqual([]);
    });
  });

  describe("sorting and paging", () => {
    it("orders by every field of contract section 6, nulls last both ways, ties by id", async () => {
      expect(ids(await get("?order_by=name&order_ascending=false"))).toEqual(["gus", "cara", "bob", "ada"]);
      expect(ids(await get("?order_by=title"))).toEqual(["gus", "bob", "cara", "ada"]);
      // Ties (three NE contacts) are broken by ascending id in both directions.
      const ne = [k.c.ada, k.c.bob, k.c.cara].sort().map((id) => short.get(id));
      expect(ids(await get("?order_by=state"))).toEqual(["gus", ...ne]);
      expect(ids(await get("?order_by=state&order_ascending=false"))).toEqual([...ne, "gus"]);
      expect(ids(await get("?order_by=qualification_score"))).toEqual(["bob", "cara", "ada", "gus"]);
      expect(ids(await get("?order_by=qualification_score&order_ascending=false"))).toEqual(["ada", "cara", "bob", "gus"]);
      expect(ids(await get("?order_by=created_at&order_ascending=false&unique=false"))).toEqual([
        "gus",
        "cara2",
        "cara",
        "bob2",
        "bob",
        "ada2",
        "ada",
      ]);
      expect(ids(await get("?order_by=last_updated_at&unique=false"))).toEqual(["ada", "cara", "cara2", "bob2", "bob", "gus", "ada2"]);
    });

    it("pages with limit and offset; has_more", async () => {
      const first = await get("?limit=3");
      expect(ids(first)).toEqual(["ada", "bob", "cara"]);
      expect(first.pagination).toEqual({ total: 4, limit: 3, offset: 0, has_more: true });
      const second = await get("?limit=3&offset=3");
      expect(ids(second)).toEqual(["gus"]);
      expect(second.pagination).toEqual({ total: 4, limit: 3, offset: 3, has_more: false });
      expect((await get("?limit=200")).data).toHaveLength(4);
    });
  });

  describe("POST /contacts (body twin) and GET /contacts/{id}", () => {
    it("takes the query parameters as string properties of a JSON body", async () => {
      const res = await t.post("/api/v1/contacts", { district_id: k.d.alpha, unique: "false", order_by: "title", limit: "2" }).expect(200);
      expect(res.body.data.map((r: Rec) => short.get(r.id))).toEqual(["bob2", "bob"]);
      expect(res.body.pagination).toEqual({ total: 6, limit: 2, offset: 0, has_more: true });
      expect(res.body._access_summary.total_results).toBe(6);
      await t.post("/api/v1/contacts", { limit: 2 }).expect(400);
      const unknown = await t.post("/api/v1/contacts", { colour: "red" }).expect(400);
      expect(unknown.body.message).toContain("colour");
    });

    it("serves one listed contact with its gating; unlisted and unknown contacts are 404", async () => {
      const res = await t.get(`/api/v1/contacts/${k.c.cara}`).expect(200);
      expect(Object.keys(res.body.data).sort()).toEqual([...RECORD_FIELDS].sort());
      expect(res.body.data).toMatchObject({ id: k.c.cara, school_id: k.s.adams, district_id: k.d.alpha, is_district_contact: false });
      // A duplicate is still served by its own id.
      expect((await t.get(`/api/v1/contacts/${k.c.ada2}`).expect(200)).body.data.title).toBe("Superintendent of Schools");
      for (const id of Object.values(k.hidden)) {
        expect((await t.get(`/api/v1/contacts/${id}`).expect(404)).body).toMatchObject({ error: "not_found", statusCode: 404 });
      }
      await t.get("/api/v1/contacts/00000000-0000-4000-8000-000000000000").expect(404);
      const bad = await t.get("/api/v1/contacts/not-a-uuid").expect(400);
      expect(bad.body.error).toBe("bad_request");
    });
  });

  describe("bad parameters are 400 naming the parameter", () => {
    it.each([
      ["?limit=0", "limit"],
      ["?limit=201", "limit"],
      ["?offset=-1", "offset"],
      ["?limit=abc", "limit"],
      ["?order_by=email", "order_by"],
      ["?order_ascending=yes", "order_ascending"],
      ["?unique=maybe", "unique"],
      ["?state=Nebraska", "state"],
      ["?district_id=nope", "district_id"],
      ["?school_id=nope", "school_id"],
      ["?enrichment_status=done", "enrichment_status"],
      ["?is_district_contact=1", "is_district_contact"],
      ["?vendor_category=erp", "vendor_category"],
      ["?rfp_status=pending", "rfp_status"],
      ["?pain_point_category=weather", "pain_point_category"],
      ["?funding_source=lottery", "funding_source"],
      ["?has_pain_points=sometimes", "has_pain_points"],
      ["?has_expiring_contracts=soon", "has_expiring_contracts"],
      ["?has_funding=true", "has_funding"],
      ["?vendor_ids=", "vendor_ids"],
      ["?district_list_ids=x", "district_list_ids"],
      ["?search=", "search"],
      ["?title_ilike=%20", "title_ilike"],
      ["?title_ilike=super%5C", "title_ilike"],
      ["?title_ilike=%5C%5C%5C", "title_ilike"],
      [`?search=${"x".repeat(201)}`, "search"],
      ["?colour=red", "colour"],
    ])("%s", async (query, text) => bad(query, text));
  });

  it("runs 2 statements (API key + one list statement) at limit 1 and 200, and 2 for GET /contacts/{id}", async () => {
    const count = async (path: string) => {
      await t.get(path).expect(200); // warm the key
      return countStatements(t.db, () => t.get(path).expect(200));
    };
    expect(await count("/api/v1/contacts?limit=1")).toBe(2);
    expect(await count("/api/v1/contacts?limit=200")).toBe(2);
    expect(await count("/api/v1/contacts?limit=200&unique=false")).toBe(2);
    const list = await insertList(t.db, t.orgs.enterprise, "contact", [k.c.ada]);
    expect(await count(`/api/v1/contacts?limit=200&list_id=${list}&vendor_category=sis`)).toBe(2);
    expect(await count("/api/v1/contacts?offset=100")).toBe(2);
    expect(await count(`/api/v1/contacts/${k.c.ada}`)).toBe(2);
  });
});
