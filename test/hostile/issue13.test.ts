/**
 * Hostile probes of issue 13's endpoints (contacts, contact unlock, associations, follows, the catalogue
 * relations): malformed and extreme input must answer 4xx naming the problem (never 5xx or a stall), and
 * a locked contact's gated fields, another organization's unlocks, follows and lists must never show.
 */
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
import { insert, insertDistrict } from "../support/factories";
import { insertList, insertUnlock } from "../support/school-factories";
import { insertContactCatalogue, type ContactCatalogue } from "../contacts/fixtures";
import { insertCenter, insertHeadStart, insertOperator } from "../support/early-childhood-factories";

type Body = Record<string, any>;
const GATED = ["email", "phone", "linkedin_url", "profile_summary", "key_facts"];
const NO_SUCH = "00000000-0000-4000-8000-000000000000";
const INT_MAX = 2147483647;

describe("issue 13 hostile probes", () => {
  let t: TestApp;
  let k: ContactCatalogue;
  let association: string;
  const auth = (plan: PlanKey) => `Bearer ${t.keys[plan]}`;

  /** A GET answered `status` with the generic error body whose message contains `text`. */
  const expect4xx = async (path: string, status: number, text: string | RegExp, plan: PlanKey = "enterprise") => {
    const res = await t.get(path, plan);
    expect([res.status, res.body.statusCode]).toEqual([status, status]);
    expect(res.body.message).toEqual(expect.stringMatching(text));
    return res.body as Body;
  };

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send" }); // a pending contact unlock sends its enrichment job
    k = await insertContactCatalogue(t.db);
    association = await insert(t.db, "associations", {
      slug: "hostile-assoc",
      name: "Hostile Association",
      kind: "other",
      state: "NE",
      data_source: "demo",
    });
    // pro unlocked Ada's second (unenriched) row; enterprise unlocks nothing.
    await insertUnlock(t.db, t.orgs.pro, "district", k.d.alpha);
    await insertUnlock(t.db, t.orgs.pro, "contact", k.c.ada2);
    await insert(t.db, "association_people", {
      association_id: association,
      name: "Secret Name",
      title: "Director",
      redacted: true,
      data_source: "demo",
    });
  });
  afterAll(() => t?.close());

  describe("GET /contacts and /contacts/{id}: malformed input", () => {
    it.each([
      ["search with a NUL byte", "?search=a%00b", /search/],
      ["title_ilike with a NUL byte", "?title_ilike=a%00b", /title_ilike/],
      ["state with a NUL byte", "?state=N%00", /state/],
      ["search too long", `?search=${"x".repeat(5000)}`, /search/],
      ["malformed district_id", "?district_id=not-a-uuid", /district_id|districtId|UUID/i],
      ["malformed school_id", "?school_id=1", /school_id|schoolId|UUID/i],
      ["malformed list_id", "?list_id=%27%3B--", /list_id|listId|UUID/i],
      ["malformed district_list_ids", "?district_list_ids=a,b", /district_list_ids|districtListIds|UUID/i],
      ["empty district_list_ids", "?district_list_ids=", /district_list_ids/],
      ["limit 0", "?limit=0", /limit/],
      ["limit -1", "?limit=-1", /limit/],
      ["limit 1.5", "?limit=1.5", /limit/],
      ["limit huge", "?limit=99999999999999999999", /limit/],
      ["limit text", "?limit=abc", /limit/],
      ["offset -1", "?offset=-1", /offset/],
      ["offset over int", "?offset=2147483648", /offset/],
      ["offset float", "?offset=0.5", /offset/],
      ["unknown order_by", "?order_by=email", /order_by|orderBy/],
      ["order_by on another gated field", "?order_by=phone", /order_by|orderBy/],
      ["unique not a boolean", "?unique=maybe", /unique/],
      ["enrichment_status unknown", "?enrichment_status=done", /enrichment_status|enrichmentStatus/],
      ["duplicate limit", "?limit=1&limit=2", /limit/],
      ["duplicate search", "?search=a&search=b", /search/],
      ["vendor_ids malformed", "?vendor_ids=x", /vendor_ids|vendorIds|UUID/i],
    ])("%s: 400", async (_name, query, text) => {
      await expect4xx(`/api/v1/contacts${query}`, 400, text);
    });

    it.each([
      ["not a uuid", "/api/v1/contacts/not-a-uuid", 400],
      ["a uuid of no contact", `/api/v1/contacts/${NO_SUCH}`, 404],
      ["uppercase NUL path", "/api/v1/contacts/%00", 400],
    ])("detail %s", async (_name, path, status) => {
      const res = await t.get(path);
      expect(res.status).toBe(status);
    });

    it("an unlisted contact's detail is 404 (parent not extracted), not its record", async () => {
      await t.get(`/api/v1/contacts/${k.hidden.dan}`).expect(404);
    });

    it("the largest offset answers an empty page with the total", async () => {
      const body = (await t.get(`/api/v1/contacts?offset=${INT_MAX}`).expect(200)).body;
      expect(body.data).toEqual([]);
      expect(body._access_summary.total_results).toBeGreaterThan(0);
    });

    it("paging one row at a time through every order visits each person once, as many as the total", async () => {
      for (const unique of [true, false])
        for (const order of ["qualification_score", "state", "title"]) {
          const first = (await t.get(`/api/v1/contacts?unique=${unique}&order_by=${order}&order_ascending=false&limit=1`).expect(200)).body;
          const seen: string[] = [];
          for (let offset = 0; offset < first.pagination.total; offset += 1) {
            const page = (
              await t.get(`/api/v1/contacts?unique=${unique}&order_by=${order}&order_ascending=false&limit=1&offset=${offset}`).expect(200)
            ).body;
            seen.push(page.data[0].id);
          }
          expect(new Set(seen).size).toBe(first.pagination.total);
        }
    });

    it("LIKE wildcards in search are literal, unicode works", async () => {
      expect((await t.get("/api/v1/contacts?search=%25").expect(200)).body.data).toEqual([]);
      expect((await t.get("/api/v1/contacts?search=_").expect(200)).body.data).toEqual([]);
      expect((await t.get(`/api/v1/contacts?search=${encodeURIComponent("Ada 😀 ñ")}`).expect(200)).body.data).toEqual([]);
    });

    it.each([
      ["limit as text", { limit: "abc" }],
      ["limit as array", { limit: [1, 2] }],
      ["district_id as number", { district_id: 5 }],
      ["search as object", { search: { $ne: 1 } }],
      ["unique as text", { unique: "yes" }],
      ["offset negative", { offset: -5 }],
      ["search with a NUL byte", { search: "a\u0000b" }],
    ])("POST /contacts body %s: 400", async (_name, body) => {
      const res = await t.post("/api/v1/contacts", body);
      expect([res.status, res.body.statusCode]).toEqual([400, 400]);
    });

    it.each([
      ["a JSON array", "[]"],
      ["a JSON string", '"x"'],
      ["a JSON number", "5"],
      ["broken JSON", "{"],
    ])("POST /contacts with %s: 400", async (_name, raw) => {
      const res = await t.http
        .post("/api/v1/contacts")
        .set("Authorization", auth("enterprise"))
        .set("Content-Type", "application/json")
        .send(raw);
      expect([res.status, res.body.statusCode]).toEqual([400, 400]);
    });
  });

  describe("gating: a locked contact's gated fields never show", () => {
    const gatedOf = (r: Body) => Object.fromEntries(GATED.map((f) => [f, r[f]]));
    const allNull = Object.fromEntries(GATED.map((f) => [f, null]));

    it("list, unique and not, every order, both directions: gated fields null for another organization", async () => {
      for (const unique of [true, false])
        for (const order of ["name", "title", "state", "qualification_score", "created_at", "last_updated_at"])
          for (const asc of [true, false]) {
            const body = (await t.get(`/api/v1/contacts?unique=${unique}&order_by=${order}&order_ascending=${asc}&limit=200`).expect(200))
              .body;
            for (const r of body.data) expect(gatedOf(r)).toEqual(allNull);
            expect(body._access_summary.unlocked).toBe(0);
          }
    });

    it("the unlocking organization sees its own unlocked row as Ada's representative; others see the enriched row, locked", async () => {
      const pro = (await t.get(`/api/v1/contacts?search=Ada`, "pro").expect(200)).body;
      expect(pro.data.map((r: Body) => r.id)).toEqual([k.c.ada2]);
      expect(pro.data[0].email).toBe("a.lovelace@alpha.example.org");
      expect(pro._access_summary.unlocked).toBe(1);
      const ent = (await t.get(`/api/v1/contacts?search=Ada`).expect(200)).body;
      expect(ent.data.map((r: Body) => r.id)).toEqual([k.c.ada]);
      expect(gatedOf(ent.data[0])).toEqual(allNull);
      expect(ent._access_summary).toMatchObject({ unlocked: 0, total_results: 1 });
    });

    it("detail and GraphQL relations keep them null for another organization", async () => {
      const detail = (await t.get(`/api/v1/contacts/${k.c.ada2}`).expect(200)).body.data;
      expect(gatedOf(detail)).toEqual(allNull);
      const q = `query($d: UUID!, $s: UUID!) {
        district(id: $d) { contacts(unique: false, limit: 200) { data { id email phone linkedinUrl profileSummary keyFacts
          district { id } school { id contacts { data { email phone keyFacts } } } } _accessSummary { unlocked } } }
        school(id: $s) { contacts(unique: false) { data { email phone linkedinUrl profileSummary keyFacts } } } }`;
      const res = await t.graphql(q, { d: k.d.alpha, s: k.s.adams });
      expect(res.errors).toBeUndefined();
      const json = JSON.stringify(res.data);
      for (const secret of ["@alpha.example.org", "555-0101", "linkedin.example.org", "Fictional superintendent", "tenure_years"])
        expect(json).not.toContain(secret);
      expect(res.data.district.contacts._accessSummary.unlocked).toBe(0);
    });

    it("a filter on a gated field does not exist (no oracle): email and phone filters are refused, not ignored", async () => {
      for (const q of ["email=ada%40alpha.example.org", "phone=555", "email_ilike=%25"]) {
        const res = await t.get(`/api/v1/contacts?${q}`);
        // An unknown parameter is either refused or ignored: ignored must not narrow the result.
        if (res.status === 200)
          expect(res.body._access_summary.total_results).toBe(
            (await t.get("/api/v1/contacts").expect(200)).body._access_summary.total_results,
          );
        else expect(res.status).toBe(400);
      }
    });

    it("the search filter matches name and title only, never email", async () => {
      expect((await t.get("/api/v1/contacts?search=alpha.example").expect(200)).body.data).toEqual([]);
      expect((await t.get("/api/v1/contacts?search=555-0101").expect(200)).body.data).toEqual([]);
    });

    it("GraphQL cannot filter or sort on a gated field", async () => {
      const res = await t.graphql(`{ contacts(filter: { email: "x" }) { data { id } } }`);
      expect(res.errors?.[0].message).toMatch(/email/);
      const res2 = await t.graphql(`{ contacts(orderBy: email) { data { id } } }`);
      expect(res2.errors?.[0].message).toMatch(/email/);
    });
  });

  describe("a parent's re-extraction (POST /unlock re_extract runs the pipeline again)", () => {
    // pipeline.ts sets the parent's status to processing when a run starts and to error when it fails; a parent
    // extracted before keeps content_extracted_at. Its contacts were extracted: they stay listed for everyone.
    let district: string;
    let contact: string;
    beforeAll(async () => {
      district = await insertDistrict(t.db, { name: "Rerun District", state: "KS", status: "completed", content_extracted_at: new Date() });
      contact = await insert(t.db, "contacts", {
        name: "Rita Rerun",
        title: "Superintendent",
        district_id: district,
        state: "KS",
        is_district_contact: true,
        email: "rita@rerun.example.org",
        enrichment_status: "completed",
        data_source: "demo",
        source: "demo",
      });
      await insertUnlock(t.db, t.orgs.pro, "district", district);
      await insertUnlock(t.db, t.orgs.pro, "contact", contact);
    });

    it.each(["processing", "error"])(
      "parent %s after an earlier extraction: its contacts stay listed, unlockable and unlocked",
      async (status) => {
        await t.db.query(`UPDATE districts SET status = $2 WHERE id = $1`, [district, status]);
        const detail = await t.get(`/api/v1/contacts/${contact}`, "pro");
        expect([detail.status, detail.body.data?.email]).toEqual([200, "rita@rerun.example.org"]);
        const list = (await t.get(`/api/v1/contacts?district_id=${district}`, "pro").expect(200)).body;
        expect([list.data.map((r: Body) => r.id), list._access_summary.unlocked]).toEqual([[contact], 1]);
        const res = await t.graphql(`query($d: UUID!) { district(id: $d) { contacts { data { id email } } } }`, { d: district }, "pro");
        expect(res.data.district.contacts.data).toEqual([{ id: contact, email: "rita@rerun.example.org" }]);
        // Another organization, its parent unlock done before the rerun: the contact unlock is not a 404.
        await insertUnlock(t.db, t.orgs.internal, "district", district).catch(() => undefined);
        const unlock = await t.post("/api/v1/unlock", { entity_type: "contact", entity_id: contact }, "internal");
        expect(unlock.status).toBe(200);
      },
    );

    it("a first extraction still running (never extracted): its contacts are not listed", async () => {
      await t.db.query(`UPDATE districts SET status = 'processing', content_extracted_at = NULL WHERE id = $1`, [district]);
      await t.get(`/api/v1/contacts/${contact}`, "pro").expect(404);
      const list = (await t.get(`/api/v1/contacts?district_id=${district}`, "pro").expect(200)).body;
      expect(list.data).toEqual([]);
      await t.db.query(`UPDATE districts SET status = 'completed', content_extracted_at = now() WHERE id = $1`, [district]);
    });
  });

  describe("GraphQL relations: extreme paging", () => {
    it.each([
      ["District.contacts", `query($d: UUID!) { district(id: $d) { contacts(offset: ${INT_MAX}) { data { id } pagination { total } } } }`],
      ["District.contacts limit max", `query($d: UUID!) { district(id: $d) { contacts(offset: ${INT_MAX}, limit: 200) { data { id } } } }`],
      ["District.schools", `query($d: UUID!) { district(id: $d) { schools(offset: ${INT_MAX}) { data { id } pagination { total } } } }`],
      ["District.headStartPrograms", `query($d: UUID!) { district(id: $d) { headStartPrograms(offset: ${INT_MAX}) { data { id } } } }`],
      [
        "School.contacts",
        `query($d: UUID!) { district(id: $d) { schools { data { contacts(offset: ${INT_MAX}, limit: 200) { data { id } } } } } }`,
      ],
    ])("%s at the largest offset: an empty page, no error", async (_name, q) => {
      const res = await t.graphql(q, { d: k.d.alpha });
      expect(res.errors).toBeUndefined();
    });

    it("Operator.childcareCenters / headStartPrograms and HeadStartProgram.delegates at the largest offset: empty pages with totals", async () => {
      const operator = await insertOperator(t.db, { name: "Hostile Operator" });
      await insertCenter(t.db, { name: "Hostile Center", state: "NE", operator_id: operator });
      const program = await insertHeadStart(t.db, { name: "Hostile Grant", state: "NE", operator_id: operator });
      const res = await t.graphql(
        `query($o: UUID!, $h: UUID!) {
          operator(id: $o) { childcareCenters(offset: ${INT_MAX}, limit: 200) { data { id } pagination { total } }
                             headStartPrograms(offset: ${INT_MAX}) { data { id } pagination { total } } }
          headStartProgram(id: $h) { delegates(offset: ${INT_MAX}) { data { id } } } }`,
        { o: operator, h: program },
      );
      expect(res.errors).toBeUndefined();
      expect(res.data.operator.childcareCenters).toEqual({ data: [], pagination: { total: 1 } });
      expect(res.data.operator.headStartPrograms).toEqual({ data: [], pagination: { total: 1 } });
    });

    it.each([
      ["negative limit", `query($d: UUID!) { district(id: $d) { contacts(limit: -1) { data { id } } } }`, /limit/],
      ["limit over max", `query($d: UUID!) { district(id: $d) { contacts(limit: 201) { data { id } } } }`, /limit/],
      ["negative offset", `query($d: UUID!) { district(id: $d) { contacts(offset: -1) { data { id } } } }`, /offset/],
      ["events limit 0", `query($d: UUID!) { district(id: $d) { events(limit: 0) { id } } }`, /limit/],
    ])("%s: a coded 400 error", async (_name, q, text) => {
      const res = await t.graphql(q, { d: k.d.alpha });
      expect(res.errors?.[0].message).toMatch(text);
      expect(res.errors?.[0].extensions?.code).toMatch(/BAD_REQUEST|BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
    });
  });

  describe("odd encodings, ids and bodies", () => {
    it.each([
      ["invalid percent-encoding in search", "/api/v1/contacts?search=%E0%A4%A", [200, 400]],
      ["a lone surrogate in search", "/api/v1/contacts?search=%ED%A0%80", [200, 400]],
      ["a bare % as a uuid", "/api/v1/contacts?district_id=%25", [400]],
      ["invalid percent-encoding in the id", "/api/v1/contacts/%E0%A4%A", [400]],
      ["an uppercase uuid", `/api/v1/contacts/${NO_SUCH.toUpperCase()}`, [404]],
      ["a braced uuid", `/api/v1/contacts/{${NO_SUCH}}`, [404]],
      ["a uuid with a trailing newline", `/api/v1/contacts/${NO_SUCH}%0A`, [400]],
      ["a uuid with a SQL tail", `/api/v1/contacts/${NO_SUCH}'--`, [400]],
      ["follows of a braced project", `/api/v1/projects/{${NO_SUCH}}/follows`, [404]],
      ["an association id with a trailing space", `/api/v1/associations/${NO_SUCH}%20`, [400]],
    ])("%s: no 5xx", async (_name, path, statuses) => {
      const res = await t.get(path);
      expect(statuses).toContain(res.status);
      if (res.status >= 400) expect(res.body.statusCode).toBe(res.status);
    });

    it("a braced uuid (accepted by the UUID scalar) reads the same record everywhere, never a 5xx", async () => {
      const braced = (id: string) => `{${id.toUpperCase()}}`;
      const detail = await t.get(`/api/v1/contacts/${braced(k.c.gus)}`);
      expect([detail.status, detail.body.data?.id]).toEqual([200, k.c.gus]);
      const assoc = await t.get(`/api/v1/associations/${braced(association)}`);
      expect([assoc.status, assoc.body.data?.id]).toEqual([200, association]);
      const list = await t.get(`/api/v1/contacts?district_id=${braced(k.d.beta)}`);
      expect([list.status, list.body.data?.map((r: Body) => r.id)]).toEqual([200, [k.c.gus]]);
      const project = (await t.post("/api/v1/projects", { name: "Braced" }, "pro").expect(201)).body.data.id as string;
      const follow = await t.post(
        "/api/v1/follows",
        { project_id: braced(project), entity_type: "district", entity_id: braced(k.d.beta) },
        "pro",
      );
      expect([follow.status, follow.body.data?.entity_id]).toEqual([201, k.d.beta]);
      const follows = await t.get(`/api/v1/projects/${braced(project)}/follows`, "pro");
      expect([follows.status, follows.body.data?.length]).toEqual([200, 1]);
      const gone = await t.http.delete(`/api/v1/follows/${braced(follow.body.data.id)}`).set("Authorization", auth("pro"));
      expect([gone.status, gone.body.data?.unfollowed_at]).toEqual([200, expect.any(String)]);
      const unlock = await t.post("/api/v1/unlock", { entity_type: "contact", entity_id: braced(k.c.gus) }, "pro");
      expect([unlock.status, unlock.body.parent_entity_id]).toEqual([403, k.d.beta]);
      const status = await t.get(`/api/v1/unlock-status/contact/${braced(k.c.gus)}`, "pro");
      expect([status.status, status.body.entity_id]).toEqual([200, k.c.gus]);
    });

    it.each([
      ["?__proto__[limit]=1"],
      ["?__proto__=1"],
      ["?constructor=1"],
      ["?toString=1"],
      ["?hasOwnProperty=x"],
      ["?limit[]=1"],
      ["?limit[a]=1"],
      ["?search[]=a&search[]=b"],
    ])("query %s on GET /contacts: a 400 naming it, no 5xx", async (query) => {
      const res = await t.get(`/api/v1/contacts${query}`);
      expect([res.status, res.body.statusCode]).toEqual([400, 400]);
    });

    it.each([
      ['{"__proto__": {"limit": 1}}'],
      ['{"constructor": {"prototype": {"limit": 1}}}'],
      ['{"toString": "x"}'],
      ['{"hasOwnProperty": 1}'],
      ['{"limit": 1, "limit": 2}'],
      ['{"limit": 1e400}'],
      ['{"limit": null, "offset": null, "search": null}'],
    ])("POST /contacts body %s: 400 or the default page, no 5xx", async (raw) => {
      const res = await t.http
        .post("/api/v1/contacts")
        .set("Authorization", auth("enterprise"))
        .set("Content-Type", "application/json")
        .send(raw);
      expect([200, 400]).toContain(res.status);
      if (res.status === 200) expect(res.body.pagination.limit).toBe(50);
      // no prototype was polluted
      expect(({} as Body).limit).toBeUndefined();
    });

    it.each([
      ["PUT", "/api/v1/follows/" + NO_SUCH],
      ["PATCH", "/api/v1/contacts/" + NO_SUCH],
      ["DELETE", "/api/v1/contacts"],
      ["DELETE", "/api/v1/associations/" + NO_SUCH],
      ["GET", "/api/v1/follows"],
      ["POST", "/api/v1/projects/" + NO_SUCH + "/follows"],
    ])("%s %s: 405, never a 5xx", async (method, path) => {
      const res = await t.http[method.toLowerCase() as "put"](path).set("Authorization", auth("enterprise"));
      expect(res.status).toBe(405);
    });

    it("an oversized body is refused 413, not read", async () => {
      const res = await t.post("/api/v1/contacts", { search: "x".repeat(3_000_000) });
      expect(res.status).toBe(413);
    });

    it("a follow sent as text/plain or form data is a 400", async () => {
      const text = await t.http.post("/api/v1/follows").set("Authorization", auth("pro")).set("Content-Type", "text/plain").send("x");
      expect(text.status).toBe(400);
      const form = await t.http.post("/api/v1/follows").set("Authorization", auth("pro")).type("form").send({ project_id: NO_SUCH });
      expect(form.status).toBe(400);
    });
  });

  describe("GraphQL arguments REST never sends", () => {
    it.each([
      ["empty district list ids", `{ contacts(filter: { districtListIds: [] }) { data { id } } }`, /district_list_ids/],
      ["blank search", `{ contacts(filter: { search: "   " }) { data { id } } }`, /search/],
      ["empty state", `{ contacts(filter: { state: "" }) { data { id } } }`, /state/],
      ["blank title_ilike", `{ contacts(filter: { titleIlike: " " }) { data { id } } }`, /title_ilike/],
      ["empty association states", `{ associations(filter: { state: [] }) { data { id } } }`, /state/],
      ["empty association kinds", `{ associations(filter: { kind: [] }) { data { id } } }`, /kind/],
      ["empty association ids", `{ associations(filter: { ids: [] }) { data { id } } }`, /ids/],
      ["limit over int", `{ contacts(limit: 2147483648) { data { id } } }`, /Int|limit/],
    ])("%s: a 400-class error naming it", async (_name, q, text) => {
      const res = await t.graphql(q);
      expect(res.errors?.[0].message).toMatch(text);
      expect(res.errors?.[0].extensions?.code).toMatch(/BAD_REQUEST|BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
    });

    it("deep relation cycles and huge nested limits are refused before running, not executed", async () => {
      let sections = "id";
      for (let i = 0; i < 30; i += 1) sections = `id sections(limit: 200) { ${sections} }`;
      const deep = await t.graphql(`{ associations(limit: 200) { data { ${sections} } } }`);
      expect(deep.data ?? null).toBeNull();
      expect(deep.errors?.[0].extensions?.code).toMatch(/BAD_REQUEST|GRAPHQL_VALIDATION_FAILED|QUERY_TOO_COMPLEX|COST/);
      const wide = await t.graphql(
        `{ districts(limit: 200) { data { contacts(limit: 200) { data { district { contacts(limit: 200) { data { id } } } } } } } }`,
      );
      expect(wide.data ?? null).toBeNull();
      expect(wide.errors?.[0].message).toMatch(/cost|complex|limit/i);
    });

    it("null arguments take the defaults", async () => {
      const res = await t.graphql(
        `{ contacts(limit: null, offset: null, orderBy: null, orderAscending: null, unique: null, filter: null) { pagination { limit offset } }
           associations(limit: null, offset: null, orderBy: null, filter: null) { pagination { limit } } }`,
      );
      expect(res.errors).toBeUndefined();
      expect(res.data.contacts.pagination).toEqual({ limit: 50, offset: 0 });
    });
  });

  describe("associations: malformed input", () => {
    it.each([
      ["search with a NUL byte", "?search=a%00b", /search/],
      ["search too long", `?search=${"y".repeat(500)}`, /search/],
      ["malformed ids", "?ids=1,2", /ids|UUID/i],
      ["empty ids", "?ids=", /ids/],
      ["malformed parent", "?parent_association_id=zz", /parent_association_id|parentAssociationId|UUID/i],
      ["unknown kind", "?kind=club", /kind/],
      ["bad state", "?state=N1", /state/],
      ["unknown order_by", "?order_by=phone", /order_by|orderBy/],
      ["limit over max", "?limit=201", /limit/],
      ["offset over int", "?offset=99999999999", /offset/],
    ])("%s: 400", async (_name, query, text) => {
      await expect4xx(`/api/v1/associations${query}`, 400, text);
    });

    it.each([
      ["people limit 0", `query($a: UUID!) { association(id: $a) { people(limit: 0) { title } } }`, /limit/],
      ["people limit over max", `query($a: UUID!) { association(id: $a) { people(limit: 201) { title } } }`, /limit/],
      ["sections limit negative", `query($a: UUID!) { association(id: $a) { sections(limit: -3) { id } } }`, /limit/],
    ])("GraphQL %s: a coded 400 error", async (_name, q, text) => {
      const res = await t.graphql(q, { a: association });
      expect(res.errors?.[0].message).toMatch(text);
      expect(res.errors?.[0].extensions?.code).toMatch(/BAD_REQUEST|BAD_USER_INPUT/);
    });

    it("GraphQL people of a redacted person: the name stays redacted at every limit", async () => {
      const res = await t.graphql(`query($a: UUID!) { association(id: $a) { people(limit: 200) { name title redacted } } }`, {
        a: association,
      });
      expect(JSON.stringify(res)).not.toContain("Secret Name");
    });

    it("detail: malformed id 400, unknown 404, redacted names stay redacted", async () => {
      await t.get("/api/v1/associations/nope").expect(400);
      await t.get(`/api/v1/associations/${NO_SUCH}`).expect(404);
      const body = (await t.get(`/api/v1/associations/${association}`).expect(200)).body;
      expect(JSON.stringify(body)).not.toContain("Secret Name");
      await t.get(`/api/v1/associations?offset=${INT_MAX}`).expect(200);
    });
  });

  describe("contact unlock", () => {
    const unlock = (body: unknown, plan: PlanKey = "enterprise") => t.post("/api/v1/unlock", body, plan);
    const credits = async (plan: PlanKey) => (await t.get("/api/v1/org", plan).expect(200)).body.credits.balance as number;

    it("a paid organization with the parent locked: 403 PARENT_ENTITY_LOCKED, no credits taken, no unlock row", async () => {
      const before = await credits("enterprise");
      const res = await unlock({ entity_type: "contact", entity_id: k.c.gus });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ parent_entity_type: "district", parent_entity_id: k.d.beta });
      expect(await credits("enterprise")).toEqual(before);
      const rows = await t.db.query(`SELECT 1 FROM unlocks WHERE organization_id = $1 AND entity_id = $2`, [t.orgs.enterprise, k.c.gus]);
      expect(rows).toHaveLength(0);
    });

    it.each([
      ["malformed id", { entity_type: "contact", entity_id: "zz" }, 400],
      ["unknown contact", { entity_type: "contact", entity_id: NO_SUCH }, 404],
      ["unlisted contact", { entity_type: "contact", entity_id: "HIDDEN" }, 404],
      ["re_extract", { entity_type: "contact", entity_id: "ADA", re_extract: true }, 400],
      ["entity_id as number", { entity_type: "contact", entity_id: 5 }, 400],
      ["entity_id as array", { entity_type: "contact", entity_id: ["ADA"] }, 400],
    ])("%s", async (_name, body, status) => {
      const b = JSON.parse(JSON.stringify(body).replace("HIDDEN", k.hidden.eve).replace("ADA", k.c.ada));
      const res = await unlock(b, "pro");
      expect([res.status, res.body.statusCode]).toEqual([status, status]);
    });

    it("concurrent unlocks of one contact charge once; a pending contact unlock keeps the gated fields null", async () => {
      await unlock({ entity_type: "district", entity_id: k.d.alpha }, "internal").expect(200);
      const before = await credits("internal");
      const results = await Promise.all(
        Array.from({ length: 6 }, () => unlock({ entity_type: "contact", entity_id: k.c.ada }, "internal")),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(before - (await credits("internal"))).toBe(2);
      // Bob is not enriched: the unlock waits for the enrichment (202), his gated fields stay null meanwhile.
      const pending = await unlock({ entity_type: "contact", entity_id: k.c.bob }, "internal");
      expect(pending.status).toBe(202);
      const body = (await t.get(`/api/v1/contacts?search=Builder&unique=false`, "internal").expect(200)).body;
      for (const r of body.data) for (const f of GATED) expect(r[f]).toBeNull();
      expect(body._access_summary.unlocked).toBe(0);
    });

    it("a batch mixing good, locked, unlisted, malformed-looking and repeated contacts answers item by item", async () => {
      const res = await unlock(
        {
          entities: [
            { entity_type: "contact", entity_id: k.c.ada },
            { entity_type: "contact", entity_id: k.c.ada },
            { entity_type: "contact", entity_id: k.c.gus },
            { entity_type: "contact", entity_id: k.hidden.hal },
            { entity_type: "contact", entity_id: NO_SUCH },
          ],
        },
        "internal",
      );
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: Body) => r.statusCode ?? r.outcome ?? r.state)).toEqual([
        expect.anything(),
        expect.anything(),
        403,
        404,
        404,
      ]);
    });

    it("a batch unlocking the parent before its contact decides the contact after the parent (in order)", async () => {
      const res = await unlock(
        {
          entities: [
            { entity_type: "district", entity_id: k.d.beta },
            { entity_type: "contact", entity_id: k.c.gus },
          ],
        },
        "free",
      );
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: Body) => r.outcome ?? r.error)).toEqual(["unlocked", "unlock_pending"]);
    });

    it("a contact unlock without enough credits is a 402, nothing held; unlock-status refuses malformed input", async () => {
      const { organizationId } = await createOrganization(t.db, { name: "Poor", plan: "pro", credits: 7 });
      const key = (await createApiKey(t.db, organizationId)).apiKey;
      const as = (body: unknown) =>
        t.http
          .post("/api/v1/unlock")
          .set("Authorization", `Bearer ${key}`)
          .send(body as object);
      await as({ entity_type: "district", entity_id: k.d.alpha }).expect(200); // 6 of 7
      const res = await as({ entity_type: "contact", entity_id: k.c.bob });
      expect([res.status, res.body.statusCode]).toEqual([402, 402]);
      const org = (await t.http.get("/api/v1/org").set("Authorization", `Bearer ${key}`).expect(200)).body.credits;
      expect(org).toEqual({ balance: 1, held: 0, available: 1 });
      for (const path of ["contact/zz", "contacts/" + k.c.bob, "contact/%00", "Contact/" + k.c.bob])
        expect((await t.get(`/api/v1/unlock-status/${path}`)).status).toBe(400);
    });

    it("another organization's contact unlock does not unlock for this one (detail, status)", async () => {
      expect((await t.get(`/api/v1/unlock-status/contact/${k.c.ada2}`).expect(200)).body.state).toBe("locked");
      // internal's pending unlock of Bob (its job and hold) never shows in another organization's status.
      expect((await t.get(`/api/v1/unlock-status/contact/${k.c.bob}`, "internal").expect(200)).body).toMatchObject({
        state: "unlock_pending",
        job_id: expect.any(String),
      });
      expect((await t.get(`/api/v1/unlock-status/contact/${k.c.bob}`).expect(200)).body).toMatchObject({
        state: "locked",
        job_id: null,
        hold_id: null,
      });
      expect((await t.get(`/api/v1/unlock-status/contact/${k.c.ada2}`, "pro").expect(200)).body.state).toBe("unlocked");
    });
  });

  describe("follows", () => {
    let project: Record<string, string>;
    const newProject = async (plan: PlanKey, name: string) =>
      (await t.post("/api/v1/projects", { name }, plan).expect(201)).body.data.id as string;
    const followAs = (plan: PlanKey, body: unknown) =>
      t.http
        .post("/api/v1/follows")
        .set("Authorization", auth(plan))
        .send(body as object);
    const unfollowAs = (plan: PlanKey, id: string) => t.http.delete(`/api/v1/follows/${id}`).set("Authorization", auth(plan));

    beforeAll(async () => {
      project = { pro: await newProject("pro", "P"), free: await newProject("free", "F"), enterprise: await newProject("enterprise", "E") };
    });

    it.each([
      ["nonexistent district", () => ({ project_id: project.pro, entity_type: "district", entity_id: NO_SUCH }), 404],
      ["a school id as a district", () => ({ project_id: project.pro, entity_type: "district", entity_id: k.s.adams }), 404],
      ["another organization's project", () => ({ project_id: project.enterprise, entity_type: "district", entity_id: k.d.alpha }), 404],
      ["nonexistent project", () => ({ project_id: NO_SUCH, entity_type: "district", entity_id: k.d.alpha }), 404],
      ["malformed project id", () => ({ project_id: "p", entity_type: "district", entity_id: k.d.alpha }), 400],
      ["malformed entity id", () => ({ project_id: project.pro, entity_type: "district", entity_id: "x\u0000" }), 400],
      ["entity type contact", () => ({ project_id: project.pro, entity_type: "contact", entity_id: k.c.ada }), 400],
      ["entity type missing", () => ({ project_id: project.pro, entity_id: k.d.alpha }), 400],
      ["entity id as array", () => ({ project_id: project.pro, entity_type: "district", entity_id: [k.d.alpha] }), 400],
      ["body an array", () => [], 400],
    ])("follow with %s", async (_name, body, status) => {
      const res = await followAs("pro", body());
      expect([res.status, res.body.statusCode]).toEqual([status, status]);
    });

    it("DELETE of another organization's follow is a 404 and leaves it active; malformed id 400", async () => {
      const mine = (
        await followAs("enterprise", { project_id: project.enterprise, entity_type: "district", entity_id: k.d.beta }).expect(201)
      ).body.data;
      expect((await unfollowAs("pro", mine.id)).status).toBe(404);
      const list = (await t.get(`/api/v1/projects/${project.enterprise}/follows`).expect(200)).body;
      expect(list.data.map((f: Body) => [f.id, f.unfollowed_at])).toEqual([[mine.id, null]]);
      expect((await unfollowAs("pro", "abc")).status).toBe(400);
      expect((await unfollowAs("pro", NO_SUCH)).status).toBe(404);
    });

    it("listing another organization's project follows is a 404; malformed project id 400; bad paging 400", async () => {
      expect((await t.get(`/api/v1/projects/${project.enterprise}/follows`, "pro")).status).toBe(404);
      expect((await t.get(`/api/v1/projects/zz/follows`, "pro")).status).toBe(400);
      expect((await t.get(`/api/v1/projects/${project.pro}/follows?limit=0`, "pro")).status).toBe(400);
      expect((await t.get(`/api/v1/projects/${project.pro}/follows?entity_type=contact`, "pro")).status).toBe(400);
      expect((await t.get(`/api/v1/projects/${project.pro}/follows?offset=${INT_MAX}`, "pro")).status).toBe(200);
    });

    it("concurrent follows of one entity create one follow; concurrent follow/unfollow leaves a consistent state", async () => {
      const body = { project_id: project.pro, entity_type: "school", entity_id: k.s.adams };
      const results = await Promise.all(Array.from({ length: 8 }, () => followAs("pro", body)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
      const id = results[0].body.data.id;
      const mixed = await Promise.all([unfollowAs("pro", id), followAs("pro", body), unfollowAs("pro", id), followAs("pro", body)]);
      for (const r of mixed) expect(r.status).toBeLessThan(300);
      const active = await t.db.query(`SELECT id FROM follows WHERE project_id = $1 AND entity_id = $2 AND unfollowed_at IS NULL`, [
        project.pro,
        k.s.adams,
      ]);
      expect(active.length).toBeLessThanOrEqual(1);
    });

    it("concurrent DELETEs of one follow all answer the same first unfollow time", async () => {
      const made = (await followAs("pro", { project_id: project.pro, entity_type: "district", entity_id: k.d.beta }).expect(201)).body.data;
      const results = await Promise.all(Array.from({ length: 6 }, () => unfollowAs("pro", made.id)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(new Set(results.map((r) => r.body.data.unfollowed_at)).size).toBe(1);
    });

    it("unknown or camelCase body keys are refused, not silently ignored", async () => {
      const res = await followAs("pro", { projectId: project.pro, entityType: "district", entityId: k.d.beta });
      expect(res.status).toBe(400);
      const res2 = await t.post("/api/v1/contacts", { districtId: k.d.beta }, "pro");
      expect(res2.status).toBe(400);
    });

    it("concurrent follows, unfollows, contact unlocks and lists of one organization all finish (no lock stall)", async () => {
      await insertUnlock(t.db, t.orgs.enterprise, "school", k.s.adams).catch(() => undefined);
      const body = { project_id: project.enterprise, entity_type: "district", entity_id: k.d.alpha };
      const made = (await followAs("enterprise", body)).body.data;
      const started = Date.now();
      const results = await Promise.all([
        followAs("enterprise", body),
        unfollowAs("enterprise", made.id),
        t.post("/api/v1/unlock", { entity_type: "contact", entity_id: k.c.cara }),
        followAs("enterprise", { ...body, entity_type: "school", entity_id: k.s.adams }),
        t.post("/api/v1/unlock", { entity_type: "contact", entity_id: k.c.cara }),
        t.get(`/api/v1/projects/${project.enterprise}/follows?include_unfollowed=true`),
        t.get("/api/v1/contacts?limit=200"),
        followAs("enterprise", body),
        unfollowAs("enterprise", made.id),
      ]);
      for (const r of results) expect(r.status).toBeLessThan(300);
      expect(Date.now() - started).toBeLessThan(60_000);
    });

    it("free plan: concurrent follows of distinct entities never exceed the slots", async () => {
      const ds: string[] = [];
      for (let i = 0; i < 6; i += 1) ds.push(await insertDistrict(t.db, { name: `Hostile ${i}`, state: "NE" }));
      const results = await Promise.all(
        ds.map((id) => followAs("free", { project_id: project.free, entity_type: "district", entity_id: id })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      expect(results.filter((r) => r.status === 403).map((r) => r.body.error)).toEqual(["FOLLOW_LIMIT", "FOLLOW_LIMIT", "FOLLOW_LIMIT"]);
    });
  });

  describe("tenant isolation of lists in the contact filters", () => {
    it("another organization's contact list is a 404, not an empty page and not its members", async () => {
      const list = await insertList(t.db, t.orgs.pro, "contact", [k.c.ada]);
      const res = await t.get(`/api/v1/contacts?list_id=${list}`);
      expect(res.status).toBe(404);
      const res2 = await t.get(`/api/v1/contacts?district_list_ids=${list}`);
      expect(res2.status).toBe(404);
    });
  });
});
