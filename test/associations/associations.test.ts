/**
 * GET/POST /associations and GET /associations/{id} (people and sections): the spec's record, every
 * parameter of contract section 6 valid and invalid, ordering (nulls last both ways, ties by id) and
 * paging, redacted people, sections with their parent's name, statement counts, and the GraphQL face.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insert } from "../support/factories";
import { countStatements } from "../support/statements";

type Body = Record<string, any>;
const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

// The interface spec's "Association record".
const RECORD_FIELDS = words(`id, slug, name, short_name, kind, state, parent_association_id, parent_association_name, website_url,
  phone, physical_address, physical_city, physical_zip, member_school_count, member_count_source_url, source_url, verified_at`).sort();
const NO_SUCH = "00000000-0000-4000-8000-000000000000";

const names = (body: { data: Body[] }) => body.data.map((a) => a.name);

let slugCounter = 0;
async function insertAssociation(t: TestApp, values: Record<string, unknown>): Promise<string> {
  slugCounter += 1;
  return insert(t.db, "associations", { slug: `test-association-${slugCounter}`, kind: "other", data_source: "test", ...values });
}

describe("associations", () => {
  let t: TestApp;
  const id: Record<string, string> = {};
  const expectError = (res: { status: number; body: Body }, status: number, message: RegExp) => {
    const error = { 400: "bad_request", 404: "not_found" }[status as 400 | 404];
    expect([res.status, res.body]).toEqual([status, { error, message: expect.stringMatching(message), statusCode: status }]);
  };

  beforeAll(async () => {
    t = await createTestApp();
    id.athletic = await insertAssociation(t, {
      name: "Nebraska School Activities Association",
      short_name: "NSAA",
      kind: "state_athletic_association",
      state: "NE",
      website_url: "https://nsaa.example.org",
      phone: "(402) 555-0100",
      physical_address: "500 Charleston St",
      physical_city: "Lincoln",
      physical_zip: "68508",
      member_school_count: 300,
      member_count_source_url: "https://nsaa.example.org/members",
      source_url: "https://nsaa.example.org/about",
      verified_at: new Date("2026-03-04T05:06:07.089Z"),
      created_at: new Date("2026-01-03T00:00:00Z"),
    });
    id.sectionB = await insertAssociation(t, {
      name: "Nebraska School Activities Association, District B",
      short_name: "NSAA-B",
      state: "NE",
      parent_association_id: id.athletic,
      member_school_count: 40,
      created_at: new Date("2026-01-05T00:00:00Z"),
    });
    id.sectionA = await insertAssociation(t, {
      name: "Nebraska School Activities Association, District A",
      short_name: "NSAA-A",
      state: "NE",
      parent_association_id: id.athletic,
      member_school_count: 40,
      created_at: new Date("2026-01-04T00:00:00Z"),
    });
    id.superintendents = await insertAssociation(t, {
      name: "Iowa Superintendents Group",
      short_name: "SAI",
      kind: "superintendents_association",
      state: "IA",
      member_school_count: 120,
      created_at: new Date("2026-01-01T00:00:00Z"),
    });
    id.principals = await insertAssociation(t, {
      name: "Kansas 100%_Principals",
      short_name: "KPA",
      kind: "principals_association",
      state: "KS",
      created_at: new Date("2026-01-02T00:00:00Z"),
    });
    await insert(t.db, "association_people", {
      association_id: id.athletic,
      name: "Jay Director",
      title: "Executive Director",
      data_source: "test",
    });
    await insert(t.db, "association_people", {
      association_id: id.athletic,
      name: "Secret Person",
      title: "Board President",
      redacted: true,
      data_source: "test",
    });
    await insert(t.db, "association_people", {
      association_id: id.athletic,
      name: "Amy Assistant",
      title: "Associate Director",
      data_source: "test",
    });
    await insert(t.db, "association_people", {
      association_id: id.sectionA,
      name: "Sam Section",
      title: "Section Director",
      data_source: "test",
    });
  });
  afterAll(() => t.close());

  it("serves the spec's record, ordered by name, with pagination", async () => {
    const res = await t.get("/api/v1/associations").expect(200);
    expect(names(res.body)).toEqual([
      "Iowa Superintendents Group",
      "Kansas 100%_Principals",
      "Nebraska School Activities Association",
      "Nebraska School Activities Association, District A",
      "Nebraska School Activities Association, District B",
    ]);
    expect(res.body.pagination).toEqual({ total: 5, limit: 50, offset: 0, has_more: false });
    for (const record of res.body.data) expect(Object.keys(record).sort()).toEqual(RECORD_FIELDS);
    expect(res.body.data[2]).toEqual({
      id: id.athletic,
      slug: expect.stringMatching(/^test-association-/),
      name: "Nebraska School Activities Association",
      short_name: "NSAA",
      kind: "state_athletic_association",
      state: "NE",
      parent_association_id: null,
      parent_association_name: null,
      website_url: "https://nsaa.example.org",
      phone: "(402) 555-0100",
      physical_address: "500 Charleston St",
      physical_city: "Lincoln",
      physical_zip: "68508",
      member_school_count: 300,
      member_count_source_url: "https://nsaa.example.org/members",
      source_url: "https://nsaa.example.org/about",
      verified_at: "2026-03-04T05:06:07.089Z",
    });
    expect(res.body.data[3]).toMatchObject({
      parent_association_id: id.athletic,
      parent_association_name: "Nebraska School Activities Association",
    });
  });

  it("filters by state, kind, search, ids and parent_association_id, combined with AND", async () => {
    const cases: [string, string[]][] = [
      ["state=IA", ["Iowa Superintendents Group"]],
      ["state=ia,ks", ["Iowa Superintendents Group", "Kansas 100%_Principals"]],
      ["kind=principals_association", ["Kansas 100%_Principals"]],
      [
        "kind=state_athletic_association,superintendents_association",
        ["Iowa Superintendents Group", "Nebraska School Activities Association"],
      ],
      ["kind=other&state=NE", ["Nebraska School Activities Association, District A", "Nebraska School Activities Association, District B"]],
      ["search=district", ["Nebraska School Activities Association, District A", "Nebraska School Activities Association, District B"]],
      ["search=%20sai%20", ["Iowa Superintendents Group"]], // short name, trimmed, any case
      ["search=100%25_", ["Kansas 100%_Principals"]], // % and _ taken literally
      ["search=1000", []],
      [`ids=${id.principals},${id.sectionB}`, ["Kansas 100%_Principals", "Nebraska School Activities Association, District B"]],
      [`ids=${id.principals.toUpperCase()}`, ["Kansas 100%_Principals"]],
      [
        `parent_association_id=${id.athletic}`,
        ["Nebraska School Activities Association, District A", "Nebraska School Activities Association, District B"],
      ],
      [`parent_association_id=${id.athletic}&search=District%20B`, ["Nebraska School Activities Association, District B"]],
      [`parent_association_id=${id.principals}`, []],
      [`ids=${NO_SUCH}`, []],
    ];
    for (const [query, expected] of cases) {
      const res = await t.get(`/api/v1/associations?${query}`).expect(200);
      expect([query, names(res.body)]).toEqual([query, expected]);
      expect(res.body.pagination.total).toBe(expected.length);
    }
  });

  it("sorts by every order_by field, nulls last both ways, ties by ascending id", async () => {
    const ids = async (query: string) => (await t.get(`/api/v1/associations?${query}`).expect(200)).body.data.map((a: Body) => a.id);
    const sections = [id.sectionA, id.sectionB].sort();
    expect(await ids("order_by=created_at")).toEqual([id.superintendents, id.principals, id.athletic, id.sectionA, id.sectionB]);
    expect(await ids("order_by=created_at&order_ascending=false")).toEqual([
      id.sectionB,
      id.sectionA,
      id.athletic,
      id.principals,
      id.superintendents,
    ]);
    expect(await ids("order_by=member_school_count")).toEqual([...sections, id.superintendents, id.athletic, id.principals]);
    expect(await ids("order_by=member_school_count&order_ascending=false")).toEqual([
      id.athletic,
      id.superintendents,
      ...sections,
      id.principals,
    ]);
    const byState = await ids("order_by=state");
    expect(byState.slice(0, 2)).toEqual([id.superintendents, id.principals]);
    expect(byState.slice(2)).toEqual([id.athletic, id.sectionA, id.sectionB].sort());
    expect(await ids("order_by=name&order_ascending=false")).toEqual([
      id.sectionB,
      id.sectionA,
      id.athletic,
      id.principals,
      id.superintendents,
    ]);
  });

  it("pages with limit and offset; past the end an empty page with the total", async () => {
    const page = await t.get("/api/v1/associations?limit=2&offset=1").expect(200);
    expect(names(page.body)).toEqual(["Kansas 100%_Principals", "Nebraska School Activities Association"]);
    expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 1, has_more: true });
    const past = await t.get("/api/v1/associations?limit=200&offset=10").expect(200);
    expect(past.body).toEqual({ data: [], pagination: { total: 5, limit: 200, offset: 10, has_more: false } });
    const filteredPast = await t.get("/api/v1/associations?state=NE&offset=3").expect(200);
    expect(filteredPast.body.pagination).toEqual({ total: 3, limit: 50, offset: 3, has_more: false });
  });

  it("refuses bad parameters with a 400 naming them", async () => {
    const cases: [string, RegExp][] = [
      ["state=Nebraska", /state must be a two-letter abbreviation/],
      ["state=,", /state must be a non-empty comma-separated list/],
      ["kind=club", /kind must be one of state_athletic_association, .*other; got "club"/],
      ["search=%20%20", /search must not be empty/],
      [`search=${"x".repeat(201)}`, /search must be at most 200 characters/],
      ["ids=not-a-uuid", /ids/],
      ["parent_association_id=42", /parent_association_id/],
      ["order_by=slug", /order_by must be one of name, state, member_school_count, created_at/],
      ["order_ascending=yes", /order_ascending/],
      ["limit=0", /limit must be an integer from 1 to 200/],
      ["limit=201", /limit must be an integer from 1 to 200/],
      ["limit=ten", /limit/],
      ["offset=-1", /offset must be an integer >= 0/],
      ["colour=red", /colour/],
    ];
    for (const [query, message] of cases) expectError(await t.get(`/api/v1/associations?${query}`), 400, message);
  });

  it("POST /associations takes the same parameters as strings in a JSON body", async () => {
    const res = await t.post("/api/v1/associations", { state: "NE", kind: "other", order_ascending: "false", limit: "1" }).expect(200);
    expect(names(res.body)).toEqual(["Nebraska School Activities Association, District B"]);
    expect(res.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, has_more: true });
    const ids = await t.post("/api/v1/associations", { ids: `${id.athletic},${id.principals}` }).expect(200);
    expect(names(ids.body)).toEqual(["Kansas 100%_Principals", "Nebraska School Activities Association"]);
    expectError(await t.post("/api/v1/associations", { limit: 1 }), 400, /limit/);
    expectError(await t.post("/api/v1/associations", { colour: "red" }), 400, /colour/);
    expectError(await t.post("/api/v1/associations", { kind: "club" }), 400, /kind/);
  });

  it("GET /associations/{id}: the record with its people (redacted names stay redacted) and sections, on every plan", async () => {
    for (const plan of ["free", "enterprise"] as const) {
      const res = await t.get(`/api/v1/associations/${id.athletic}`, plan).expect(200);
      const record = res.body.data;
      expect(Object.keys(record).sort()).toEqual([...RECORD_FIELDS, "people", "sections"].sort());
      expect(record).toMatchObject({ id: id.athletic, name: "Nebraska School Activities Association", member_school_count: 300 });
      expect(record.people).toEqual([
        { id: expect.any(String), name: "Amy Assistant", title: "Associate Director", redacted: false },
        { id: expect.any(String), name: "Jay Director", title: "Executive Director", redacted: false },
        { id: expect.any(String), name: "[redacted]", title: "Board President", redacted: true },
      ]);
      expect(JSON.stringify(res.body)).not.toContain("Secret Person");
      expect(record.sections.map((s: Body) => s.name)).toEqual([
        "Nebraska School Activities Association, District A",
        "Nebraska School Activities Association, District B",
      ]);
      for (const section of record.sections) {
        expect(Object.keys(section).sort()).toEqual(RECORD_FIELDS);
        expect(section).toMatchObject({
          parent_association_id: id.athletic,
          parent_association_name: "Nebraska School Activities Association",
        });
      }
    }
    const section = (await t.get(`/api/v1/associations/${id.sectionA}`).expect(200)).body.data;
    expect(section).toMatchObject({ parent_association_name: "Nebraska School Activities Association", sections: [] });
    expect(section.people.map((p: Body) => p.name)).toEqual(["Sam Section"]);
    const bare = (await t.get(`/api/v1/associations/${id.principals}`).expect(200)).body.data;
    expect([bare.people, bare.sections]).toEqual([[], []]);
  });

  it("an unknown association is a 404, a malformed id a 400", async () => {
    expectError(await t.get(`/api/v1/associations/${NO_SUCH}`), 404, /not found/);
    expectError(await t.get(`/api/v1/associations/not-a-uuid`), 400, /\bid\b/);
    expectError(await t.get(`/api/v1/associations/${id.athletic}?limit=1`), 400, /limit/);
  });

  it("runs a constant number of statements: the list is one, the detail one per relation", async () => {
    const count = (path: string) => countStatements(t.db, () => t.get(path).expect(200));
    const one = await count("/api/v1/associations?limit=1");
    expect(one).toBe(await count("/api/v1/associations?limit=200"));
    expect(one).toBe(2); // the API key, then the page and its total in one statement
    expect(await count("/api/v1/associations?limit=200&state=NE&search=a&order_by=member_school_count")).toBe(2);
    // the API key, the association (with its parent's name), its people, its sections
    expect(await count(`/api/v1/associations/${id.athletic}`)).toBe(4);
  });

  it("serves the same data through POST /graphql, people and sections batched per page", async () => {
    const query = `query($limit: Int) { associations(orderBy: name, limit: $limit) {
        data { id name kind parentAssociationName dataSource people { name redacted } sections { name parentAssociationName } parent { name } }
        pagination { total hasMore } } }`;
    const res = await t.graphql(query, { limit: 200 });
    expect(res.errors).toBeUndefined();
    const athletic = res.data.associations.data.find((a: Body) => a.id === id.athletic);
    expect(athletic).toMatchObject({
      kind: "state_athletic_association",
      dataSource: "test",
      parent: null,
      people: [
        { name: "Amy Assistant", redacted: false },
        { name: "Jay Director", redacted: false },
        { name: "[redacted]", redacted: true },
      ],
      sections: [
        { name: "Nebraska School Activities Association, District A", parentAssociationName: "Nebraska School Activities Association" },
        { name: "Nebraska School Activities Association, District B", parentAssociationName: "Nebraska School Activities Association" },
      ],
    });
    expect(res.data.associations.data.find((a: Body) => a.id === id.sectionB).parent).toEqual({
      name: "Nebraska School Activities Association",
    });
    const statements = (limit: number) =>
      countStatements(t.db, async () => expect((await t.graphql(query, { limit })).errors).toBeUndefined());
    const one = await statements(1);
    expect(one).toBe(await statements(200));
    // the API key, the page, its people, its sections, the parents not on the page (none for limit 200; limit 1 has no parent)
    expect(one).toBe(4);
    const detail = await t.graphql(`query($id: UUID!) { association(id: $id) { name people { name } sections { name } } }`, {
      id: NO_SUCH,
    });
    expect(detail).toEqual({ data: { association: null } });
  });
});
