/**
 * GET/POST /operators and GET /operators/{id}: the spec's record, computed counts (scoped by `state`),
 * the latest current 990 and its contractors, merged operators, every filter valid and invalid,
 * ordering and paging, statement counts, and the GraphQL query.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertCenter, insertFiling, insertHeadStart, insertOperator } from "../support/early-childhood-factories";
import { countStatements } from "../support/statements";

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

// The interface spec's "Operator record".
const OPERATOR_FIELDS = words(`id, slug, name, kind, ein, uei, chain_key, ntee_code, physical_address, physical_city, state,
  physical_zip, website_url, website_domain, brand_favicon_url, brand_hero_url, brand_color, created_at, updated_at,
  center_count, center_seats, head_start_count, head_start_slots, program_states, total_revenue, government_grants,
  fiscal_year_end, latest_990_form, latest_990_object_id, contractor_matches, contractor_paid`);
const CONTRACTOR_FIELDS = words("name, amount, services, line_key, fiscal_year_end");

type Record_ = Record<string, any>;
const names = (body: { data: Record_[] }) => body.data.map((o) => o.name);
const sorted = (list: string[]) => [...list].sort();

describe("operators", () => {
  let t: TestApp;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    // Alpha: centers in NE and IA (one inactive), an open Head Start program in NE and a closed one in IA,
    // three returns (an older current one, the latest, and a superseded copy of the latest).
    id.alpha = await insertOperator(t.db, {
      name: "Alpha Kids Co",
      kind: "company",
      state: "NE",
      ein: "111111111",
      physical_city: "Omaha",
      website_url: "https://alpha.example.org",
      total_revenue: 1, // the IRS master file's figure, superseded by the return on file
    });
    await insertCenter(t.db, { name: "Alpha Omaha", state: "NE", capacity: 30, operator_id: id.alpha });
    await insertCenter(t.db, { name: "Alpha Lincoln", state: "NE", capacity: 20, operator_id: id.alpha });
    await insertCenter(t.db, { name: "Alpha Des Moines", state: "IA", capacity: 50, operator_id: id.alpha });
    await insertCenter(t.db, { name: "Alpha Closed", state: "NE", capacity: 100, operator_id: id.alpha, license_status: "inactive" });
    await insertHeadStart(t.db, { name: "Alpha Head Start", state: "NE", funded_slots: 40, operator_id: id.alpha });
    await insertHeadStart(t.db, { name: "Alpha Old Grant", state: "IA", funded_slots: 60, status: "no_open_site", operator_id: id.alpha });
    await insertFiling(t.db, id.alpha, { tax_period: "202106", total_revenue: 1_000_000, government_grants: 300_000 }, [
      ["Sunrise Food Services LLC", 150_000, "Food service"],
    ]);
    await insertFiling(
      t.db,
      id.alpha,
      { tax_period: "202206", total_revenue: 2_500_000, government_grants: 800_000, object_id: "202301234567890123" },
      [
        ["Bright-Path Consulting, Inc.", 250_000, "Consulting", "IRS990.PartVII.SectionB"],
        ["Acme Building Maintenance", 120_000, "Maintenance", "IRS990.PartVII.SectionB"],
        ["Small Vendor", 50_000, "Supplies"],
      ],
    );
    await insertFiling(t.db, id.alpha, { tax_period: "202206", total_revenue: 9_900_000, is_current: false }, [
      ["Ghost Contractor", 500_000],
    ]);

    // Beta: one center in IA; its latest return is a 990-EZ (contractors on it never match).
    id.beta = await insertOperator(t.db, { name: "Beta Learning Trust", kind: "nonprofit", state: "IA", ein: "222222222" });
    await insertCenter(t.db, { name: "Beta Center", state: "IA", capacity: 200, operator_id: id.beta });
    await insertFiling(t.db, id.beta, { tax_period: "202212", form: "990EZ", total_revenue: 400_000, government_grants: 0 }, [
      ["Bright Path Consulting", 300_000],
    ]);

    // Gamma: a tribe with two open Head Start programs, no centers, no return on file (IRS figures).
    id.gamma = await insertOperator(t.db, {
      name: "Gamma Tribe Early Learning",
      kind: "tribe",
      state: "NE",
      total_revenue: 75_000,
      fiscal_year_end: "2024-12-31",
    });
    await insertHeadStart(t.db, { name: "Gamma Head Start", state: "NE", funded_slots: 100, operator_id: id.gamma });
    await insertHeadStart(t.db, { name: "Gamma Early Head Start", state: "NE", operator_id: id.gamma });

    // Delta was merged into Alpha: never listed, its center counts for Alpha, its id reads as Alpha.
    id.delta = await insertOperator(t.db, { name: "Delta Old Name", kind: "company", state: "KS", merged_into_id: id.alpha });
    await insertCenter(t.db, { name: "Delta Wichita", state: "KS", capacity: 5, operator_id: id.delta });
    // Zeta was merged into Delta: the chain of merges ends at Alpha.
    id.zeta = await insertOperator(t.db, { name: "Zeta Older Name", kind: "company", state: "KS", merged_into_id: id.delta });

    // Epsilon: nothing at all.
    id.epsilon = await insertOperator(t.db, { name: "Epsilon Church Care", kind: "church", state: "KS" });
  });
  afterAll(() => t.close());

  it("serves the spec's record with computed counts, the latest return and its contractors", async () => {
    const res = await t.get("/api/v1/operators").expect(200);
    expect(res.body.pagination).toEqual({ total: 4, limit: 50, offset: 0, has_more: false });
    expect(names(res.body)).toEqual(["Alpha Kids Co", "Beta Learning Trust", "Epsilon Church Care", "Gamma Tribe Early Learning"]);
    for (const record of res.body.data) expect(Object.keys(record).sort()).toEqual(sorted(OPERATOR_FIELDS));
    const alpha = res.body.data[0];
    expect(alpha).toMatchObject({
      id: id.alpha,
      slug: expect.stringMatching(/^test-operator-/),
      kind: "company",
      ein: "111111111",
      state: "NE",
      physical_city: "Omaha",
      website_url: "https://alpha.example.org",
      // three active centers of its own (the inactive one does not count) + Delta's center in KS
      center_count: 4,
      center_seats: 105,
      head_start_count: 1,
      head_start_slots: 40,
      program_states: ["IA", "KS", "NE"],
      total_revenue: 2_500_000,
      government_grants: 800_000,
      fiscal_year_end: "2022-06-30",
      latest_990_form: "990",
      latest_990_object_id: "202301234567890123",
      contractor_paid: null,
    });
    expect(alpha.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(alpha.contractor_matches).toEqual([
      {
        name: "Bright-Path Consulting, Inc.",
        amount: 250_000,
        services: "Consulting",
        line_key: "IRS990.PartVII.SectionB",
        fiscal_year_end: "2022-06-30",
      },
      {
        name: "Acme Building Maintenance",
        amount: 120_000,
        services: "Maintenance",
        line_key: "IRS990.PartVII.SectionB",
        fiscal_year_end: "2022-06-30",
      },
    ]);
    for (const match of alpha.contractor_matches) expect(Object.keys(match).sort()).toEqual(sorted(CONTRACTOR_FIELDS));
    const [, beta, epsilon, gamma] = res.body.data;
    expect(beta).toMatchObject({ center_count: 1, center_seats: 200, head_start_count: 0, head_start_slots: 0, program_states: ["IA"] });
    expect(beta).toMatchObject({ latest_990_form: "990EZ", total_revenue: 400_000, fiscal_year_end: "2022-12-31" });
    expect(beta.contractor_matches).toEqual([
      { name: "Bright Path Consulting", amount: 300_000, services: null, line_key: null, fiscal_year_end: "2022-12-31" },
    ]);
    // No return on file: the IRS master file's figures; no program of any kind: zeros and no states.
    expect(gamma).toMatchObject({ center_count: 0, center_seats: 0, head_start_count: 2, head_start_slots: 100, program_states: ["NE"] });
    expect(gamma).toMatchObject({ total_revenue: 75_000, government_grants: null, fiscal_year_end: "2024-12-31" });
    expect(gamma).toMatchObject({ latest_990_form: null, latest_990_object_id: null, contractor_matches: [] });
    expect(epsilon).toMatchObject({
      center_count: 0,
      head_start_count: 0,
      program_states: [],
      total_revenue: null,
      contractor_matches: [],
    });
  });

  it("state scopes the counts and keeps operators that run active centers or open programs there", async () => {
    const ne = await t.get("/api/v1/operators?state=NE").expect(200);
    expect(names(ne.body)).toEqual(["Alpha Kids Co", "Gamma Tribe Early Learning"]);
    expect(ne.body.data[0]).toMatchObject({ center_count: 2, center_seats: 50, head_start_count: 1, head_start_slots: 40 });
    // program_states keeps every state it runs programs in.
    expect(ne.body.data[0].program_states).toEqual(["IA", "KS", "NE"]);
    const ia = await t.get("/api/v1/operators?state=ia").expect(200);
    expect(names(ia.body)).toEqual(["Alpha Kids Co", "Beta Learning Trust"]);
    // Alpha's IA Head Start program has no open site: it neither counts nor makes Alpha run there.
    expect(ia.body.data[0]).toMatchObject({ center_count: 1, center_seats: 50, head_start_count: 0, head_start_slots: 0 });
    const several = await t.get("/api/v1/operators?state=KS,IA").expect(200);
    expect(several.body.data[0]).toMatchObject({ name: "Alpha Kids Co", center_count: 2, center_seats: 55 });
    expect((await t.get("/api/v1/operators?state=KS&min_centers=2").expect(200)).body.data).toEqual([]);
    // Epsilon is based in KS but runs nothing there.
    expect(names((await t.get("/api/v1/operators?state=KS").expect(200)).body)).toEqual(["Alpha Kids Co"]);
  });

  it("filters by kind (any case), counts, capacity, open Head Start, revenue and grants", async () => {
    const cases: [string, string[]][] = [
      ["kind=COMPANY,Tribe", ["Alpha Kids Co", "Gamma Tribe Early Learning"]],
      ["kind=church", ["Epsilon Church Care"]],
      ["min_centers=2", ["Alpha Kids Co"]],
      ["max_centers=0", ["Epsilon Church Care", "Gamma Tribe Early Learning"]],
      ["min_centers=1&max_centers=1", ["Beta Learning Trust"]],
      ["min_capacity=100", ["Alpha Kids Co", "Beta Learning Trust"]],
      ["max_capacity=150", ["Alpha Kids Co", "Epsilon Church Care", "Gamma Tribe Early Learning"]],
      ["state=NE&max_capacity=50", ["Alpha Kids Co", "Gamma Tribe Early Learning"]],
      ["has_open_head_start=true", ["Alpha Kids Co", "Gamma Tribe Early Learning"]],
      ["has_open_head_start=false", ["Beta Learning Trust", "Epsilon Church Care"]],
      ["state=IA&has_open_head_start=true", []],
      ["min_total_revenue=1000000", ["Alpha Kids Co"]],
      ["max_total_revenue=100000", ["Gamma Tribe Early Learning"]],
      ["min_total_revenue=50000&max_total_revenue=500000", ["Beta Learning Trust", "Gamma Tribe Early Learning"]],
      ["min_government_grants=500000", ["Alpha Kids Co"]],
      ["max_government_grants=0", ["Beta Learning Trust"]],
      ["min_total_revenue=-5", ["Alpha Kids Co", "Beta Learning Trust", "Gamma Tribe Early Learning"]],
    ];
    for (const [query, expected] of cases) {
      const res = await t.get(`/api/v1/operators?${query}`);
      expect([query, res.status, names(res.body)]).toEqual([query, 200, expected]);
      expect(res.body.pagination.total).toBe(expected.length);
    }
  });

  it("contractor: over $100,000, ignoring case, spaces and punctuation; any or latest return; never a 990-EZ", async () => {
    const cases: [string, string[]][] = [
      ["contractor=brightpath", ["Alpha Kids Co"]],
      ["contractor=BRIGHT%20PATH%20consulting", ["Alpha Kids Co"]],
      ["contractor=bright-path&contractor_mode=latest", ["Alpha Kids Co"]],
      ["contractor=sunrise%20food", ["Alpha Kids Co"]],
      ["contractor=sunrise%20food&contractor_mode=any", ["Alpha Kids Co"]],
      ["contractor=sunrise%20food&contractor_mode=latest", []],
      ["contractor=small%20vendor", []], // paid under the threshold
      ["contractor=ghost", []], // only on a superseded return
      ["contractor=nobody|acme%20building", ["Alpha Kids Co"]],
      ["contractor=acme|brightpath&state=IA", ["Alpha Kids Co"]],
      ["contractor=acme&kind=nonprofit", []],
    ];
    for (const [query, expected] of cases) {
      const res = await t.get(`/api/v1/operators?${query}`);
      expect([query, res.status, names(res.body)]).toEqual([query, 200, expected]);
    }
    const paid = await t.get("/api/v1/operators?contractor=acme|bright%20path").expect(200);
    expect(paid.body.data[0].contractor_paid).toBe("Acme Building Maintenance; Bright-Path Consulting, Inc.");
    const older = await t.get("/api/v1/operators?contractor=sunrise").expect(200);
    // contractor_paid names what matched (an older return here); contractor_matches stays the latest return's.
    expect(older.body.data[0].contractor_paid).toBe("Sunrise Food Services LLC");
    expect(older.body.data[0].contractor_matches.map((m: Record_) => m.name)).toEqual([
      "Bright-Path Consulting, Inc.",
      "Acme Building Maintenance",
    ]);
  });

  it("search: name contains, or the EIN equals", async () => {
    const cases: [string, string[]][] = [
      ["search=beta", ["Beta Learning Trust"]],
      ["search=KIDS%20co", ["Alpha Kids Co"]],
      ["search=222222222", ["Beta Learning Trust"]],
      ["search=22-2222222", ["Beta Learning Trust"]],
      ["search=22222222", []], // part of an EIN is not a match
      ["search=old%20name", []], // merged operators are never listed
      ["search=100%25", []], // % is taken literally
    ];
    for (const [query, expected] of cases) {
      const res = await t.get(`/api/v1/operators?${query}`);
      expect([query, res.status, names(res.body)]).toEqual([query, 200, expected]);
    }
  });

  it("ids and GET /operators/{id}: a merged id reads as the operator it became", async () => {
    const merged = await t.get(`/api/v1/operators?ids=${id.delta}`).expect(200);
    expect(names(merged.body)).toEqual(["Alpha Kids Co"]);
    const both = await t.get(`/api/v1/operators?ids=${id.zeta},${id.alpha},${id.beta}`).expect(200);
    expect(names(both.body)).toEqual(["Alpha Kids Co", "Beta Learning Trust"]);
    const one = await t.get(`/api/v1/operators/${id.gamma}`).expect(200);
    expect(Object.keys(one.body)).toEqual(["data"]);
    expect(Object.keys(one.body.data).sort()).toEqual(sorted(OPERATOR_FIELDS));
    expect(one.body.data).toMatchObject({ id: id.gamma, head_start_count: 2 });
    for (const mergedId of [id.delta, id.zeta]) {
      const res = await t.get(`/api/v1/operators/${mergedId}`).expect(200);
      expect(res.body.data).toMatchObject({ id: id.alpha, name: "Alpha Kids Co", center_count: 4 });
    }
    const alpha = await t.get(`/api/v1/operators/${id.alpha}`).expect(200);
    const listed = (await t.get(`/api/v1/operators?ids=${id.alpha}`).expect(200)).body.data[0];
    expect(alpha.body.data).toEqual(listed);
    const missing = await t.get("/api/v1/operators/00000000-0000-4000-8000-000000000000").expect(404);
    expect(missing.body).toMatchObject({ error: "not_found", statusCode: 404 });
    expect((await t.get("/api/v1/operators/not-a-uuid").expect(400)).body.message).toContain("id");
  });

  it("orders by every sort field (nulls last, ties by id) and pages", async () => {
    const byRevenue = await t.get("/api/v1/operators?order_by=total_revenue").expect(200);
    expect(names(byRevenue.body)).toEqual(["Gamma Tribe Early Learning", "Beta Learning Trust", "Alpha Kids Co", "Epsilon Church Care"]);
    const byRevenueDesc = await t.get("/api/v1/operators?order_by=total_revenue&order_ascending=false").expect(200);
    expect(names(byRevenueDesc.body)).toEqual([
      "Alpha Kids Co",
      "Beta Learning Trust",
      "Gamma Tribe Early Learning",
      "Epsilon Church Care",
    ]);
    const byCenters = await t.get("/api/v1/operators?order_by=center_count&order_ascending=false").expect(200);
    expect(byCenters.body.data.map((o: Record_) => o.center_count)).toEqual([4, 1, 0, 0]);
    const tied = byCenters.body.data.slice(2).map((o: Record_) => o.id);
    expect(tied).toEqual([...tied].sort());
    const byKind = await t.get("/api/v1/operators?order_by=kind").expect(200);
    expect(byKind.body.data.map((o: Record_) => o.kind)).toEqual(["church", "company", "nonprofit", "tribe"]);
    const bySlots = await t.get("/api/v1/operators?order_by=head_start_slots&order_ascending=false").expect(200);
    expect(bySlots.body.data.map((o: Record_) => o.head_start_slots)).toEqual([100, 40, 0, 0]);
    const page = await t.get("/api/v1/operators?limit=2&offset=1").expect(200);
    expect(names(page.body)).toEqual(["Beta Learning Trust", "Epsilon Church Care"]);
    expect(page.body.pagination).toEqual({ total: 4, limit: 2, offset: 1, has_more: true });
    const last = await t.get("/api/v1/operators?limit=2&offset=2").expect(200);
    expect(last.body.pagination).toEqual({ total: 4, limit: 2, offset: 2, has_more: false });
    const beyond = await t.get("/api/v1/operators?limit=2&offset=40&state=NE").expect(200);
    expect(beyond.body).toEqual({ data: [], pagination: { total: 2, limit: 2, offset: 40, has_more: false } });
    const none = await t.get("/api/v1/operators?search=nothing-like-this").expect(200);
    expect(none.body).toEqual({ data: [], pagination: { total: 0, limit: 50, offset: 0, has_more: false } });
    expect((await t.get("/api/v1/operators?limit=10000").expect(200)).body.pagination.limit).toBe(10000);
  });

  it("rejects invalid parameters with 400s naming them", async () => {
    const cases: [string, string][] = [
      ["kind=school", "kind"],
      ["kind=,", "kind"],
      ["state=Nebraska", "state"],
      ["state=NE,Iowa", "state"],
      ["min_centers=-1", "min_centers"],
      ["min_centers=abc", "min_centers"],
      ["max_centers=1.5", "max_centers"],
      ["min_centers=5&max_centers=1", "min_centers"],
      ["min_capacity=2147483648", "min_capacity"],
      ["max_capacity=-3", "max_capacity"],
      ["has_open_head_start=yes", "has_open_head_start"],
      ["min_total_revenue=abc", "min_total_revenue"],
      ["min_total_revenue=10&max_total_revenue=5", "min_total_revenue"],
      ["max_government_grants=lots", "max_government_grants"],
      ["min_government_grants=9&max_government_grants=1", "min_government_grants"],
      [`contractor=${Array.from({ length: 21 }, (_, i) => `name${i}`).join("|")}`, "contractor"],
      [`contractor=${"a".repeat(201)}`, "contractor"],
      ["contractor=%7C%20%7C", "contractor"],
      ["contractor=---", "contractor"],
      ["contractor_mode=first", "contractor_mode"],
      [`search=${"a".repeat(201)}`, "search"],
      ["search=%20", "search"],
      ["ids=abc", "ids"],
      ["ids=,", "ids"],
      ["order_by=colour", "order_by"],
      ["order_ascending=no", "order_ascending"],
      ["limit=0", "limit"],
      ["limit=10001", "limit"],
      ["offset=-1", "offset"],
      ["centers=3", "centers"],
      ["state=NE&state=IA", "state"],
    ];
    for (const [query, name] of cases) {
      const res = await t.get(`/api/v1/operators?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
      expect([query, res.body.message]).toEqual([query, expect.stringContaining(name)]);
    }
  });

  it("the POST twin takes the same parameters as strings", async () => {
    const get = await t.get("/api/v1/operators?state=NE&kind=company,tribe&limit=1&order_by=name").expect(200);
    const post = await t.post("/api/v1/operators", { state: "NE", kind: "company,tribe", limit: "1", order_by: "name" }).expect(200);
    expect(post.body).toEqual(get.body);
    const contractor = await t.post("/api/v1/operators", { contractor: "bright path|acme", contractor_mode: "latest" }).expect(200);
    expect(names(contractor.body)).toEqual(["Alpha Kids Co"]);
    const bad = await t.post("/api/v1/operators", { min_centers: 2 }).expect(400);
    expect(bad.body.message).toContain("min_centers");
    expect((await t.post("/api/v1/operators", { kinds: "tribe" }).expect(400)).body.message).toContain("kinds");
  });

  it("runs the same number of SQL statements for limit 1 and limit 200", async () => {
    const count = async (query: string) => {
      await t.get(`/api/v1/operators?${query}`).expect(200); // warm-up outside the measurement
      return countStatements(t.db, () => t.get(`/api/v1/operators?${query}`).expect(200));
    };
    for (const filters of ["", "&state=NE,IA&contractor=acme|sunrise&min_total_revenue=1"]) {
      const one = await count(`limit=1${filters}`);
      const many = await count(`limit=200${filters}`);
      expect([filters, one]).toEqual([filters, many]);
      // the API key, then the one list statement (counts, returns, contractors, page and total)
      expect(many).toBe(2);
    }
    const detail = await count("ids=" + id.alpha);
    expect(detail).toBe(2);
  });

  it("serves the same data through POST /graphql", async () => {
    const gql = await t.graphql(
      `query($state: [String!]) { operators(filter: { state: $state, contractor: "acme" }, orderBy: center_count, orderAscending: false) {
          data { id name centerCount centerSeats headStartCount programStates latest990Form latest990ObjectId contractorPaid
                 contractorMatches { name amount lineKey fiscalYearEnd } }
          pagination { total hasMore } } }`,
      { state: ["NE"] },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.operators.pagination).toEqual({ total: 1, hasMore: false });
    expect(gql.data.operators.data[0]).toMatchObject({
      id: id.alpha,
      centerCount: 2,
      centerSeats: 50,
      headStartCount: 1,
      programStates: ["IA", "KS", "NE"],
      latest990Form: "990",
      latest990ObjectId: "202301234567890123",
      contractorPaid: "Acme Building Maintenance",
    });
    expect(gql.data.operators.data[0].contractorMatches[0]).toEqual({
      name: "Bright-Path Consulting, Inc.",
      amount: 250000,
      lineKey: "IRS990.PartVII.SectionB",
      fiscalYearEnd: "2022-06-30",
    });
    const one = await t.graphql(`query($id: UUID!) { operator(id: $id) { id name } }`, { id: id.zeta });
    expect(one.data.operator).toEqual({ id: id.alpha, name: "Alpha Kids Co" });
    const bad = await t.graphql(`{ operators(filter: { kind: ["school"] }) { data { id } } }`);
    expect(bad.errors?.[0].message).toContain("kind");
  });
});
