/**
 * Issue 13: GraphQL relations across the catalogue, each batched per page (one statement per relation
 * per request, whatever the page size), bounded by a `limit` counted in the cost analysis.
 */
import { getOperationAST, parse } from "graphql";
import { operationCost } from "../../src/graphql/limits";
import { getSchema } from "../../src/graphql/schema";
import { createTestApp, type TestApp } from "../support/app";
import { insertEvent } from "../support/block-factories";
import { insertCenter, insertHeadStart, insertOperator } from "../support/early-childhood-factories";
import { insert, insertDistrict } from "../support/factories";
import { insertSchool, insertUnlock } from "../support/school-factories";
import { measureStatements } from "../support/statements";

/** Runs the query once to warm caches (API key, compiled document), then counts the statements of a second run. */
async function statementsOf(t: TestApp, query: string): Promise<{ statements: number; result: { data?: any; errors?: any[] } }> {
  await t.graphql(query);
  const measured = await measureStatements(t.db, () => t.graphql(query));
  expect(measured.result.errors).toBeUndefined();
  return measured;
}

describe("GraphQL relations: early childhood (operators, Head Start, childcare) and districts", () => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    ids.d1 = await insertDistrict(t.db, { name: "Relations District 1", state: "NE" });
    ids.d2 = await insertDistrict(t.db, { name: "Relations District 2", state: "NE" });
    ids.s1 = await insertSchool(t.db, { name: "Relations School", state: "NE", district_id: ids.d1 });
    // Operator A; B was merged into A (its rows count for A); C runs nothing.
    ids.opA = await insertOperator(t.db, { name: "Alpha Early Learning", state: "NE" });
    ids.opB = await insertOperator(t.db, { name: "Beta Kids", state: "NE", merged_into_id: ids.opA });
    ids.opC = await insertOperator(t.db, { name: "Gamma Care", state: "IA" });
    ids.centerA1 = await insertCenter(t.db, { name: "A1 Center", state: "NE", operator_id: ids.opA, capacity: 40 });
    ids.centerA2 = await insertCenter(t.db, { name: "A2 Center", state: "NE", operator_id: ids.opA, license_status: "inactive" });
    ids.centerB1 = await insertCenter(t.db, { name: "B1 Center", state: "IA", operator_id: ids.opB, capacity: 10 });
    ids.centerX = await insertCenter(t.db, { name: "X Independent", state: "NE" });
    ids.grant = await insertHeadStart(t.db, { name: "Alpha Head Start", state: "NE", operator_id: ids.opA, funded_slots: 100 });
    ids.delegate1 = await insertHeadStart(t.db, {
      name: "Alpha Delegate One",
      state: "NE",
      parent_program_id: ids.grant,
      delegate_number: "001",
    });
    ids.delegate2 = await insertHeadStart(t.db, {
      name: "Alpha Delegate Two",
      state: "NE",
      parent_program_id: ids.grant,
      delegate_number: "002",
      status: "no_open_site",
    });
    ids.betaGrant = await insertHeadStart(t.db, { name: "Beta Head Start", state: "IA", operator_id: ids.opB });
    ids.districtRun = await insertHeadStart(t.db, { name: "District One Head Start", state: "NE", district_id: ids.d1 });
    ids.ev2 = await insertEvent(t.db, "district", ids.d1, "2026-03-01", { title: "March board" });
    ids.ev1 = await insertEvent(t.db, "district", ids.d1, "2026-01-15", { title: "January board" });
  });
  afterAll(() => t.close());

  it("Operator.childcareCenters and Operator.headStartPrograms: the operator's rows and its merged operators', list filters apply", async () => {
    const res = await t.graphql(`{ operators(orderBy: name) { data { id name centerCount headStartCount
        childcareCenters { data { id name operator { id } } pagination { total limit offset hasMore } }
        all: childcareCenters(filter: { status: all }, orderBy: capacity, orderAscending: false, limit: 2) { data { name } pagination { total hasMore } }
        headStartPrograms { data { id name } pagination { total } } } } }`);
    expect(res.errors).toBeUndefined();
    const byName = Object.fromEntries(res.data.operators.data.map((o: any) => [o.name, o]));
    expect(Object.keys(byName).sort()).toEqual(["Alpha Early Learning", "Gamma Care"]); // Beta was merged
    const alpha = byName["Alpha Early Learning"];
    expect(alpha.childcareCenters).toEqual({
      data: [
        { id: ids.centerA1, name: "A1 Center", operator: { id: ids.opA } },
        { id: ids.centerB1, name: "B1 Center", operator: { id: ids.opA } }, // a merged operator's id reads as A
      ],
      pagination: { total: 2, limit: 50, offset: 0, hasMore: false },
    });
    expect(alpha.childcareCenters.pagination.total).toBe(alpha.centerCount);
    expect(alpha.all).toEqual({ data: [{ name: "A1 Center" }, { name: "B1 Center" }], pagination: { total: 3, hasMore: true } });
    expect(alpha.headStartPrograms).toEqual({
      data: [
        { id: ids.grant, name: "Alpha Head Start" },
        { id: ids.betaGrant, name: "Beta Head Start" },
      ],
      pagination: { total: 2 },
    });
    expect(alpha.headStartPrograms.pagination.total).toBe(alpha.headStartCount);
    const gamma = byName["Gamma Care"];
    expect(gamma.childcareCenters).toEqual({ data: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false } });
    expect(gamma.headStartPrograms).toEqual({ data: [], pagination: { total: 0 } });
  });

  it("ChildcareCenter.operator: the operator running it, null for an independent center", async () => {
    const res = await t.graphql(`{ childcareCenters(filter: { status: all }) { data { name operator { name } } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.childcareCenters.data).toEqual([
      { name: "A1 Center", operator: { name: "Alpha Early Learning" } },
      { name: "A2 Center", operator: { name: "Alpha Early Learning" } },
      { name: "B1 Center", operator: { name: "Alpha Early Learning" } },
      { name: "X Independent", operator: null },
    ]);
  });

  it("HeadStartProgram.delegates, parentProgram and district", async () => {
    const res = await t.graphql(
      `query($grant: UUID!, $run: UUID!) {
        grant: headStartProgram(id: $grant) { name parentProgram { id } district { id }
          delegates { data { name delegateNumber parentProgram { id name } } pagination { total } }
          allDelegates: delegates(filter: { status: all }, orderBy: name, orderAscending: false) { data { name status } } }
        run: headStartProgram(id: $run) { name district { id name } delegates { data { id } pagination { total } } } }`,
      { grant: ids.grant, run: ids.districtRun },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.grant).toEqual({
      name: "Alpha Head Start",
      parentProgram: null,
      district: null,
      delegates: {
        data: [{ name: "Alpha Delegate One", delegateNumber: "001", parentProgram: { id: ids.grant, name: "Alpha Head Start" } }],
        pagination: { total: 1 },
      },
      allDelegates: {
        data: [
          { name: "Alpha Delegate Two", status: "no_open_site" },
          { name: "Alpha Delegate One", status: "active" },
        ],
      },
    });
    expect(res.data.run).toEqual({
      name: "District One Head Start",
      district: { id: ids.d1, name: "Relations District 1" },
      delegates: { data: [], pagination: { total: 0 } },
    });
  });

  it("District.headStartPrograms, District.events, District.schools and School.district", async () => {
    const res = await t.graphql(`{ districts(filter: { search: "Relations" }) { data { name
        headStartPrograms { data { id name district { id } } pagination { total } }
        events { title eventDate }
        schools { data { name district { name } } } } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.districts.data).toEqual([
      {
        name: "Relations District 1",
        headStartPrograms: {
          data: [{ id: ids.districtRun, name: "District One Head Start", district: { id: ids.d1 } }],
          pagination: { total: 1 },
        },
        events: [
          { title: "January board", eventDate: "2026-01-15" },
          { title: "March board", eventDate: "2026-03-01" },
        ],
        schools: { data: [{ name: "Relations School", district: { name: "Relations District 1" } }] },
      },
      {
        name: "Relations District 2",
        headStartPrograms: { data: [], pagination: { total: 0 } },
        events: [],
        schools: { data: [] },
      },
    ]);
  });

  it("District.events keeps the latest `limit` events in chronological order, by list and by id, in the same statements", async () => {
    const listed = (limit: number) => `{ districts(limit: ${limit}, filter: { search: "Relations" }) { data { name
        latest: events(limit: 1) { title } all: events(limit: 200) { title } } } }`;
    const one = await statementsOf(t, listed(1));
    const many = await statementsOf(t, listed(200));
    expect(many.result.data.districts.data).toEqual([
      { name: "Relations District 1", latest: [{ title: "March board" }], all: [{ title: "January board" }, { title: "March board" }] },
      { name: "Relations District 2", latest: [], all: [] },
    ]);
    // API-key lookup, then the page with its events (the list statement reads each selected block).
    expect(one.statements).toBe(2);
    expect(many.statements).toBe(2);
    const byId = await t.graphql(`query($id: UUID!) { district(id: $id) { events(limit: 1) { title eventDate } } }`, { id: ids.d1 });
    expect(byId).toEqual({ data: { district: { events: [{ title: "March board", eventDate: "2026-03-01" }] } } });
    const bad = await t.graphql(`{ districts(limit: 1) { data { events(limit: 201) { title } } } }`);
    expect(bad.errors?.[0]).toMatchObject({ message: "limit must be an integer from 1 to 200", extensions: { code: "BAD_USER_INPUT" } });
  });

  it("District.events reads only the latest 200 of a long timeline and serves them oldest first", async () => {
    const long = await insertDistrict(t.db, { name: "Long Timeline District", state: "NE" });
    // 230 events on consecutive days: the latest 200 are days 31..230.
    await t.db.query(
      `INSERT INTO timeline_events (entity_type, entity_id, event_date, event_type, title, data_source)
       SELECT 'district', $1, DATE '2025-01-01' + n, 'news', 'day ' || n, 'test' FROM generate_series(1, 230) AS n`,
      [long],
    );
    const res = await t.graphql(
      `query($id: UUID!) { district(id: $id) { all: events(limit: 200) { title } last3: events(limit: 3) { title } } }`,
      {
        id: long,
      },
    );
    const titles = res.data.district.all.map((e: { title: string }) => e.title);
    expect(titles).toHaveLength(200);
    expect(titles.slice(0, 2)).toEqual(["day 31", "day 32"]);
    expect(titles.at(-1)).toBe("day 230");
    expect(res.data.district.last3).toEqual([{ title: "day 228" }, { title: "day 229" }, { title: "day 230" }]);
  });

  it("relation paging is checked like the lists' (400 naming limit or offset)", async () => {
    for (const field of ["childcareCenters", "headStartPrograms"]) {
      for (const args of ["limit: 0", "limit: 201", "offset: -1"]) {
        const res = await t.graphql(`{ operators(limit: 1) { data { ${field}(${args}) { data { id } } } } }`);
        expect(res.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
        expect(res.errors?.[0].message).toMatch(/^(limit|offset) must be/);
      }
    }
    const res = await t.graphql(`{ districts(limit: 1) { data { headStartPrograms(limit: 500) { data { id } } } } }`);
    expect(res.errors?.[0].message).toBe("limit must be an integer from 1 to 200");
  });

  it("operators with their centers, programs, delegates and districts: the same statements for limit 1 and 200", async () => {
    const query = (limit: number) => `{ operators(limit: ${limit}) { data { id
        childcareCenters(filter: { status: all }, limit: 10) { data { id operator { id } } }
        headStartPrograms(limit: 10) { data { id district { id } parentProgram { id } delegates(limit: 5) { data { id parentProgram { id } } } } } } } }`;
    const one = await statementsOf(t, query(1));
    const many = await statementsOf(t, query(200));
    expect(many.result.data.operators.data).toHaveLength(2);
    expect(one.result.data.operators.data).toHaveLength(1);
    // API-key lookup, the operators page, the centers of all operators, B1's operator by id (merged B: the list
    // primed A only), the programs of all operators, the delegates of all programs (their parentProgram: primed).
    expect(one.statements).toBe(many.statements);
    expect(many.statements).toBe(6);
  });

  it("relation limits multiply through the cost: a 200 x 200 x 200 nesting is refused before any statement", async () => {
    const schema = getSchema();
    const cost = (query: string) => {
      const document = parse(query);
      return operationCost(schema, document, getOperationAST(document)!);
    };
    const twoLevels = `{ operators(limit: 200) { data { childcareCenters(limit: 200) { data { id } } } } }`;
    expect(cost(twoLevels)).toBe(1 + 200 * (1 + (1 + 200 * 1))); // 40,401: allowed
    const threeLevels = `{ operators(limit: 200) { data { childcareCenters(limit: 200) { data { operator {
        childcareCenters(limit: 200) { data { id } } } } } } } }`;
    expect(cost(threeLevels)).toBe(1 + 200 * (1 + (1 + 200 * (1 + (1 + (1 + 200 * 1)))))); // 8,120,401
    // A relation's default limit (50) counts when none is given.
    expect(cost(`{ districts(limit: 200) { data { headStartPrograms { data { id } } } } }`)).toBe(1 + 200 * (1 + (1 + 50 * 1)));
    // District.events counts its limit (default 50) like the relations.
    expect(cost(`{ districts(limit: 200) { data { events { title } } } }`)).toBe(1 + 200 * (1 + 50));
    expect(cost(`{ districts(limit: 200) { data { events(limit: 200) { title } } } }`)).toBe(1 + 200 * (1 + 200));
    const ok = await t.graphql(twoLevels);
    expect(ok.errors).toBeUndefined();
    const { statements, result } = await measureStatements(t.db, () => t.graphql(threeLevels));
    expect(result.errors).toEqual([{ message: "query cost 8120401 exceeds the limit of 250000", extensions: { code: "BAD_USER_INPUT" } }]);
    expect(statements).toBe(1); // the API-key lookup only
    const nested = await t.graphql(`{ districts(limit: 200) { data { headStartPrograms(limit: 200) { data {
        delegates(limit: 200) { data { id } } } } } } }`);
    expect(nested.errors?.[0].message).toMatch(/^query cost \d+ exceeds the limit of 250000$/);
  });
});

describe("GraphQL relations: Association.sections and Association.people, bounded by limit", () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const association = (name: string, values: Record<string, unknown> = {}) =>
    insert(t.db, "associations", {
      slug: name.toLowerCase().replace(/\W+/g, "-"),
      name,
      kind: "other",
      state: "NE",
      data_source: "test",
      ...values,
    });
  const person = (associationId: string, name: string, redacted = false) =>
    insert(t.db, "association_people", { association_id: associationId, name, redacted, data_source: "test" });

  beforeAll(async () => {
    t = await createTestApp();
    ids.parent = await association("Relations Parent Association");
    for (const n of [3, 1, 2]) ids[`section${n}`] = await association(`Relations Section ${n}`, { parent_association_id: ids.parent });
    await person(ids.parent, "Zed Board");
    await person(ids.parent, "Ann Chair");
    await person(ids.parent, "Source Name Kept Private", true);
    await person(ids.section1, "Sam Section");
  });
  afterAll(() => t.close());

  it("each association's sections and people, at most `limit` each, in their order; redacted names stay redacted", async () => {
    const res = await t.graphql(`{ associations(filter: { search: "Relations" }) { data { name
        sections { name parent { name } } firstSection: sections(limit: 1) { name }
        people { name redacted } twoPeople: people(limit: 2) { name } } } }`);
    expect(res.errors).toBeUndefined();
    const byName = Object.fromEntries(res.data.associations.data.map((a: any) => [a.name, a]));
    expect(byName["Relations Parent Association"]).toEqual({
      name: "Relations Parent Association",
      sections: [1, 2, 3].map((n) => ({ name: `Relations Section ${n}`, parent: { name: "Relations Parent Association" } })),
      firstSection: [{ name: "Relations Section 1" }],
      people: [
        { name: "Ann Chair", redacted: false },
        { name: "Zed Board", redacted: false },
        { name: "[redacted]", redacted: true },
      ],
      twoPeople: [{ name: "Ann Chair" }, { name: "Zed Board" }],
    });
    expect(byName["Relations Section 1"]).toMatchObject({ sections: [], people: [{ name: "Sam Section", redacted: false }] });
    expect(byName["Relations Section 2"]).toMatchObject({ sections: [], people: [], twoPeople: [] });
  });

  it("the same statements for a page of 1 and of 200 associations with sections and people", async () => {
    const query = (limit: number) => `{ associations(limit: ${limit}) { data { id
        sections(limit: 5) { id people(limit: 5) { name } } people(limit: 10) { name } } } }`;
    const one = await statementsOf(t, query(1));
    const many = await statementsOf(t, query(200));
    expect(many.result.data.associations.data).toHaveLength(4);
    // API-key lookup, the page, the page's sections, the sections' people, the page's people.
    expect(one.statements).toBe(5);
    expect(many.statements).toBe(5);
  });

  it("limit is checked (1 to 200) and counted by the cost analysis", async () => {
    for (const args of ["limit: 0", "limit: 201"]) {
      const res = await t.graphql(`{ associations(limit: 1) { data { people(${args}) { name } } } }`);
      expect(res.errors?.[0]).toMatchObject({ message: "limit must be an integer from 1 to 200", extensions: { code: "BAD_USER_INPUT" } });
    }
    const schema = getSchema();
    const cost = (query: string) => {
      const document = parse(query);
      return operationCost(schema, document, getOperationAST(document)!);
    };
    // A nested list with a limit counts `limit` items (without one, its default: 50).
    expect(cost(`{ associations(limit: 200) { data { people(limit: 200) { name } } } }`)).toBe(1 + 200 * (1 + 200));
    expect(cost(`{ associations(limit: 200) { data { people { name } } } }`)).toBe(1 + 200 * (1 + 50));
    const deep = `{ associations(limit: 200) { data { sections(limit: 200) { sections(limit: 200) { id } } } } }`;
    expect(cost(deep)).toBe(1 + 200 * (1 + 200 * (1 + 200)));
    const refused = await t.graphql(deep);
    expect(refused.errors?.[0]).toMatchObject({
      message: "query cost 8040201 exceeds the limit of 250000",
      extensions: { code: "BAD_USER_INPUT" },
    });
  });
});

