/**
 * GET/POST /childcare-centers and GET /childcare-centers/{id} (with people): the spec's record, every
 * filter valid and invalid, ordering and paging, statement counts, and the GraphQL query.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertCenter, insertOperator } from "../support/early-childhood-factories";
import { insert } from "../support/factories";
import { countStatements } from "../support/statements";

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

// The interface spec's "Childcare center record".
const CENTER_FIELDS = words(`id, slug, name, state, license_number, source, physical_address, physical_city, physical_zip,
  county, latitude, longitude, phone, email, website_url, license_type, license_type_raw, license_status,
  license_status_raw, first_licensed, license_expires, capacity, capacity_by_age, ages_served, licensee_name, chain,
  director_name, quality_rating, accepts_subsidy, district_operated, source_url, source_version`);

type Record_ = Record<string, any>;
const names = (body: { data: Record_[] }) => body.data.map((o) => o.name);
const sorted = (list: string[]) => [...list].sort();

describe("childcare centers", () => {
  let t: TestApp;
  const id: Record<string, string> = {};
  let operatorId: string;

  beforeAll(async () => {
    t = await createTestApp();
    operatorId = await insertOperator(t.db, { name: "Little Acorns LLC", kind: "company", state: "NE", chain_key: "little-acorns" });
    id.acorns = await insertCenter(t.db, {
      name: "Little Acorns Center",
      state: "NE",
      license_number: "CCC1001",
      source: "ne_dhhs_roster",
      physical_address: "1 Oak St",
      physical_city: "Omaha",
      physical_zip: "68102",
      county: "Douglas",
      latitude: 41.25,
      longitude: -95.93,
      phone: "(402) 555-0110",
      email: "hello@acorns.example.org",
      website_url: "https://acorns.example.org",
      license_type: "center",
      license_type_raw: "Child Care Center",
      license_status: "active",
      license_status_raw: "Open",
      first_licensed: "2010-01-05",
      license_expires: "2027-01-01",
      capacity: 100,
      capacity_by_age: { Infant: 10, "Three's": 20 },
      ages_served: "6 WKS To 12 YRS",
      licensee_name: "Little Acorns LLC",
      chain: "little-acorns",
      operator_id: operatorId,
      director_name: "Pat Director",
      quality_rating: "Step Up to Quality 3",
      accepts_subsidy: true,
      district_operated: false,
      source_url: "https://example.org/roster",
      source_version: "2026-02-16",
    });
    id.west = await insertCenter(t.db, {
      name: "Little Acorns West",
      state: "NE",
      physical_city: "Bellevue",
      county: "Sarpy",
      license_type: "preschool",
      capacity: 40,
      licensee_name: "Little Acorns LLC",
      chain: "little-acorns",
      operator_id: operatorId,
      accepts_subsidy: false,
      first_licensed: "2015-03-01",
    });
    id.kearney = await insertCenter(t.db, {
      name: "Kearney PS Kids Club",
      state: "NE",
      physical_city: "Kearney",
      county: "Buffalo",
      license_type: "school_age",
      capacity: 60,
      licensee_name: "Kearney Public Schools",
      district_operated: true,
      first_licensed: "2001-09-01",
    });
    id.tiny = await insertCenter(t.db, {
      name: "Tiny Steps",
      state: "IN",
      physical_city: "Indianapolis",
      county: "MARION",
      license_type: "infant_toddler",
      license_status: "inactive",
      license_status_raw: "Closed",
      capacity: 12,
    });
    id.sunny = await insertCenter(t.db, {
      name: "Sunny Days",
      state: "IN",
      physical_city: "INDIANAPOLIS",
      county: "MARION",
      license_type: "other",
      chain: "sunny-days-inc",
      license_number: "LEA-77",
    });
    await insert(t.db, "childcare_people", {
      center_id: id.acorns,
      name: "Pat Director",
      title: "Director",
      role: "director",
      data_source: "test",
    });
    await insert(t.db, "childcare_people", {
      center_id: id.acorns,
      name: "Alex Owner",
      title: "Owner",
      role: "owner",
      data_source: "test",
    });
    await insert(t.db, "childcare_people", {
      center_id: id.west,
      name: "Sam Lead",
      title: "Lead Teacher",
      role: null,
      data_source: "test",
    });
  });
  afterAll(() => t.close());

  it("serves the spec's record; lists carry no people", async () => {
    const res = await t.get("/api/v1/childcare-centers").expect(200);
    // Active centers by default (Tiny Steps is inactive).
    expect(names(res.body)).toEqual(["Kearney PS Kids Club", "Little Acorns Center", "Little Acorns West", "Sunny Days"]);
    expect(res.body.pagination).toEqual({ total: 4, limit: 50, offset: 0, has_more: false });
    for (const record of res.body.data) expect(Object.keys(record).sort()).toEqual(sorted(CENTER_FIELDS));
    expect(res.body.data[1]).toEqual({
      id: id.acorns,
      slug: expect.stringMatching(/^test-center-/),
      name: "Little Acorns Center",
      state: "NE",
      license_number: "CCC1001",
      source: "ne_dhhs_roster",
      physical_address: "1 Oak St",
      physical_city: "Omaha",
      physical_zip: "68102",
      county: "Douglas",
      latitude: 41.25,
      longitude: -95.93,
      phone: "(402) 555-0110",
      email: "hello@acorns.example.org",
      website_url: "https://acorns.example.org",
      license_type: "center",
      license_type_raw: "Child Care Center",
      license_status: "active",
      license_status_raw: "Open",
      first_licensed: "2010-01-05",
      license_expires: "2027-01-01",
      capacity: 100,
      capacity_by_age: { Infant: 10, "Three's": 20 },
      ages_served: "6 WKS To 12 YRS",
      licensee_name: "Little Acorns LLC",
      chain: "little-acorns",
      director_name: "Pat Director",
      quality_rating: "Step Up to Quality 3",
      accepts_subsidy: true,
      district_operated: false,
      source_url: "https://example.org/roster",
      source_version: "2026-02-16",
    });
  });

  it("GET /childcare-centers/{id} returns { data } with people", async () => {
    const one = await t.get(`/api/v1/childcare-centers/${id.acorns}`).expect(200);
    expect(Object.keys(one.body)).toEqual(["data"]);
    expect(Object.keys(one.body.data).sort()).toEqual(sorted([...CENTER_FIELDS, "people"]));
    expect(one.body.data.people).toEqual([
      { id: expect.any(String), name: "Alex Owner", title: "Owner", role: "owner" },
      { id: expect.any(String), name: "Pat Director", title: "Director", role: "director" },
    ]);
    const inactive = await t.get(`/api/v1/childcare-centers/${id.tiny}`).expect(200);
    expect(inactive.body.data).toMatchObject({ license_status: "inactive", people: [] });
    expect((await t.get("/api/v1/childcare-centers/00000000-0000-4000-8000-000000000000").expect(404)).body.error).toBe("not_found");
    expect((await t.get("/api/v1/childcare-centers/nope").expect(400)).body.message).toContain("id");
  });

  it("filters by every parameter", async () => {
    const cases: [string, string[]][] = [
      ["status=inactive", ["Tiny Steps"]],
      ["status=all", ["Kearney PS Kids Club", "Little Acorns Center", "Little Acorns West", "Sunny Days", "Tiny Steps"]],
      ["status=active&state=IN", ["Sunny Days"]],
      ["state=ne", ["Kearney PS Kids Club", "Little Acorns Center", "Little Acorns West"]],
      ["state=IN,NE&status=inactive", ["Tiny Steps"]],
      ["county=marion&status=all", ["Sunny Days", "Tiny Steps"]],
      ["county=Douglas%20County,buffalo", ["Kearney PS Kids Club", "Little Acorns Center"]],
      ["city=omaha,BELLEVUE", ["Little Acorns Center", "Little Acorns West"]],
      ["city=Indianapolis", ["Sunny Days"]],
      ["license_type=preschool,school_age", ["Kearney PS Kids Club", "Little Acorns West"]],
      ["license_type=infant_toddler", []],
      ["license_type=infant_toddler&status=all", ["Tiny Steps"]],
      ["min_capacity=50", ["Kearney PS Kids Club", "Little Acorns Center"]],
      ["max_capacity=40", ["Little Acorns West"]],
      ["min_capacity=40&max_capacity=60", ["Kearney PS Kids Club", "Little Acorns West"]],
      ["chain=little-acorns", ["Little Acorns Center", "Little Acorns West"]],
      ["chain=independent", ["Kearney PS Kids Club"]],
      ["chain=independent,Sunny-Days-Inc", ["Kearney PS Kids Club", "Sunny Days"]],
      ["chain=no-such-chain", []],
      ["accepts_subsidy=true", ["Little Acorns Center"]],
      ["accepts_subsidy=false", ["Little Acorns West"]],
      ["district_operated=true", ["Kearney PS Kids Club"]],
      ["district_operated=false", ["Little Acorns Center"]],
      ["search=acorns", ["Little Acorns Center", "Little Acorns West"]],
      ["search=kearney%20public", ["Kearney PS Kids Club"]],
      ["search=ccc1001", ["Little Acorns Center"]],
      ["search=lea-77", ["Sunny Days"]],
      ["search=CCC100", []],
      ["ids=$acorns,$sunny", ["Little Acorns Center", "Sunny Days"]],
      ["ids=$tiny", []],
      ["ids=$tiny&status=all", ["Tiny Steps"]],
    ];
    for (const [template, expected] of cases) {
      const query = template.replace(/\$(\w+)/g, (_m, key: string) => id[key]!);
      const res = await t.get(`/api/v1/childcare-centers?${query}`);
      expect([template, res.status, names(res.body)]).toEqual([template, 200, expected]);
      expect(res.body.pagination.total).toBe(expected.length);
    }
  });

  it("orders by every sort field (nulls last, ties by id) and pages", async () => {
    const byCapacity = await t.get("/api/v1/childcare-centers?order_by=capacity&order_ascending=false").expect(200);
    expect(byCapacity.body.data.map((c: Record_) => c.capacity)).toEqual([100, 60, 40, null]);
    const byCapacityAsc = await t.get("/api/v1/childcare-centers?order_by=capacity").expect(200);
    expect(byCapacityAsc.body.data.map((c: Record_) => c.capacity)).toEqual([40, 60, 100, null]);
    const byChain = await t.get("/api/v1/childcare-centers?order_by=chain").expect(200);
    expect(byChain.body.data.map((c: Record_) => c.chain)).toEqual(["little-acorns", "little-acorns", "sunny-days-inc", null]);
    const tied = byChain.body.data.slice(0, 2).map((c: Record_) => c.id);
    expect(tied).toEqual([...tied].sort());
    const byLicensed = await t.get("/api/v1/childcare-centers?order_by=first_licensed&order_ascending=false").expect(200);
    expect(names(byLicensed.body)).toEqual(["Little Acorns West", "Little Acorns Center", "Kearney PS Kids Club", "Sunny Days"]);
    const byType = await t.get("/api/v1/childcare-centers?order_by=license_type&status=all").expect(200);
    expect(byType.body.data.map((c: Record_) => c.license_type)).toEqual(["center", "infant_toddler", "other", "preschool", "school_age"]);
    const page = await t.get("/api/v1/childcare-centers?limit=2&offset=2&status=all").expect(200);
    expect(names(page.body)).toEqual(["Little Acorns West", "Sunny Days"]);
    expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 2, has_more: true });
    const beyond = await t.get("/api/v1/childcare-centers?limit=2&offset=8").expect(200);
    expect(beyond.body).toEqual({ data: [], pagination: { total: 4, limit: 2, offset: 8, has_more: false } });
  });

  it("rejects invalid parameters with 400s naming them", async () => {
    const cases: [string, string][] = [
      ["state=Indiana", "state"],
      ["county=,", "county"],
      ["city=%20", "city"],
      ["license_type=home", "license_type"],
      ["status=closed", "status"],
      ["min_capacity=-1", "min_capacity"],
      ["max_capacity=big", "max_capacity"],
      ["min_capacity=10&max_capacity=5", "min_capacity"],
      ["chain=,", "chain"],
      [`chain=${"c".repeat(201)}`, "chain"],
      ["accepts_subsidy=yes", "accepts_subsidy"],
      ["district_operated=1", "district_operated"],
      [`search=${"s".repeat(201)}`, "search"],
      ["ids=1,2", "ids"],
      ["order_by=name2", "order_by"],
      ["order_ascending=TRUE", "order_ascending"],
      ["limit=201", "limit"],
      ["limit=-1", "limit"],
      ["offset=x", "offset"],
      ["licence_type=center", "licence_type"],
    ];
    for (const [query, name] of cases) {
      const res = await t.get(`/api/v1/childcare-centers?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
      expect([query, res.body.message]).toEqual([query, expect.stringContaining(name)]);
    }
  });

  it("the POST twin takes the same parameters as strings", async () => {
    const get = await t.get("/api/v1/childcare-centers?state=NE&chain=independent,little-acorns&order_by=capacity&limit=2").expect(200);
    const post = await t
      .post("/api/v1/childcare-centers", { state: "NE", chain: "independent,little-acorns", order_by: "capacity", limit: "2" })
      .expect(200);
    expect(post.body).toEqual(get.body);
    expect((await t.post("/api/v1/childcare-centers", { accepts_subsidy: false }).expect(400)).body.message).toContain("accepts_subsidy");
    expect((await t.post("/api/v1/childcare-centers", ["state"]).expect(400)).body.error).toBe("bad_request");
  });

  // A list page's statements: test/lists/list-contract.test.ts.
  it("reads a center and its people in two statements (and the API key's)", async () => {
    const count = async (path: string) => {
      await t.get(path).expect(200); // warm-up outside the measurement
      return countStatements(t.db, () => t.get(path).expect(200));
    };
    expect(await count(`/api/v1/childcare-centers/${id.acorns}`)).toBe(3); // the API key, the center, its people
  });

  it("serves the same data through POST /graphql, with people and operators batched", async () => {
    const query = `query($limit: Int) { childcareCenters(filter: { status: all }, orderBy: capacity, orderAscending: false, limit: $limit) {
        data { id name capacity capacityByAge firstLicensed operatorId people { name role } operator { name centerCount centerSeats } }
        pagination { total hasMore } } }`;
    const gql = await t.graphql(query, { limit: 200 });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.childcareCenters.pagination).toEqual({ total: 5, hasMore: false });
    const [acorns] = gql.data.childcareCenters.data;
    expect(acorns).toEqual({
      id: id.acorns,
      name: "Little Acorns Center",
      capacity: 100,
      capacityByAge: { Infant: 10, "Three's": 20 },
      firstLicensed: "2010-01-05",
      operatorId,
      people: [
        { name: "Alex Owner", role: "owner" },
        { name: "Pat Director", role: "director" },
      ],
      operator: { name: "Little Acorns LLC", centerCount: 2, centerSeats: 140 },
    });
    // The API key, the list, one batch of people, one batch of operators: whatever the page size.
    const statements = (limit: number) =>
      countStatements(t.db, async () => expect((await t.graphql(query, { limit })).errors).toBeUndefined());
    const one = await statements(1);
    expect(one).toBe(await statements(200));
    expect(one).toBe(4);
    const detail = await t.graphql(`query($id: UUID!) { childcareCenter(id: $id) { name people { title } } }`, { id: id.west });
    expect(detail.data.childcareCenter).toEqual({ name: "Little Acorns West", people: [{ title: "Lead Teacher" }] });
  });
});
