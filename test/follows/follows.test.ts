/**
 * POST /follows, DELETE /follows/{id} and GET /projects/{id}/follows on both faces: the spec's record,
 * 201 for a new follow and 200 for one the project already has, free-plan slots (FREE_FOLLOW_SLOTS) with
 * the FOLLOW_LIMIT body, one slot per entity however many projects follow it, unfollowing releasing the
 * slot FOLLOW_SLOT_MIN_DAYS after the follow began (test/follows/follow-slots.test.ts has the rest), paid plans unlimited, every error, tenant isolation, race safety (concurrent follows never exceed
 * the limit nor duplicate a follow), and the list's statement counts.
 */
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { follow, unfollow } from "../../src/features/account/follows/follow.service";
import { FollowEntityType } from "../../src/features/account/follows/follow.type";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { countStatements } from "../support/statements";

type Body = Record<string, any>;
const FOLLOW_FIELDS = ["created_at", "entity_id", "entity_type", "followed_at", "id", "project_id", "slot_released_at", "unfollowed_at"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NO_SUCH = "00000000-0000-4000-8000-000000000000";
const DAY_MS = 86_400_000;

describe("follows", () => {
  let t: TestApp;
  const d: string[] = [];
  let school: string;
  const project: Record<string, string> = {};

  const auth = (plan: PlanKey) => `Bearer ${t.keys[plan]}`;
  const followAs = (plan: PlanKey, body: unknown) =>
    t.http
      .post("/api/v1/follows")
      .set("Authorization", auth(plan))
      .send(body as object);
  const unfollowAs = (plan: PlanKey, id: string) => t.http.delete(`/api/v1/follows/${id}`).set("Authorization", auth(plan));
  const followsOf = (plan: PlanKey, projectId: string, query = "") => t.get(`/api/v1/projects/${projectId}/follows${query}`, plan);
  const slots = async (plan: PlanKey) => (await t.get("/api/v1/org", plan).expect(200)).body.follow_slots;
  const expectError = (res: { status: number; body: Body }, status: number, message: RegExp, extra: Body = {}) => {
    const error = { 400: "bad_request", 403: "FOLLOW_LIMIT", 404: "not_found" }[status as 400 | 403 | 404];
    expect([res.status, res.body]).toEqual([status, { error, message: expect.stringMatching(message), statusCode: status, ...extra }]);
  };
  const newProject = async (plan: PlanKey, name: string) =>
    (await t.post("/api/v1/projects", { name }, plan).expect(201)).body.data.id as string;
  /** A month passes for the organization's follows of the entity: those unfollowed have their slot released. */
  const monthLater = (organizationId: string, entityId: string) =>
    t.db.query(
      `UPDATE follows SET followed_at = followed_at - interval '31 days', unfollowed_at = unfollowed_at - interval '31 days',
              slot_released_at = slot_released_at - interval '31 days'
        WHERE organization_id = $1 AND entity_id = $2 AND unfollowed_at IS NOT NULL`,
      [organizationId, entityId],
    );
  const activeRows = async (organizationId: string) =>
    Number(
      (
        await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM follows WHERE organization_id = $1 AND unfollowed_at IS NULL`, [
          organizationId,
        ])
      )[0].n,
    );

  beforeAll(async () => {
    t = await createTestApp();
    for (let i = 0; i < 8; i += 1) d.push(await insertDistrict(t.db, { name: `Follow District ${i}` }));
    school = await insertSchool(t.db, { name: "Follow School", district_id: d[0] });
    project.free = await newProject("free", "Free one");
    project.free2 = await newProject("free", "Free two");
    project.pro = await newProject("pro", "Pro one");
    project.enterprise = await newProject("enterprise", "Enterprise one");
  });
  afterAll(() => t.close());

  describe("free plan slots", () => {
    let first: Body;

    it("follows: 201 with the spec's record; again in the same project: 200, the same follow, no second slot", async () => {
      expect(await slots("free")).toEqual({ used: 0, limit: 3 });
      const res = await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[0] }).expect(201);
      first = res.body.data;
      expect(Object.keys(res.body)).toEqual(["data"]);
      expect(Object.keys(first).sort()).toEqual(FOLLOW_FIELDS);
      expect(first).toEqual({
        id: expect.any(String),
        project_id: project.free,
        entity_type: "district",
        entity_id: d[0],
        followed_at: expect.stringMatching(TIMESTAMP),
        unfollowed_at: null,
        slot_released_at: null,
        created_at: expect.stringMatching(TIMESTAMP),
      });
      const again = await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[0].toUpperCase() }).expect(
        200,
      );
      expect(again.body).toEqual({ data: first });
      expect(await slots("free")).toEqual({ used: 1, limit: 3 });
      expect(await activeRows(t.orgs.free)).toBe(1);
    });

    it("the same entity in another project is a second follow on the same slot", async () => {
      const other = await followAs("free", { project_id: project.free2, entity_type: "district", entity_id: d[0] }).expect(201);
      expect(other.body.data).toMatchObject({ project_id: project.free2, entity_id: d[0] });
      expect(other.body.data.id).not.toBe(first.id);
      expect(await slots("free")).toEqual({ used: 1, limit: 3 });
    });

    it("a district and a school of the same id space take a slot each; beyond the limit FOLLOW_LIMIT with slots", async () => {
      await followAs("free", { project_id: project.free, entity_type: "school", entity_id: school }).expect(201);
      await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[1] }).expect(201);
      expect(await slots("free")).toEqual({ used: 3, limit: 3 });
      const refused = await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[2] });
      expectError(refused, 403, /all 3 follow slots of the free plan are in use/, { slots: { used: 3, limit: 3, tier: "free" } });
      expect(await slots("free")).toEqual({ used: 3, limit: 3 });
      // At the limit, an entity the organization already follows still takes no new slot.
      await followAs("free", { project_id: project.free2, entity_type: "district", entity_id: d[1] }).expect(201);
      await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[0] }).expect(200);
      expect(await slots("free")).toEqual({ used: 3, limit: 3 });
    });

    it("unfollowing sets unfollowed_at and slot_released_at (followed_at + 30 days); the slot is free once released and no project follows the entity", async () => {
      // d[1] is followed by both projects: unfollowing one keeps the slot taken.
      const list = (await followsOf("free", project.free2).expect(200)).body.data;
      const d1InFree2 = list.find((f: Body) => f.entity_id === d[1]);
      const res = await unfollowAs("free", d1InFree2.id).expect(200);
      expect(res.body.data).toEqual({
        ...d1InFree2,
        unfollowed_at: expect.stringMatching(TIMESTAMP),
        slot_released_at: new Date(Date.parse(d1InFree2.followed_at) + 30 * DAY_MS).toISOString(),
      });
      expect(await slots("free")).toEqual({ used: 3, limit: 3 });
      expectError(await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[2] }), 403, /slots/, {
        slots: { used: 3, limit: 3, tier: "free" },
      });

      const d1InFree = (await followsOf("free", project.free).expect(200)).body.data.find((f: Body) => f.entity_id === d[1]);
      await unfollowAs("free", d1InFree.id).expect(200);
      // No project follows d[1] any more, but its slot stays used until slot_released_at.
      expect(await slots("free")).toEqual({ used: 3, limit: 3 });
      expectError(await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[2] }), 403, /slots/, {
        slots: { used: 3, limit: 3, tier: "free" },
      });
      await monthLater(t.orgs.free, d[1]);
      expect(await slots("free")).toEqual({ used: 2, limit: 3 });
      await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[2] }).expect(201);
      expect(await slots("free")).toEqual({ used: 3, limit: 3 });
    });

    it("unfollowing twice answers the same record (the first times kept); following again is a new follow", async () => {
      const d2 = (await followsOf("free", project.free).expect(200)).body.data.find((f: Body) => f.entity_id === d[2]);
      const once = (await unfollowAs("free", d2.id).expect(200)).body.data;
      const twice = (await unfollowAs("free", d2.id).expect(200)).body.data;
      expect(twice).toEqual(once);
      const again = (await followAs("free", { project_id: project.free, entity_type: "district", entity_id: d[2] }).expect(201)).body.data;
      expect(again.id).not.toBe(d2.id);
      expect(again.unfollowed_at).toBeNull();
      const all = (await followsOf("free", project.free, "?include_unfollowed=true&entity_type=district").expect(200)).body.data;
      expect(all.filter((f: Body) => f.entity_id === d[2]).map((f: Body) => f.id)).toEqual([d2.id, again.id]);
    });

    it("FREE_FOLLOW_SLOTS sets the limit", async () => {
      const one = await createTestApp({ FREE_FOLLOW_SLOTS: "1" });
      try {
        const p = (await one.post("/api/v1/projects", { name: "p" }, "free").expect(201)).body.data.id;
        const a = await insertDistrict(one.db);
        const b = await insertDistrict(one.db);
        await one.post("/api/v1/follows", { project_id: p, entity_type: "district", entity_id: a }, "free").expect(201);
        const refused = await one.post("/api/v1/follows", { project_id: p, entity_type: "district", entity_id: b }, "free");
        expect(refused.status).toBe(403);
        expect(refused.body.slots).toEqual({ used: 1, limit: 1, tier: "free" });
        expect((await one.get("/api/v1/org", "free")).body.follow_slots).toEqual({ used: 1, limit: 1 });
      } finally {
        await one.close();
      }
    });
  });

  it("paid plans follow without a limit", async () => {
    for (const plan of ["pro", "enterprise"] as const) {
      for (const id of d.slice(0, 6)) {
        await followAs(plan, { project_id: project[plan], entity_type: "district", entity_id: id }).expect(201);
      }
      expect(await slots(plan)).toEqual({ used: 6, limit: null });
    }
  });

  it("refuses bad bodies and ids with a 400 naming the problem, unknown or foreign ones with a 404; nothing is written", async () => {
    const before = Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM follows`))[0].n);
    const body = { project_id: project.enterprise, entity_type: "district", entity_id: d[7] };
    const bad: [unknown, RegExp][] = [
      [{ ...body, entity_type: "contact" }, /entity_type/],
      [{ ...body, entity_type: "District" }, /entity_type/],
      [{ ...body, entity_id: "not-a-uuid" }, /entity_id/],
      [{ ...body, project_id: "42" }, /project_id/],
      [{ project_id: project.enterprise, entity_type: "district" }, /entity_id/],
      [{ entity_type: "district", entity_id: d[7] }, /project_id/],
      [{ ...body, note: "x" }, /unknown body property note/],
      [{ ...body, entity_id: 7 }, /entity_id/],
    ];
    for (const [input, message] of bad) expectError(await followAs("enterprise", input), 400, message);
    const missing: [unknown, RegExp][] = [
      [{ ...body, entity_id: NO_SUCH }, new RegExp(`district ${NO_SUCH} not found`)],
      [{ ...body, entity_type: "school", entity_id: d[7] }, new RegExp(`school ${d[7]} not found`)], // a district's id is no school
      [{ ...body, project_id: NO_SUCH }, new RegExp(`project ${NO_SUCH} not found`)],
      [{ ...body, project_id: project.free }, new RegExp(`project ${project.free} not found`)], // another organization's project
    ];
    for (const [input, message] of missing) expectError(await followAs("enterprise", input), 404, message);
    expectError(await t.http.delete("/api/v1/follows/not-a-uuid").set("Authorization", auth("free")), 400, /\bid\b/);
    expectError(await unfollowAs("free", NO_SUCH), 404, new RegExp(`follow ${NO_SUCH} not found`));
    expect(Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM follows`))[0].n)).toBe(before);
  });

  it("isolates organizations: another organization's follows are never listed, unfollowed or counted", async () => {
    const freeFollows = (await followsOf("free", project.free).expect(200)).body.data;
    // The enterprise organization cannot read the free organization's project, nor unfollow its follow.
    expectError(await followsOf("enterprise", project.free), 404, new RegExp(`project ${project.free} not found`));
    expectError(await unfollowAs("enterprise", freeFollows[0].id), 404, /not found/);
    expect((await followsOf("free", project.free).expect(200)).body.data).toEqual(freeFollows);
    // A second free organization starts with no slot used, and its project lists none of the first's follows.
    const { organizationId } = await createOrganization(t.db, { name: "Second free", plan: "free" });
    const key = (await createApiKey(t.db, organizationId)).apiKey;
    const org = await t.http.get("/api/v1/org").set("Authorization", `Bearer ${key}`).expect(200);
    expect(org.body.follow_slots).toEqual({ used: 0, limit: 3 });
    const p = (await t.http.post("/api/v1/projects").set("Authorization", `Bearer ${key}`).send({ name: "x" }).expect(201)).body.data.id;
    const mine = await t.http
      .get(`/api/v1/projects/${p}/follows?include_unfollowed=true`)
      .set("Authorization", `Bearer ${key}`)
      .expect(200);
    expect(mine.body).toEqual({ data: [], pagination: { total: 0, limit: 50, offset: 0, has_more: false } });
    // It can follow what the first organization follows, on its own slot.
    await t.http
      .post("/api/v1/follows")
      .set("Authorization", `Bearer ${key}`)
      .send({ project_id: p, entity_type: "district", entity_id: d[0] })
      .expect(201);
    expect((await t.http.get("/api/v1/org").set("Authorization", `Bearer ${key}`)).body.follow_slots).toEqual({ used: 1, limit: 3 });
    expect(await slots("free")).toEqual({ used: 3, limit: 3 });
  });

  describe("GET /projects/{id}/follows", () => {
    it("lists the project's active follows by followed_at, or every follow with include_unfollowed", async () => {
      const active = (await followsOf("free", project.free).expect(200)).body;
      expect(active.data.map((f: Body) => [f.entity_type, f.entity_id])).toEqual([
        ["district", d[0]],
        ["school", school],
        ["district", d[2]],
      ]);
      expect(active.pagination).toEqual({ total: 3, limit: 50, offset: 0, has_more: false });
      for (const f of active.data) expect(Object.keys(f).sort()).toEqual(FOLLOW_FIELDS);
      const all = (await followsOf("free", project.free, "?include_unfollowed=true").expect(200)).body;
      expect(all.pagination.total).toBe(5);
      expect(all.data.filter((f: Body) => f.unfollowed_at !== null)).toHaveLength(2);
      const schools = (await followsOf("free", project.free, "?entity_type=school").expect(200)).body.data;
      expect(schools.map((f: Body) => f.entity_id)).toEqual([school]);
      const desc = (await followsOf("free", project.free, "?order_by=created_at&order_ascending=false").expect(200)).body.data;
      expect(desc.map((f: Body) => f.id)).toEqual(active.data.map((f: Body) => f.id).reverse());
      const page = (await followsOf("free", project.free, "?limit=1&offset=1").expect(200)).body;
      expect(page.data.map((f: Body) => f.entity_id)).toEqual([school]);
      expect(page.pagination).toEqual({ total: 3, limit: 1, offset: 1, has_more: true });
      const past = (await followsOf("free", project.free, "?offset=9").expect(200)).body;
      expect(past).toEqual({ data: [], pagination: { total: 3, limit: 50, offset: 9, has_more: false } });
    });

    it("refuses bad parameters (400) and unknown or foreign projects (404), also past the end", async () => {
      const cases: [string, number, RegExp][] = [
        ["?limit=0", 400, /limit must be an integer from 1 to 200/],
        ["?limit=201", 400, /limit/],
        ["?offset=-1", 400, /offset/],
        ["?order_by=entity_id", 400, /order_by must be one of followed_at, created_at/],
        ["?include_unfollowed=yes", 400, /include_unfollowed/],
        ["?entity_type=contact", 400, /entity_type/],
        ["?project_id=x", 400, /project_id/],
      ];
      for (const [query, status, message] of cases) expectError(await followsOf("free", project.free, query), status, message);
      expectError(await t.get("/api/v1/projects/nope/follows", "free"), 400, /\bid\b/);
      expectError(await followsOf("free", NO_SUCH), 404, new RegExp(`project ${NO_SUCH} not found`));
      expectError(await followsOf("free", project.pro, "?offset=100"), 404, new RegExp(`project ${project.pro} not found`));
    });

    it("is one statement at limit 1 and at limit 200", async () => {
      const count = (query: string) => countStatements(t.db, () => followsOf("enterprise", project.enterprise, query).expect(200));
      expect(await count("?limit=1")).toBe(2); // the API key, then the page, its total and the project check
      expect(await count("?limit=200&include_unfollowed=true")).toBe(2);
      expect(await countStatements(t.db, () => followsOf("free", project.pro).expect(404))).toBe(2);
    });
  });

  it("serves the same operations through POST /graphql, FOLLOW_LIMIT with its slots in the extensions", async () => {
    const mutation = `mutation($input: FollowInput!) { follow(input: $input) { created follow { id entityType entityId unfollowedAt } } }`;
    const repeat = await t.graphql(mutation, { input: { projectId: project.free, entityType: "district", entityId: d[0] } }, "free");
    expect(repeat.data.follow).toMatchObject({ created: false, follow: { entityType: "district", entityId: d[0], unfollowedAt: null } });
    const refused = await t.graphql(mutation, { input: { projectId: project.free, entityType: "district", entityId: d[5] } }, "free");
    expect(refused.errors?.[0].extensions).toMatchObject({ code: "FOLLOW_LIMIT", body: { slots: { used: 3, limit: 3, tier: "free" } } });
    const list = await t.graphql(
      `query($id: UUID!) { projectFollows(projectId: $id, limit: 2) { data { entityId } pagination { total hasMore } } }`,
      { id: project.free },
      "free",
    );
    expect(list.data.projectFollows).toEqual({ data: [{ entityId: d[0] }, { entityId: school }], pagination: { total: 3, hasMore: true } });
    const gone = await t.graphql(`mutation($id: UUID!) { unfollow(id: $id) { id } }`, { id: NO_SUCH }, "free");
    expect(gone.errors?.[0].extensions.code).toBe("NOT_FOUND");
  });

  describe("race safety", () => {
    it("N concurrent follows of distinct entities by a free organization never exceed the limit", async () => {
      const { organizationId } = await createOrganization(t.db, { name: "Racing free", plan: "free" });
      const key = `Bearer ${(await createApiKey(t.db, organizationId)).apiKey}`;
      const p = (await t.http.post("/api/v1/projects").set("Authorization", key).send({ name: "race" }).expect(201)).body.data.id;
      const targets = [];
      for (let i = 0; i < 12; i += 1) targets.push(await insertDistrict(t.db, { name: `Race ${i}` }));
      const results = await Promise.all(
        targets.map((id) =>
          t.http.post("/api/v1/follows").set("Authorization", key).send({ project_id: p, entity_type: "district", entity_id: id }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(403)]);
      for (const r of results.filter((r) => r.status === 403)) expect(r.body.slots).toEqual({ used: 3, limit: 3, tier: "free" });
      expect(await activeRows(organizationId)).toBe(3);

      // The service itself, without HTTP staggering the calls: rounds of concurrent follows for the last free slot.
      const viewer = {
        organizationId,
        organizationName: "Racing free",
        plan: "free" as const,
        entitlements: new Set<string>(),
        apiKeyId: "test",
      };
      const env = { FREE_FOLLOW_SLOTS: 3 };
      for (let round = 0; round < 5; round += 1) {
        const taken = await t.db.query<{ id: string }>(
          `SELECT id FROM follows WHERE organization_id = $1 AND unfollowed_at IS NULL ORDER BY followed_at DESC LIMIT 1`,
          [organizationId],
        );
        // Followed a month ago: the unfollow releases its slot at once.
        await t.db.query(`UPDATE follows SET followed_at = followed_at - interval '31 days' WHERE id = $1`, [taken[0].id]);
        await unfollow(t.db, viewer, taken[0].id, { FOLLOW_SLOT_MIN_DAYS: 30 });
        const outcomes = await Promise.allSettled(
          targets.map((id) => follow(t.db, viewer, { projectId: p, entityType: FollowEntityType.district, entityId: id }, env)),
        );
        const created = outcomes.filter((o) => o.status === "fulfilled" && o.value.created);
        const refused = outcomes.filter((o) => o.status === "rejected" && (o.reason as { code?: string }).code === "FOLLOW_LIMIT");
        expect([created.length, refused.length + created.length]).toEqual([1, targets.length - 2]);
        expect(await activeRows(organizationId)).toBe(3);
      }
    });

    it("N concurrent follows of one entity by one project make one follow", async () => {
      const p = await newProject("enterprise", "race one");
      const results = await Promise.all(
        Array.from({ length: 10 }, () => followAs("enterprise", { project_id: p, entity_type: "district", entity_id: d[7] })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
      const rows = await t.db.query(`SELECT id FROM follows WHERE project_id = $1`, [p]);
      expect(rows).toHaveLength(1);
    });
  });
});
