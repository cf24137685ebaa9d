/**
 * Projects and lists of an organization, on both faces (REST rows call the GraphQL operations): every
 * endpoint, every error (bad body, unknown property, wrong entity type, another organization's project
 * or list -> 404), the 201 / 204 answers, the list_id / district_list_ids filters of districts and schools
 * with the exact records they return, and the exact statement counts of the list endpoints.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insert, insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { countStatements, measureStatements } from "../support/statements";

type Body = Record<string, any>;

const PROJECT_FIELDS = ["created_at", "icp", "id", "name"];
const LIST_FIELDS = ["created_at", "entity_ids", "entity_type", "id", "item_count", "name"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NO_SUCH = "00000000-0000-4000-8000-000000000000";

const keys = (record: Body) => Object.keys(record).sort();
const sortedIds = (...ids: string[]) => [...ids].sort();

describe("projects and lists", () => {
  let t: TestApp;
  const d: Record<string, string> = {};
  const s: Record<string, string> = {};
  let contact = "";

  const auth = (plan: "free" | "enterprise" = "enterprise") => `Bearer ${t.keys[plan]}`;
  const post = (path: string, body: unknown, plan: "free" | "enterprise" = "enterprise") =>
    t.http
      .post(path)
      .set("Authorization", auth(plan))
      .send(body as object);
  const del = (path: string, plan: "free" | "enterprise" = "enterprise") => t.http.delete(path).set("Authorization", auth(plan));
  /** The exact status and the generic body (plus `extra`), nothing else. */
  const expectError = (res: { status: number; body: Body }, status: number, message: RegExp, extra: Body = {}) => {
    const error = { 400: "bad_request", 404: "not_found" }[status as 400 | 404];
    expect([res.status, res.body]).toEqual([status, { error, message: expect.stringMatching(message), statusCode: status, ...extra }]);
  };
  const count = async (table: string) => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  const itemsOf = async (listId: string) =>
    (await t.db.query<{ entity_id: string }>(`SELECT entity_id FROM list_items WHERE list_id = $1 ORDER BY entity_id`, [listId])).map(
      (r) => r.entity_id,
    );

  beforeAll(async () => {
    t = await createTestApp();
    d.alpha = await insertDistrict(t.db, { name: "Alpha District", state: "NE" });
    d.beta = await insertDistrict(t.db, { name: "Beta District", state: "NE" });
    d.gamma = await insertDistrict(t.db, { name: "Gamma District", state: "IA" });
    s.a1 = await insertSchool(t.db, { name: "Alpha One", district_id: d.alpha });
    s.a2 = await insertSchool(t.db, { name: "Alpha Two", district_id: d.alpha });
    s.b1 = await insertSchool(t.db, { name: "Beta One", district_id: d.beta });
    s.g1 = await insertSchool(t.db, { name: "Gamma One", district_id: d.gamma, state: "IA" });
    contact = await insert(t.db, "contacts", { name: "Pat Contact", district_id: d.alpha, data_source: "demo" });
  });
  afterAll(() => t.close());

  describe("projects", () => {
    it("POST /projects answers 201 with the project; GET /projects lists the organization's own, oldest first", async () => {
      expect((await t.get("/api/v1/projects").expect(200)).body).toEqual({ data: [] });

      const first = await post("/api/v1/projects", { name: "  Plains expansion  ", icp: { states: ["NE", "IA"], min_enrollment: 500 } });
      expect(first.status).toBe(201);
      expect(first.headers["content-type"]).toMatch(/^application\/json/);
      expect(keys(first.body)).toEqual(["data"]);
      expect(keys(first.body.data)).toEqual(PROJECT_FIELDS);
      expect(first.body.data).toEqual({
        id: expect.stringMatching(UUID),
        name: "Plains expansion",
        icp: { states: ["NE", "IA"], min_enrollment: 500 },
        created_at: expect.stringMatching(TIMESTAMP),
      });
      const second = await post("/api/v1/projects", { name: "No profile" }).expect(201);
      expect(second.body.data.icp).toBeNull();
      const third = await post("/api/v1/projects", { name: "Null profile", icp: null }).expect(201);
      expect(third.body.data.icp).toBeNull();

      const listed = await t.get("/api/v1/projects").expect(200);
      expect(keys(listed.body)).toEqual(["data"]);
      expect(listed.body.data).toEqual([first.body.data, second.body.data, third.body.data]);
      // Another organization sees none of them.
      expect((await t.get("/api/v1/projects", "free").expect(200)).body).toEqual({ data: [] });
    });

    it("refuses a bad body with a 400 naming the problem, and writes nothing", async () => {
      const before = await count("projects");
      const cases: [unknown, RegExp][] = [
        [{ name: "" }, /^name must be 1 to 200 characters$/],
        [{ name: "   " }, /^name must be 1 to 200 characters$/],
        [{ name: "x".repeat(201) }, /^name must be 1 to 200 characters$/],
        [{ name: "Fine", icp: [1, 2] }, /^icp must be a JSON object or null$/],
        [{ name: "Fine", icp: "text" }, /^icp must be a JSON object or null$/],
        [{ name: "Fine", icp: 3 }, /^icp must be a JSON object or null$/],
        [{ name: "Fine", colour: "red" }, /^unknown body property colour$/],
        [{ name: 5 }, /^body property name must be a string; got 5$/],
        [{ icp: {} }, /^body property name is required$/],
        [{}, /^body property name is required$/],
        [[{ name: "x" }], /^the request body must be a JSON object$/],
      ];
      for (const [body, message] of cases) expectError(await post("/api/v1/projects", body), 400, message);
      expect(await count("projects")).toBe(before);
      // 200 characters after trimming are fine.
      const long = await post("/api/v1/projects", { name: ` ${"y".repeat(200)} ` }).expect(201);
      expect(long.body.data.name).toBe("y".repeat(200));
      expectError(await t.get("/api/v1/projects?limit=5"), 400, /limit/);
    });

    it("checks the ideal customer profile: known properties only, each value's shape, normalised as stored", async () => {
      const full = {
        states: ["ne", "IA", "NE"],
        entity_types: ["district", "school"],
        min_enrollment: 500,
        max_enrollment: 50000,
        locales: ["rural", "town"],
        signal_types: ["facility_bond", "technology_initiative"],
        vendor_categories_sold: ["lms"],
        vendor_categories_displaced: ["sis", "lms"],
        keywords: ["  one-to-one devices ", "STEM"],
      };
      const created = await post("/api/v1/projects", { name: "Profiled", icp: full }).expect(201);
      // States upper-cased, repeats dropped, keywords trimmed; stored and listed as checked.
      expect(created.body.data.icp).toEqual({ ...full, states: ["NE", "IA"], keywords: ["one-to-one devices", "STEM"] });
      const stored = await t.db.prisma.project.findUniqueOrThrow({ where: { id: created.body.data.id }, select: { icp: true } });
      expect(stored.icp).toEqual(created.body.data.icp);

      const before = await count("projects");
      const cases: [unknown, RegExp][] = [
        [{ segments: ["charter"] }, /^icp\.segments is not a profile property; known: states, entity_types, min_enrollment, /],
        [{ constructor: 1 }, /^icp\.constructor is not a profile property; known: states, /],
        [JSON.parse('{"__proto__": {"states": ["NE"]}}'), /^icp\.__proto__ is not a profile property; known: states, /],
        [{ states: "NE" }, /^icp\.states must be an array$/],
        [{ states: ["NE", "Nebraska"] }, /^icp\.states\[1\] must be a two-letter state code$/],
        [{ entity_types: ["charter"] }, /^icp\.entity_types\[0\] must be one of district, school$/],
        [{ min_enrollment: -1 }, /^icp\.min_enrollment must be a whole number of students from 0 to 10000000$/],
        [{ max_enrollment: 1.5 }, /^icp\.max_enrollment must be a whole number/],
        [{ min_enrollment: 900, max_enrollment: 100 }, /^icp\.min_enrollment must not exceed icp\.max_enrollment$/],
        [{ locales: ["urban"] }, /^icp\.locales\[0\] must be one of city, suburban, town, rural$/],
        [{ signal_types: ["noise"] }, /^icp\.signal_types\[0\] must be one of chronic_absenteeism, /],
        [{ vendor_categories_sold: ["crm"] }, /^icp\.vendor_categories_sold\[0\] must be one of sis, lms, /],
        [{ keywords: [""] }, /^icp\.keywords\[0\] must be text of 1 to 100 characters$/],
        [{ keywords: ["x".repeat(101)] }, /^icp\.keywords\[0\] must be text of 1 to 100 characters$/],
        [{ keywords: Array.from({ length: 61 }, (_, i) => `k${i}`) }, /^icp\.keywords must have at most 60 values$/],
      ];
      for (const [icp, message] of cases) expectError(await post("/api/v1/projects", { name: "Bad profile", icp }), 400, message);
      expect(await count("projects")).toBe(before);
    });

    it("serves the same through GraphQL (projects, createProject), errors coded", async () => {
      const created = await t.graphql(
        `mutation($input: CreateProjectInput!) { createProject(input: $input) { id name icp createdAt } }`,
        { input: { name: "GraphQL project", icp: { keywords: ["charter"] } } },
        "free",
      );
      expect(created.errors).toBeUndefined();
      expect(created.data.createProject).toEqual({
        id: expect.stringMatching(UUID),
        name: "GraphQL project",
        icp: { keywords: ["charter"] },
        createdAt: expect.stringMatching(TIMESTAMP),
      });
      const listed = await t.graphql(`{ projects { id name icp createdAt } }`, undefined, "free");
      expect(listed).toEqual({ data: { projects: [created.data.createProject] } });
      // The REST face shows the same project to the same organization.
      const rest = await t.get("/api/v1/projects", "free").expect(200);
      expect(rest.body.data.map((p: Body) => p.id)).toEqual([created.data.createProject.id]);

      const bad = await t.graphql(`mutation { createProject(input: { name: "ok", icp: [1] }) { id } }`, undefined, "free");
      expect(bad.errors?.[0]).toMatchObject({ message: "icp must be a JSON object or null", extensions: { code: "BAD_USER_INPUT" } });
      const badIcp = await t.graphql(
        `mutation { createProject(input: { name: "ok", icp: { segments: ["charter"] } }) { id } }`,
        undefined,
        "free",
      );
      expect(badIcp.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/^icp\.segments is not a profile property; known: states, /),
        extensions: { code: "BAD_USER_INPUT" },
      });
      const unknown = await t.graphql(`mutation { createProject(input: { name: "ok", colour: "red" }) { id } }`, undefined, "free");
      expect(unknown.errors?.[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    });

    it("PATCH /projects/{id} renames or replaces the profile; a bad body is a 400 and another organization's project a 404, untouched", async () => {
      const patch = (id: string, body: unknown, plan: "free" | "enterprise" = "enterprise") =>
        t.http
          .patch(`/api/v1/projects/${id}`)
          .set("Authorization", auth(plan))
          .send(body as object);
      const created = (await post("/api/v1/projects", { name: "Before", icp: { states: ["ne"] } }).expect(201)).body.data;
      const renamed = await patch(created.id, { name: "  After  " }).expect(200);
      expect(renamed.body.data).toEqual({ ...created, name: "After" });
      const reprofiled = await patch(created.id, { icp: { states: ["ia", "IA"], min_enrollment: 100 } }).expect(200);
      expect(reprofiled.body.data.icp).toEqual({ states: ["IA"], min_enrollment: 100 });
      const cleared = await patch(created.id, { icp: null }).expect(200);
      expect(cleared.body.data).toMatchObject({ name: "After", icp: null });

      expectError(await patch(created.id, { icp: { states: ["Nebraska"] } }), 400, /^icp\.states\[0\] must be a two-letter state code/);
      expectError(await patch(created.id, { name: "" }), 400, /^name must be 1 to 200 characters/);
      expectError(await patch(created.id, { name: null }), 400, /^name must be 1 to 200 characters/);
      expectError(await patch(created.id, { colour: "red" }), 400, /colour/);
      expectError(await patch("not-a-uuid", { name: "x" }), 400, /id/);
      expectError(await patch(NO_SUCH, { name: "x" }), 404, /project/);
      // Another organization's project: a 404, and nothing changes.
      expectError(await patch(created.id, { name: "Stolen", icp: null }, "free"), 404, /project/);
      const kept = await t.graphql(`{ projects { id name } }`);
      expect(kept.data.projects.find((p: Body) => p.id === created.id)).toEqual({ id: created.id, name: "After" });
      const gql = await t.graphql(`mutation($id: UUID!) { updateProject(id: $id, input: { name: "Via GraphQL" }) { name } }`, {
        id: created.id,
      });
      expect(gql).toEqual({ data: { updateProject: { name: "Via GraphQL" } } });
    });

    it("runs one statement per endpoint (plus the API key lookup)", async () => {
      expect(await countStatements(t.db, () => t.get("/api/v1/projects").expect(200))).toBe(2);
      expect(await countStatements(t.db, () => post("/api/v1/projects", { name: "Counted" }).expect(201))).toBe(2);
    });
  });

  describe("lists", () => {
    it("POST /lists answers 201 with the empty list; GET /lists lists the organization's own, oldest first", async () => {
      const created = await post("/api/v1/lists", { name: "  Target districts ", entity_type: "district" });
      expect(created.status).toBe(201);
      expect(keys(created.body)).toEqual(["data"]);
      expect(keys(created.body.data)).toEqual(LIST_FIELDS);
      expect(created.body.data).toEqual({
        id: expect.stringMatching(UUID),
        name: "Target districts",
        entity_type: "district",
        item_count: 0,
        entity_ids: [],
        created_at: expect.stringMatching(TIMESTAMP),
      });
      const schools = await post("/api/v1/lists", { name: "Schools", entity_type: "school" }).expect(201);
      const contacts = await post("/api/v1/lists", { name: "Contacts", entity_type: "contact" }).expect(201);
      expect([schools.body.data.entity_type, contacts.body.data.entity_type]).toEqual(["school", "contact"]);

      const listed = await t.get("/api/v1/lists").expect(200);
      expect(keys(listed.body)).toEqual(["data"]);
      expect(listed.body.data).toEqual([created.body.data, schools.body.data, contacts.body.data]);
      expect((await t.get("/api/v1/lists", "free").expect(200)).body).toEqual({ data: [] });
    });

    it("POST /lists/{id}/items adds entities of the list's type, idempotently; DELETE removes one with 204 and no body", async () => {
      const list = (await post("/api/v1/lists", { name: "Adds", entity_type: "district" }).expect(201)).body.data;
      const added = await post(`/api/v1/lists/${list.id}/items`, { entity_ids: [d.beta, d.alpha, d.beta] });
      expect(added.status).toBe(200);
      expect(keys(added.body)).toEqual(["data"]);
      expect(added.body.data).toEqual({ ...list, item_count: 2, entity_ids: sortedIds(d.alpha, d.beta) });
      // Again, with one more: the ones already there stay where they are.
      const again = await post(`/api/v1/lists/${list.id}/items`, { entity_ids: [d.alpha, d.gamma.toUpperCase()] }).expect(200);
      expect(again.body.data.item_count).toBe(3);
      expect(again.body.data.entity_ids).toEqual([...sortedIds(d.alpha, d.beta), d.gamma]);
      expect(await itemsOf(list.id)).toEqual(sortedIds(d.alpha, d.beta, d.gamma));

      const removed = await del(`/api/v1/lists/${list.id}/items/${d.beta}`);
      expect(removed.status).toBe(204);
      expect(removed.text).toBe("");
      expect(removed.headers["content-type"]).toBeUndefined();
      expect(removed.headers["content-length"]).toBeUndefined();
      expect(await itemsOf(list.id)).toEqual(sortedIds(d.alpha, d.gamma));
      // Not (any more) in the list: 404.
      expectError(
        await del(`/api/v1/lists/${list.id}/items/${d.beta}`),
        404,
        new RegExp(`^entity ${d.beta} in list ${list.id} not found$`),
      );
      expectError(await del(`/api/v1/lists/${list.id}/items/${NO_SUCH}`), 404, /not found/);

      const listed = await t.get("/api/v1/lists").expect(200);
      expect(listed.body.data.find((l: Body) => l.id === list.id)).toEqual({ ...list, item_count: 2, entity_ids: [d.alpha, d.gamma] });

      // School and contact lists take their own entities.
      const schools = (await post("/api/v1/lists", { name: "S", entity_type: "school" }).expect(201)).body.data;
      expect((await post(`/api/v1/lists/${schools.id}/items`, { entity_ids: [s.a1] }).expect(200)).body.data.entity_ids).toEqual([s.a1]);
      const contacts = (await post("/api/v1/lists", { name: "C", entity_type: "contact" }).expect(201)).body.data;
      expect((await post(`/api/v1/lists/${contacts.id}/items`, { entity_ids: [contact] }).expect(200)).body.data).toMatchObject({
        item_count: 1,
        entity_ids: [contact],
      });
    });

    it("refuses a bad body with a 400 naming the problem, and writes nothing", async () => {
      const list = (await post("/api/v1/lists", { name: "Errors", entity_type: "district" }).expect(201)).body.data;
      await post(`/api/v1/lists/${list.id}/items`, { entity_ids: [d.alpha] }).expect(200);
      const lists = await count("lists");
      const items = await count("list_items");

      const createCases: [unknown, RegExp][] = [
        [{ name: "x", entity_type: "county" }, /^body property entity_type must be one of district, school, contact; got "county"$/],
        [{ name: "x", entity_type: "District" }, /entity_type/],
        [{ name: "x" }, /^body property entity_type is required$/],
        [{ entity_type: "school" }, /^body property name is required$/],
        [{ name: "", entity_type: "school" }, /^name must be 1 to 200 characters$/],
        [{ name: "x".repeat(201), entity_type: "school" }, /^name must be 1 to 200 characters$/],
        [{ name: "x", entity_type: "school", colour: "red" }, /^unknown body property colour$/],
        [[{ name: "x", entity_type: "school" }], /^the request body must be a JSON object$/],
      ];
      for (const [body, message] of createCases) expectError(await post("/api/v1/lists", body), 400, message);

      const path = `/api/v1/lists/${list.id}/items`;
      const many = Array.from({ length: 1001 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
      const itemCases: [unknown, RegExp, Body?][] = [
        [{ entity_ids: [] }, /^entity_ids must hold at least one id$/],
        [{ entity_ids: many }, /^entity_ids may hold at most 1000 ids per call, got 1001$/],
        [{ entity_ids: ["not-a-uuid"] }, /^body property entity_ids\[0\] must be a UUID; got "not-a-uuid"$/],
        [{}, /^body property entity_ids is required$/],
        [{ entity_ids: [d.beta], note: "x" }, /^unknown body property note$/],
        // Schools are no districts; nothing is added, the valid id included.
        [
          { entity_ids: [d.beta, s.a1, NO_SUCH] },
          new RegExp(`^entity_ids: no district with id ${s.a1}, ${NO_SUCH} \\(this is a list of districts\\)$`),
          { unknown_entity_ids: [s.a1, NO_SUCH] },
        ],
      ];
      for (const [body, message, extra] of itemCases) expectError(await post(path, body), 400, message, extra);
      expectError(await del(`/api/v1/lists/${list.id}/items/not-a-uuid`), 400, /entity_id/);
      expectError(await del(`/api/v1/lists/nope/items/${d.alpha}`), 400, /\bid\b/);
      expectError(await t.get("/api/v1/lists?entity_type=school"), 400, /entity_type/);
      expect([await count("lists"), await count("list_items")]).toEqual([lists, items]);
      expect(await itemsOf(list.id)).toEqual([d.alpha]);
    });

    it("another organization's list is a 404 on every endpoint, and is left untouched", async () => {
      const theirs = (await post("/api/v1/lists", { name: "Theirs", entity_type: "district" }, "free").expect(201)).body.data;
      await post(`/api/v1/lists/${theirs.id}/items`, { entity_ids: [d.alpha] }, "free").expect(200);
      const notFound = new RegExp(`^list ${theirs.id} not found$`);
      expectError(await post(`/api/v1/lists/${theirs.id}/items`, { entity_ids: [d.beta] }), 404, notFound);
      expectError(await del(`/api/v1/lists/${theirs.id}/items/${d.alpha}`), 404, notFound);
      expectError(await post(`/api/v1/lists/${NO_SUCH}/items`, { entity_ids: [d.beta] }), 404, new RegExp(`^list ${NO_SUCH} not found$`));
      expectError(await del(`/api/v1/lists/${NO_SUCH}/items/${d.alpha}`), 404, new RegExp(`^list ${NO_SUCH} not found$`));
      expect((await t.get("/api/v1/lists").expect(200)).body.data.map((l: Body) => l.id)).not.toContain(theirs.id);
      expect(await itemsOf(theirs.id)).toEqual([d.alpha]);
      expectError(await t.get(`/api/v1/districts?list_id=${theirs.id}`), 404, new RegExp(`^list_id: list ${theirs.id} not found$`));
    });

    it("serves the same through GraphQL (lists, createList, addListItems, removeListItem), errors coded", async () => {
      const fields = "id name entityType itemCount entityIds createdAt";
      const created = await t.graphql(
        `mutation($input: CreateListInput!) { createList(input: $input) { ${fields} } }`,
        { input: { name: "GraphQL schools", entityType: "school" } },
        "free",
      );
      expect(created.errors).toBeUndefined();
      const list = created.data.createList;
      expect(list).toEqual({
        id: expect.stringMatching(UUID),
        name: "GraphQL schools",
        entityType: "school",
        itemCount: 0,
        entityIds: [],
        createdAt: expect.stringMatching(TIMESTAMP),
      });
      const added = await t.graphql(
        `mutation($id: UUID!, $ids: [UUID!]!) { addListItems(listId: $id, input: { entityIds: $ids }) { itemCount entityIds } }`,
        { id: list.id, ids: [s.b1, s.a2] },
        "free",
      );
      expect(added).toEqual({ data: { addListItems: { itemCount: 2, entityIds: sortedIds(s.a2, s.b1) } } });
      const removed = await t.graphql(
        `mutation($id: UUID!, $e: UUID!) { removeListItem(listId: $id, entityId: $e) { itemCount entityIds } }`,
        { id: list.id, e: s.a2 },
        "free",
      );
      expect(removed).toEqual({ data: { removeListItem: { itemCount: 1, entityIds: [s.b1] } } });
      const listed = await t.graphql(`{ lists { id name itemCount entityIds } }`, undefined, "free");
      expect(listed.data.lists.find((l: Body) => l.id === list.id)).toEqual({
        id: list.id,
        name: "GraphQL schools",
        itemCount: 1,
        entityIds: [s.b1],
      });
      // The REST face of the same organization shows the same list.
      const rest = await t.get("/api/v1/lists", "free").expect(200);
      expect(rest.body.data.find((l: Body) => l.id === list.id)).toMatchObject({
        entity_type: "school",
        item_count: 1,
        entity_ids: [s.b1],
      });

      // Errors: another organization's list, a wrong entity, an id not in the list.
      const other = await t.graphql(`mutation($id: UUID!) { addListItems(listId: $id, input: { entityIds: ["${s.a1}"] }) { id } }`, {
        id: list.id,
      });
      expect(other.errors?.[0]).toMatchObject({ message: `list ${list.id} not found`, extensions: { code: "NOT_FOUND" } });
      const wrong = await t.graphql(
        `mutation($id: UUID!) { addListItems(listId: $id, input: { entityIds: ["${d.alpha}"] }) { id } }`,
        { id: list.id },
        "free",
      );
      expect(wrong.errors?.[0]).toMatchObject({
        extensions: { code: "BAD_USER_INPUT", body: { unknown_entity_ids: [d.alpha] } },
      });
      const missing = await t.graphql(
        `mutation($id: UUID!) { removeListItem(listId: $id, entityId: "${s.g1}") { id } }`,
        { id: list.id },
        "free",
      );
      expect(missing.errors?.[0]).toMatchObject({
        message: `entity ${s.g1} in list ${list.id} not found`,
        extensions: { code: "NOT_FOUND" },
      });
      const badType = await t.graphql(`mutation { createList(input: { name: "x", entityType: county }) { id } }`);
      expect(badType.errors?.[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    });

    it("runs exact statement counts (each plus the API key lookup)", async () => {
      // GET /lists: the lists with their items, one statement (relationJoins).
      expect(await countStatements(t.db, () => t.get("/api/v1/lists").expect(200))).toBe(2);
      // POST /lists: the INSERT.
      const { statements: createStatements, result: created } = await measureStatements(t.db, () =>
        post("/api/v1/lists", { name: "Counted", entity_type: "district" }).expect(201),
      );
      expect(createStatements).toBe(2);
      const id = created.body.data.id;
      // POST items: the list (owner, type), the entities' existence, the INSERT, the list read back.
      expect(
        await countStatements(t.db, () => post(`/api/v1/lists/${id}/items`, { entity_ids: [d.alpha, d.beta, d.gamma] }).expect(200)),
      ).toBe(5);
      // A refused id stops before the INSERT.
      expect(await countStatements(t.db, () => post(`/api/v1/lists/${id}/items`, { entity_ids: [s.a1] }).expect(400))).toBe(3);
      // DELETE: the DELETE (owner checked in it), the list read back.
      expect(await countStatements(t.db, () => del(`/api/v1/lists/${id}/items/${d.alpha}`).expect(204))).toBe(3);
      expect(await countStatements(t.db, () => del(`/api/v1/lists/${id}/items/${d.alpha}`).expect(404))).toBe(3);
    });
  });

  describe("list filters of districts and schools", () => {
    let districtList = "";
    let otherDistrictList = "";
    let schoolList = "";
    let theirList = "";

    beforeAll(async () => {
      const make = async (entityType: string, ids: string[], plan: "free" | "enterprise" = "enterprise") => {
        const list = (await post("/api/v1/lists", { name: `${entityType} filter`, entity_type: entityType }, plan).expect(201)).body.data;
        await post(`/api/v1/lists/${list.id}/items`, { entity_ids: ids }, plan).expect(200);
        return list.id as string;
      };
      districtList = await make("district", [d.alpha, d.gamma]);
      otherDistrictList = await make("district", [d.beta]);
      schoolList = await make("school", [s.a2, s.g1]);
      theirList = await make("district", [d.alpha, d.beta, d.gamma], "free");
    });

    const ids = (body: Body) => body.data.map((r: Body) => r.id).sort();

    it("list_id (districts, schools) and district_list_ids (schools) return exactly the lists' records", async () => {
      const cases: [string, string[]][] = [
        [`/api/v1/districts?list_id=${districtList}`, [d.alpha, d.gamma]],
        [`/api/v1/districts?list_id=${otherDistrictList}`, [d.beta]],
        [`/api/v1/districts?list_id=${districtList}&state=NE`, [d.alpha]],
        [`/api/v1/schools?list_id=${schoolList}`, [s.a2, s.g1]],
        [`/api/v1/schools?district_list_ids=${districtList}`, [s.a1, s.a2, s.g1]],
        [`/api/v1/schools?district_list_ids=${otherDistrictList}`, [s.b1]],
        [`/api/v1/schools?district_list_ids=${districtList},${otherDistrictList}`, [s.a1, s.a2, s.b1, s.g1]],
        [`/api/v1/schools?district_list_ids=${districtList}&list_id=${schoolList}`, [s.a2, s.g1]],
      ];
      for (const [path, expected] of cases) {
        const res = await t.get(path);
        expect([path, res.status, ids(res.body)]).toEqual([path, 200, sortedIds(...expected)]);
        expect(res.body.pagination.total).toBe(expected.length);
      }
      // The POST twin takes the same parameters.
      const twin = await post("/api/v1/schools", { district_list_ids: `${districtList},${otherDistrictList}` }).expect(200);
      expect(ids(twin.body)).toEqual(sortedIds(s.a1, s.a2, s.b1, s.g1));
      // A removed item leaves the filter at once.
      await del(`/api/v1/lists/${districtList}/items/${d.gamma}`).expect(204);
      expect(ids((await t.get(`/api/v1/districts?list_id=${districtList}`).expect(200)).body)).toEqual([d.alpha]);
      await post(`/api/v1/lists/${districtList}/items`, { entity_ids: [d.gamma] }).expect(200);
    });

    it("the same through GraphQL", async () => {
      const res = await t.graphql(
        `query($d: UUID, $dl: [UUID!], $sl: UUID) {
           districts(filter: { listId: $d }) { data { id } pagination { total } }
           schools(filter: { districtListIds: $dl }) { data { id } }
           listed: schools(filter: { listId: $sl }) { data { id } } }`,
        { d: districtList, dl: [otherDistrictList], sl: schoolList },
      );
      expect(res.errors).toBeUndefined();
      expect(ids(res.data.districts)).toEqual(sortedIds(d.alpha, d.gamma));
      expect(ids(res.data.schools)).toEqual([s.b1]);
      expect(ids(res.data.listed)).toEqual(sortedIds(s.a2, s.g1));
      const theirs = await t.graphql(`query($d: UUID) { districts(filter: { listId: $d }) { data { id } } }`, { d: theirList });
      expect(theirs.errors?.[0]).toMatchObject({ message: `list_id: list ${theirList} not found`, extensions: { code: "NOT_FOUND" } });
    });

    it("another organization's list, or no list, is a 404 naming it; a list of the wrong entity type a 400", async () => {
      const cases: [string, number, string][] = [
        [`/api/v1/districts?list_id=${theirList}`, 404, `list_id: list ${theirList} not found`],
        [`/api/v1/districts?list_id=${NO_SUCH}`, 404, `list_id: list ${NO_SUCH} not found`],
        [`/api/v1/schools?list_id=${theirList}`, 404, `list_id: list ${theirList} not found`],
        [`/api/v1/schools?district_list_ids=${districtList},${theirList}`, 404, `district_list_ids: list ${theirList} not found`],
        [`/api/v1/districts?list_id=${schoolList}`, 400, `list_id: list ${schoolList} is a list of schools, not of districts`],
        [`/api/v1/schools?list_id=${districtList}`, 400, `list_id: list ${districtList} is a list of districts, not of schools`],
        [
          `/api/v1/schools?district_list_ids=${schoolList}`,
          400,
          `district_list_ids: list ${schoolList} is a list of schools, not of districts`,
        ],
        [`/api/v1/districts?list_id=nope`, 400, "list_id"],
        [`/api/v1/schools?district_list_ids=,`, 400, "district_list_ids"],
      ];
      for (const [path, status, message] of cases) {
        const res = await t.get(path);
        expect([path, res.status, res.body.statusCode, res.body.message]).toEqual([path, status, status, expect.stringContaining(message)]);
      }
      // The other organization's own filter works.
      const own = await t.get(`/api/v1/districts?list_id=${theirList}`, "free").expect(200);
      expect(ids(own.body)).toEqual(sortedIds(d.alpha, d.beta, d.gamma));
    });

    it("a filtered page is still one statement, the list check included", async () => {
      await t.get(`/api/v1/schools?district_list_ids=${districtList}`).expect(200);
      expect(await countStatements(t.db, () => t.get(`/api/v1/districts?list_id=${districtList}`).expect(200))).toBe(2);
      expect(
        await countStatements(t.db, () => t.get(`/api/v1/schools?district_list_ids=${districtList}&list_id=${schoolList}`).expect(200)),
      ).toBe(2);
      expect(await countStatements(t.db, () => t.get(`/api/v1/districts?list_id=${theirList}`).expect(404))).toBe(2);
    });
  });
});