describe("GraphQL relations: District.contacts, School.contacts, Contact.district / Contact.school", () => {
  let t: TestApp;
  const districts: string[] = [];
  const schools: string[] = [];
  const districtContacts: string[] = [];
  const schoolContacts: string[] = [];
  let pendingDistrict = "";
  const contact = (values: Record<string, unknown>) =>
    insert(t.db, "contacts", { state: "NE", data_source: "test", enrichment_status: "completed", ...values });

  beforeAll(async () => {
    t = await createTestApp();
    // 200 extracted districts (their contacts are listed), each with one extracted school; a district-level
    // contact and a school-level one each.
    for (let i = 0; i < 200; i += 1) {
      const n = String(i).padStart(3, "0");
      const district = await insertDistrict(t.db, { name: `Contact District ${n}`, state: "NE", status: "completed" });
      const school = await insertSchool(t.db, { name: `Contact School ${n}`, state: "NE", district_id: district, status: "completed" });
      districts.push(district);
      schools.push(school);
      districtContacts.push(
        await contact({
          name: `Dana Superintendent ${n}`,
          title: "Superintendent",
          district_id: district,
          is_district_contact: true,
          email: `dana${n}@district.example.org`,
          phone: "(402)555-0100",
          linkedin_url: "https://linkedin.example/dana",
          profile_summary: "Leads the district",
          key_facts: { tenure_years: 4 },
        }),
      );
      schoolContacts.push(
        await contact({
          name: `Pat Principal ${n}`,
          title: "Principal",
          district_id: district,
          school_id: school,
          email: `pat${n}@school.example.org`,
        }),
      );
    }
    // A district not yet extracted: its contact is not listed, so no relation shows it.
    pendingDistrict = await insertDistrict(t.db, { name: "Contact District pending", state: "NE", status: "pending" });
    await contact({ name: "Hidden Person", district_id: pendingDistrict, is_district_contact: true, email: "hidden@example.org" });
    await insertUnlock(t.db, t.orgs.enterprise, "contact", districtContacts[0]);
  });
  afterAll(() => t.close());

  const detailQuery = `query($d: UUID!, $p: UUID!) {
      district(id: $d) { name
        contacts { data { id name email phone linkedinUrl profileSummary keyFacts isDistrictContact _access { isUnlocked unlockCost }
                          district { id } school { id name } }
                   pagination { total } _accessSummary { totalResults unlocked lockedProcessed unlockAllCost } }
        schools { data { name contacts { data { id name email school { id } district { id } } pagination { total } } } } }
      pending: district(id: $p) { contacts { data { id } pagination { total } } } }`;

  it("each district's contacts (district and school level), each school's, and their parents", async () => {
    const res = await t.graphql(detailQuery, { d: districts[1], p: pendingDistrict });
    expect(res.errors).toBeUndefined();
    const d = res.data.district;
    expect(d.contacts.data.map((c: any) => [c.id, c.name, c.isDistrictContact, c.district.id, c.school?.name ?? null])).toEqual([
      [districtContacts[1], "Dana Superintendent 001", true, districts[1], null],
      [schoolContacts[1], "Pat Principal 001", false, districts[1], "Contact School 001"],
    ]);
    expect(d.contacts.pagination).toEqual({ total: 2 });
    expect(d.schools.data).toEqual([
      {
        name: "Contact School 001",
        contacts: {
          data: [
            { id: schoolContacts[1], name: "Pat Principal 001", email: null, school: { id: schools[1] }, district: { id: districts[1] } },
          ],
          pagination: { total: 1 },
        },
      },
    ]);
    expect(res.data.pending).toEqual({ contacts: { data: [], pagination: { total: 0 } } });
  });

  it("gated contact fields are null unless the caller's organization unlocked the contact", async () => {
    const gated = { email: null, phone: null, linkedinUrl: null, profileSummary: null, keyFacts: null };
    const enterprise = await t.graphql(detailQuery, { d: districts[0], p: pendingDistrict }, "enterprise");
    expect(enterprise.errors).toBeUndefined();
    const [dana, pat] = enterprise.data.district.contacts.data;
    expect(dana).toMatchObject({
      email: "dana000@district.example.org",
      phone: "(402)555-0100",
      linkedinUrl: "https://linkedin.example/dana",
      profileSummary: "Leads the district",
      keyFacts: { tenure_years: 4 },
      _access: { isUnlocked: true, unlockCost: 2 },
    });
    expect(pat).toMatchObject({ ...gated, _access: { isUnlocked: false, unlockCost: 2 } });
    expect(enterprise.data.district.contacts._accessSummary).toEqual({
      totalResults: 2,
      unlocked: 1,
      lockedProcessed: 1,
      unlockAllCost: 2,
    });
    // Another organization (free plan, nothing unlocked): every gated field null, also through School.contacts.
    const free = await t.graphql(detailQuery, { d: districts[0], p: pendingDistrict }, "free");
    expect(free.errors).toBeUndefined();
    for (const c of free.data.district.contacts.data) expect(c).toMatchObject({ ...gated, _access: { isUnlocked: false } });
    expect(free.data.district.schools.data[0].contacts.data[0].email).toBeNull();
    expect(free.data.district.contacts._accessSummary).toEqual({ totalResults: 2, unlocked: 0, lockedProcessed: 2, unlockAllCost: 4 });
  });

  it("200 districts with their schools and contacts: the same statements for limit 1 and 200", async () => {
    const query = (limit: number) => `{ districts(limit: ${limit}, filter: { search: "Contact District" }) { data { id
        contacts(limit: 5) { data { id name email district { id name } } _accessSummary { totalResults } }
        schools(limit: 5) { data { id contacts(limit: 5) { data { id email school { id name } } } } } } } }`;
    const one = await statementsOf(t, query(1));
    const many = await statementsOf(t, query(200));
    expect(one.result.data.districts.data).toHaveLength(1);
    const data = many.result.data.districts.data as any[];
    expect(data).toHaveLength(200);
    expect(data.every((d) => d.contacts.data.length === 2 && d.schools.data[0].contacts.data.length === 1)).toBe(true);
    expect(data.every((d) => d.contacts.data.every((c: any) => c.district.id === d.id))).toBe(true);
    // API-key lookup, the districts page, the contacts of all districts, the schools of all districts, the
    // contacts of all schools (Contact.district / Contact.school: the records primed by the pages).
    expect(one.statements).toBe(5);
    expect(many.statements).toBe(5);
  });

  it("contacts { district school }: the parents of a page of contacts in one statement each", async () => {
    // By title: school-level principals first, so both pages have districts and schools to read.
    const query = (limit: number) =>
      `{ contacts(limit: ${limit}, orderBy: title) { data { id district { id name } school { id name } } } }`;
    const one = await statementsOf(t, query(1));
    const many = await statementsOf(t, query(200));
    expect(many.result.data.contacts.data).toHaveLength(200);
    for (const c of [...one.result.data.contacts.data, ...many.result.data.contacts.data]) {
      expect(c.district).not.toBeNull();
      expect(c.school).not.toBeNull();
    }
    // API-key lookup, the contacts page, their districts, their schools.
    expect(one.statements).toBe(4);
    expect(many.statements).toBe(4);
  });

  it("a page of 200 districts with 200 contacts each, 200 of their schools with 200 contacts each, is refused by cost", async () => {
    const res = await t.graphql(`{ districts(limit: 200) { data { contacts(limit: 200) { data { id } }
        schools(limit: 200) { data { contacts(limit: 200) { data { id } } } } } } }`);
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
    expect(res.errors?.[0].message).toMatch(/^query cost \d+ exceeds the limit of 250000$/);
  });
});
