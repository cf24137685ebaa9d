/**
 * GET/POST /head-start-programs and GET /head-start-programs/{id}: the spec's record (parent program and
 * district names joined), every filter valid and invalid, ordering and paging, statement counts, GraphQL.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertHeadStart, insertOperator } from "../support/early-childhood-factories";
import { insertDistrict } from "../support/factories";
import { countStatements } from "../support/statements";

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

// The interface spec's "Head Start program record".
const PROGRAM_FIELDS = words(`id, slug, name, grant_number, delegate_number, parent_program_id, parent_program_name,
  recipient_name, state, physical_address, physical_city, physical_zip, county, phone, website_url, email, district_id,
  district_name, program_types, funded_slots, open_site_count, site_count, status, grant_amount, grant_start, grant_end,
  source_url, source_version`);

type Record_ = Record<string, any>;
const names = (body: { data: Record_[] }) => body.data.map((o) => o.name);
const sorted = (list: string[]) => [...list].sort();

describe("head start programs", () => {
  let t: TestApp;
  const id: Record<string, string> = {};
  let districtId: string;
  let operatorId: string;

  beforeAll(async () => {
    t = await createTestApp();
    districtId = await insertDistrict(t.db, { name: "Omaha Public Schools", state: "NE" });
    operatorId = await insertOperator(t.db, { name: "Sunflower Inc", kind: "nonprofit", state: "NE" });
    id.sunflower = await insertHeadStart(t.db, {
      name: "Sunflower Head Start",
      grant_number: "01CH000001",
      recipient_name: "Sunflower Inc",
      operator_id: operatorId,
      state: "NE",
      county: "Douglas",
      physical_address: "100 Main St",
      physical_city: "Omaha",
      physical_zip: "68102",
      phone: "(402) 555-0101",
      website_url: "https://sunflower.example.org",
      email: "info@sunflower.example.org",
      program_types: ["head_start", "early_head_start"],
      funded_slots: 120,
      open_site_count: 3,
      site_count: 4,
      grant_amount: 1_500_000,
      grant_start: "2020-07-01",
      grant_end: "2025-06-30",
      source_url: "https://example.org/pir",
      source_version: "PIR 2022",
    });
    id.delegate = await insertHeadStart(t.db, {
      name: "Sunflower Delegate East",
      grant_number: "01CH000001",
      delegate_number: "001",
      parent_program_id: id.sunflower,
      recipient_name: "Sunflower Inc",
      state: "NE",
      county: "Sarpy",
      funded_slots: 40,
      grant_end: "2025-06-30",
    });
    id.district = await insertHeadStart(t.db, {
      name: "Omaha PS Early Learning",
      grant_number: "07CH000002",
      recipient_name: "Omaha Public Schools",
      district_id: districtId,
      state: "NE",
      county: "DOUGLAS",
      program_types: ["early_head_start"],
      funded_slots: 80,
      grant_amount: 900_000,
      grant_end: "2026-06-30",
    });
    id.migrant = await insertHeadStart(t.db, {
      name: "Prairie Migrant Program",
      grant_number: "07CH000003",
      recipient_name: "Prairie Migrant Council",
      state: "IA",
      county: "Polk",
      program_types: ["migrant_seasonal"],
      status: "no_open_site",
      grant_end: "2021-06-30",
    });
    id.tribal = await insertHeadStart(t.db, {
      name: "Tribal Nations Head Start",
      grant_number: "08CI000004",
      recipient_name: "Tribal Nations",
      state: "KS",
      program_types: ["aian_head_start"],
      funded_slots: 25,
    });
  });
  afterAll(() => t.close());

  it("serves the spec's record with the parent program's and the district's names", async () => {
    const res = await t.get("/api/v1/head-start-programs").expect(200);
    // Active programs by default (the migrant program has no open site).
    expect(names(res.body)).toEqual([
      "Omaha PS Early Learning",
      "Sunflower Delegate East",
      "Sunflower Head Start",
      "Tribal Nations Head Start",
    ]);
    expect(res.body.pagination).toEqual({ total: 4, limit: 50, offset: 0, has_more: false });
    for (const record of res.body.data) expect(Object.keys(record).sort()).toEqual(sorted(PROGRAM_FIELDS));
    const [district, delegate, sunflower] = res.body.data;
    expect(sunflower).toEqual({
      id: id.sunflower,
      slug: expect.stringMatching(/^test-head-start-/),
      name: "Sunflower Head Start",
      grant_number: "01CH000001",
      delegate_number: null,
      parent_program_id: null,
      parent_program_name: null,
      recipient_name: "Sunflower Inc",
      state: "NE",
      physical_address: "100 Main St",
      physical_city: "Omaha",
      physical_zip: "68102",
      county: "Douglas",
      phone: "(402) 555-0101",
      website_url: "https://sunflower.example.org",
      email: "info@sunflower.example.org",
      district_id: null,
      district_name: null,
      program_types: ["head_start", "early_head_start"],
      funded_slots: 120,
      open_site_count: 3,
      site_count: 4,
      status: "active",
      grant_amount: 1_500_000,
      grant_start: "2020-07-01",
      grant_end: "2025-06-30",
      source_url: "https://example.org/pir",
      source_version: "PIR 2022",
    });
    expect(delegate).toMatchObject({
      delegate_number: "001",
      parent_program_id: id.sunflower,
      parent_program_name: "Sunflower Head Start",
    });
    expect(district).toMatchObject({ district_id: districtId, district_name: "Omaha Public Schools" });
  });

  it("filters by every parameter", async () => {
    const cases: [string, string[]][] = [
      [
        "status=all",
        [
          "Omaha PS Early Learning",
          "Prairie Migrant Program",
          "Sunflower Delegate East",
          "Sunflower Head Start",
          "Tribal Nations Head Start",
        ],
      ],
      ["status=no_open_site", ["Prairie Migrant Program"]],
      ["status=active&state=KS", ["Tribal Nations Head Start"]],
      ["state=NE,IA", ["Omaha PS Early Learning", "Sunflower Delegate East", "Sunflower Head Start"]],
      ["state=ne,ia&status=all", ["Omaha PS Early Learning", "Prairie Migrant Program", "Sunflower Delegate East", "Sunflower Head Start"]],
      ["county=douglas", ["Omaha PS Early Learning", "Sunflower Head Start"]],
      ["county=Douglas%20County,Sarpy", ["Omaha PS Early Learning", "Sunflower Delegate East", "Sunflower Head Start"]],
      ["program_type=early_head_start,migrant_seasonal", ["Omaha PS Early Learning", "Sunflower Head Start"]],
      ["program_type=migrant_seasonal&status=all", ["Prairie Migrant Program"]],
      ["program_type=aian_head_start,aian_early_head_start", ["Tribal Nations Head Start"]],
      ["min_funded_slots=50", ["Omaha PS Early Learning", "Sunflower Head Start"]],
      ["max_funded_slots=40", ["Sunflower Delegate East", "Tribal Nations Head Start"]],
      ["min_funded_slots=40&max_funded_slots=80", ["Omaha PS Early Learning", "Sunflower Delegate East"]],
      ["grant_end_after=2025-06-30", ["Omaha PS Early Learning", "Sunflower Delegate East", "Sunflower Head Start"]],
      ["grant_end_after=2025-07-01", ["Omaha PS Early Learning"]],
      ["grant_end_before=2025-06-30", ["Sunflower Delegate East", "Sunflower Head Start"]],
      ["grant_end_before=2025-06-29&status=all", ["Prairie Migrant Program"]],
      ["grant_end_after=2025-06-30&grant_end_before=2025-06-30", ["Sunflower Delegate East", "Sunflower Head Start"]],
      ["delegates=include", ["Omaha PS Early Learning", "Sunflower Delegate East", "Sunflower Head Start", "Tribal Nations Head Start"]],
      ["delegates=exclude", ["Omaha PS Early Learning", "Sunflower Head Start", "Tribal Nations Head Start"]],
      ["delegates=only", ["Sunflower Delegate East"]],
      ["district_run=true", ["Omaha PS Early Learning"]],
      ["district_run=false", ["Sunflower Delegate East", "Sunflower Head Start", "Tribal Nations Head Start"]],
      ["search=sunflower", ["Sunflower Delegate East", "Sunflower Head Start"]],
      ["search=omaha%20public", ["Omaha PS Early Learning"]],
      ["search=migrant%20council&status=all", ["Prairie Migrant Program"]],
      ["search=01ch000001", ["Sunflower Delegate East", "Sunflower Head Start"]],
      ["search=01CH000001-001", ["Sunflower Delegate East"]],
      ["search=01CH00000", []],
      [`ids=${"$sunflower"},${"$tribal"}`, ["Sunflower Head Start", "Tribal Nations Head Start"]],
      [`ids=${"$migrant"}`, []],
      [`ids=${"$migrant"}&status=all`, ["Prairie Migrant Program"]],
      [`parent_program_id=${"$sunflower"}`, ["Sunflower Delegate East"]],
      [`parent_program_id=${"$tribal"}`, []],
    ];
    for (const [template, expected] of cases) {
      const query = template.replace(/\$(\w+)/g, (_m, key: string) => id[key]!);
      const res = await t.get(`/api/v1/head-start-programs?${query}`);
      expect([template, res.status, names(res.body)]).toEqual([template, 200, expected]);
      expect(res.body.pagination.total).toBe(expected.length);
    }
  });

  it("orders by every sort field (nulls last, ties by id) and pages", async () => {
    const bySlots = await t.get("/api/v1/head-start-programs?order_by=funded_slots&order_ascending=false").expect(200);
    expect(bySlots.body.data.map((p: Record_) => p.funded_slots)).toEqual([120, 80, 40, 25]);
    const byEnd = await t.get("/api/v1/head-start-programs?order_by=grant_end&status=all").expect(200);
    expect(byEnd.body.data.map((p: Record_) => p.grant_end)).toEqual(["2021-06-30", "2025-06-30", "2025-06-30", "2026-06-30", null]);
    const tied = byEnd.body.data.slice(1, 3).map((p: Record_) => p.id);
    expect(tied).toEqual([...tied].sort());
    const byEndDesc = await t.get("/api/v1/head-start-programs?order_by=grant_end&order_ascending=false&status=all").expect(200);
    expect(byEndDesc.body.data.map((p: Record_) => p.grant_end)).toEqual(["2026-06-30", "2025-06-30", "2025-06-30", "2021-06-30", null]);
    const byAmount = await t.get("/api/v1/head-start-programs?order_by=grant_amount&order_ascending=false").expect(200);
    expect(names(byAmount.body).slice(0, 2)).toEqual(["Sunflower Head Start", "Omaha PS Early Learning"]);
    const byState = await t.get("/api/v1/head-start-programs?order_by=state&status=all").expect(200);
    expect(byState.body.data.map((p: Record_) => p.state)).toEqual(["IA", "KS", "NE", "NE", "NE"]);
    const page = await t.get("/api/v1/head-start-programs?limit=3&offset=1").expect(200);
    expect(names(page.body)).toEqual(["Sunflower Delegate East", "Sunflower Head Start", "Tribal Nations Head Start"]);
    expect(page.body.pagination).toEqual({ total: 4, limit: 3, offset: 1, has_more: false });
    const first = await t.get("/api/v1/head-start-programs?limit=3").expect(200);
    expect(first.body.pagination).toEqual({ total: 4, limit: 3, offset: 0, has_more: true });
    const beyond = await t.get("/api/v1/head-start-programs?offset=10").expect(200);
    expect(beyond.body).toEqual({ data: [], pagination: { total: 4, limit: 50, offset: 10, has_more: false } });
    expect((await t.get("/api/v1/head-start-programs?limit=200").expect(200)).body.pagination.limit).toBe(200);
  });

  it("rejects invalid parameters with 400s naming them", async () => {
    const cases: [string, string][] = [
      ["state=Nebraska", "state"],
      ["state=,", "state"],
      ["county=%20", "county"],
      ["program_type=preschool", "program_type"],
      ["status=closed", "status"],
      ["min_funded_slots=-5", "min_funded_slots"],
      ["max_funded_slots=ten", "max_funded_slots"],
      ["min_funded_slots=9&max_funded_slots=1", "min_funded_slots"],
      ["grant_end_after=2025-13-01", "grant_end_after"],
      ["grant_end_before=tomorrow", "grant_end_before"],
      ["grant_end_after=2026-01-01&grant_end_before=2025-01-01", "grant_end_after"],
      ["delegates=some", "delegates"],
      ["district_run=yes", "district_run"],
      [`search=${"x".repeat(201)}`, "search"],
      ["ids=abc", "ids"],
      ["parent_program_id=abc", "parent_program_id"],
      ["order_by=capacity", "order_by"],
      ["order_ascending=1", "order_ascending"],
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["offset=-1", "offset"],
      ["grant_number=01CH000001", "grant_number"],
    ];
    for (const [query, name] of cases) {
      const res = await t.get(`/api/v1/head-start-programs?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
      expect([query, res.body.message]).toEqual([query, expect.stringContaining(name)]);
    }
  });

  it("GET /head-start-programs/{id} returns { data } for any status; the POST twin matches GET", async () => {
    const one = await t.get(`/api/v1/head-start-programs/${id.migrant}`).expect(200);
    expect(Object.keys(one.body)).toEqual(["data"]);
    expect(Object.keys(one.body.data).sort()).toEqual(sorted(PROGRAM_FIELDS));
    expect(one.body.data).toMatchObject({ id: id.migrant, status: "no_open_site", grant_end: "2021-06-30" });
    const delegate = await t.get(`/api/v1/head-start-programs/${id.delegate}`).expect(200);
    expect(delegate.body.data.parent_program_name).toBe("Sunflower Head Start");
    expect((await t.get("/api/v1/head-start-programs/00000000-0000-4000-8000-000000000000").expect(404)).body.error).toBe("not_found");
    expect((await t.get("/api/v1/head-start-programs/123").expect(400)).body.message).toContain("id");

    const get = await t.get("/api/v1/head-start-programs?state=NE&delegates=exclude&grant_end_after=2025-01-01&limit=1").expect(200);
    const post = await t
      .post("/api/v1/head-start-programs", { state: "NE", delegates: "exclude", grant_end_after: "2025-01-01", limit: "1" })
      .expect(200);
    expect(post.body).toEqual(get.body);
    expect((await t.post("/api/v1/head-start-programs", { district_run: true }).expect(400)).body.message).toContain("district_run");
  });

  // A list page's statements: test/lists/list-contract.test.ts.
  it("reads a program in one statement (and the API key's)", async () => {
    const count = async (path: string) => {
      await t.get(path).expect(200); // warm-up outside the measurement
      return countStatements(t.db, () => t.get(path).expect(200));
    };
    expect(await count(`/api/v1/head-start-programs/${id.delegate}`)).toBe(2); // the API key, the program with both names
  });

  it("serves the same data through POST /graphql, with the operator and the parent program batched", async () => {
    const query = `query($limit: Int) { headStartPrograms(filter: { status: all }, orderBy: funded_slots, orderAscending: false, limit: $limit) {
        data { id name programTypes grantEnd districtName parentProgramName operatorId createdAt
               operator { name kind } parentProgram { id name } }
        pagination { total hasMore } } }`;
    const gql = await t.graphql(query, { limit: 200 });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.headStartPrograms.pagination).toEqual({ total: 5, hasMore: false });
    const byName = Object.fromEntries(gql.data.headStartPrograms.data.map((p: Record_) => [p.name, p]));
    expect(byName["Sunflower Head Start"]).toMatchObject({
      programTypes: ["head_start", "early_head_start"],
      grantEnd: "2025-06-30",
      operatorId,
      operator: { name: "Sunflower Inc", kind: "nonprofit" },
      parentProgram: null,
    });
    expect(byName["Sunflower Delegate East"].parentProgram).toEqual({ id: id.sunflower, name: "Sunflower Head Start" });
    expect(byName["Omaha PS Early Learning"]).toMatchObject({ districtName: "Omaha Public Schools", operator: null });
    // The API key, the list, then one batch for the operators; parents on the page are primed from it.
    const statements = (limit: number) =>
      countStatements(t.db, async () => expect((await t.graphql(query, { limit })).errors).toBeUndefined());
    const one = await statements(1);
    expect(one).toBe(await statements(200));
    expect(one).toBe(3);
    const detail = await t.graphql(`query($id: UUID!) { headStartProgram(id: $id) { name status } }`, { id: id.migrant });
    expect(detail.data.headStartProgram).toEqual({ name: "Prairie Migrant Program", status: "no_open_site" });
  });
});
