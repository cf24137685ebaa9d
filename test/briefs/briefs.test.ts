/**
 * Briefs (spec "Brief" state table, POST /briefs; contract sections 2, 3 and 7) through REST and GraphQL,
 * with a queue that sends jobs and no worker, so a build stays in building: the state table's rows, the plan
 * rule (free and pro follow first, enterprise and internal need not), a build stuck over 60 minutes, the
 * organization boundary (404) and bad input (400 generic body). The builds themselves: brief-build.test.ts.
 */
import { briefById, briefOfPair } from "../../src/features/research/briefs/brief.service";
import type { Viewer } from "../../src/features/account/auth/viewer";
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { countStatements } from "../support/statements";

describe("briefs: the state table, the plan rule and the organization boundary", () => {
  let t: TestApp;
  const projects = {} as Record<PlanKey, string>;
  let district: string;
  let school: string;

  /** Jobs of the brief build queue for a brief (pg-boss's table). */
  const buildJobs = async (briefId: string) =>
    t.db.query<{ id: string }>(`SELECT id::text FROM pgboss.job WHERE name = 'briefs.build' AND data->>'briefId' = $1`, [briefId]);
  const request = (plan: PlanKey, body: Record<string, unknown>) => t.post("/api/v1/briefs", body, plan);
  const pair = (plan: PlanKey, entityId = district, entityType = "district") => ({
    project_id: projects[plan],
    entity_type: entityType,
    entity_id: entityId,
  });
  const follow = (plan: PlanKey, entityId: string, entityType = "district") =>
    t.post("/api/v1/follows", { project_id: projects[plan], entity_type: entityType, entity_id: entityId }, plan).expect(201);

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send" });
    for (const plan of ["free", "pro", "enterprise", "internal"] as const)
      projects[plan] = (await t.post("/api/v1/projects", { name: `Briefs ${plan}` }, plan).expect(201)).body.data.id;
    district = await insertDistrict(t.db, { name: "Brief District", state: "NE" });
    school = await insertSchool(t.db, { name: "Brief School", district_id: district, state: "NE" });
  });
  afterAll(() => t?.close());

  it("GET of a pair that never had a build is { brief: null }", async () => {
    const res = await t.get(`/api/v1/briefs?project_id=${projects.enterprise}&entity_type=district&entity_id=${district}`).expect(200);
    expect(res.body).toEqual({ brief: null });
  });

  it("no brief -> building: 202, started true and the poll URL, one build job; the poll URL answers { brief }", async () => {
    const res = await request("enterprise", pair("enterprise")).expect(202);
    expect(res.body).toEqual({
      brief_id: expect.any(String),
      status: "building",
      started: true,
      poll: `/api/v1/briefs/${res.body.brief_id}`,
    });
    expect(await buildJobs(res.body.brief_id)).toHaveLength(1);

    const polled = await t.get(res.body.poll).expect(200);
    expect(polled.body).toEqual({
      brief: {
        brief_id: res.body.brief_id,
        project_id: projects.enterprise,
        entity_type: "district",
        entity_id: district,
        status: "building",
        dossier: null,
        error: null,
        started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        finished_at: null,
      },
    });
    const ofPair = await t.get(`/api/v1/briefs?project_id=${projects.enterprise}&entity_type=district&entity_id=${district}`).expect(200);
    expect(ofPair.body).toEqual(polled.body);
  });

  it("building and fresh -> no second build: 200, started false, the same brief and still one job", async () => {
    const first = (await request("enterprise", pair("enterprise")).expect(200)).body;
    const again = (await request("enterprise", pair("enterprise")).expect(200)).body;
    expect(again).toEqual(first);
    expect(again).toMatchObject({ status: "building", started: false });
    expect(await buildJobs(first.brief_id)).toHaveLength(1);
  });

  it("concurrent first requests of one pair start one build", async () => {
    const entity = await insertDistrict(t.db, { name: "Concurrent Brief District" });
    const answers = await Promise.all([1, 2, 3, 4].map(() => request("internal", pair("internal", entity))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 202]);
    expect(new Set(answers.map((a) => a.body.brief_id)).size).toBe(1);
    expect(await buildJobs(answers[0].body.brief_id)).toHaveLength(1);
  });

  it("building for over 60 minutes is reported failed on read; a new POST restarts the build", async () => {
    const entity = await insertDistrict(t.db, { name: "Stuck Brief District" });
    const { brief_id } = (await request("enterprise", pair("enterprise", entity)).expect(202)).body;
    // Under the limit it is still building.
    await t.db.query(`UPDATE briefs SET started_at = now() - interval '59 minutes' WHERE id = $1`, [brief_id]);
    expect((await t.get(`/api/v1/briefs/${brief_id}`).expect(200)).body.brief.status).toBe("building");
    await t.db.query(`UPDATE briefs SET started_at = now() - interval '61 minutes' WHERE id = $1`, [brief_id]);
    const stuck = (await t.get(`/api/v1/briefs/${brief_id}`).expect(200)).body.brief;
    expect(stuck).toMatchObject({ status: "failed", error: expect.stringMatching(/over 60 minutes/), dossier: null });
    // A read reports it; it writes nothing.
    expect(await t.db.query(`SELECT status FROM briefs WHERE id = $1`, [brief_id])).toEqual([{ status: "building" }]);

    const restarted = (await request("enterprise", pair("enterprise", entity)).expect(202)).body;
    expect(restarted).toMatchObject({ brief_id, status: "building", started: true });
    expect(await buildJobs(brief_id)).toHaveLength(2);
    const [row] = await t.db.query<{ job_id: string; fresh: boolean }>(
      `SELECT job_id, started_at > now() - interval '1 minute' AS fresh FROM briefs WHERE id = $1`,
      [brief_id],
    );
    expect(row.fresh).toBe(true);
    expect((await buildJobs(brief_id)).map((j) => j.id)).toContain(row.job_id);
    expect((await t.get(`/api/v1/briefs/${brief_id}`).expect(200)).body.brief).toMatchObject({ status: "building", error: null });
  });

  it("a failed brief is built again by a new POST", async () => {
    const entity = await insertDistrict(t.db, { name: "Failed Brief District" });
    const { brief_id } = (await request("enterprise", pair("enterprise", entity)).expect(202)).body;
    await t.db.query(`UPDATE briefs SET status = 'failed', error = 'build failed: test', finished_at = now() WHERE id = $1`, [brief_id]);
    expect((await t.get(`/api/v1/briefs/${brief_id}`).expect(200)).body.brief).toMatchObject({
      status: "failed",
      error: "build failed: test",
    });
    expect((await request("enterprise", pair("enterprise", entity)).expect(202)).body).toMatchObject({ brief_id, started: true });
    expect((await t.get(`/api/v1/briefs/${brief_id}`).expect(200)).body.brief).toMatchObject({
      status: "building",
      error: null,
      finished_at: null,
    });
  });

  it("plan rule: free and pro must follow the entity in the project first (403 forbidden); enterprise and internal need not", async () => {
    for (const plan of ["free", "pro"] as const) {
      const refused = await request(plan, pair(plan, school, "school")).expect(403);
      expect(refused.body).toEqual({ error: "forbidden", statusCode: 403, message: expect.stringMatching(/follow school .* first/) });
      expect(await t.db.query(`SELECT 1 FROM briefs WHERE project_id = $1`, [projects[plan]])).toHaveLength(0);
    }
    // A follow in another project of the organization does not count.
    const other = (await t.post("/api/v1/projects", { name: "Other free project" }, "free").expect(201)).body.data.id;
    await t.post("/api/v1/follows", { project_id: other, entity_type: "school", entity_id: school }, "free").expect(201);
    await request("free", pair("free", school, "school")).expect(403);

    await follow("free", school, "school");
    expect((await request("free", pair("free", school, "school")).expect(202)).body).toMatchObject({ started: true });
    await follow("pro", school, "school");
    await request("pro", pair("pro", school, "school")).expect(202);
    await request("internal", pair("internal", school, "school")).expect(202);

    // Unfollowed: no new request (the brief stays readable).
    const follows = (await t.get(`/api/v1/projects/${projects.free}/follows`, "free").expect(200)).body.data;
    await t.http.delete(`/api/v1/follows/${follows[0].id}`).set("Authorization", `Bearer ${t.keys.free}`).expect(200);
    await request("free", pair("free", school, "school")).expect(403);
    const read = await t.get(`/api/v1/briefs?project_id=${projects.free}&entity_type=school&entity_id=${school}`, "free").expect(200);
    expect(read.body.brief).toMatchObject({ entity_type: "school", entity_id: school, status: "building" });
  });

  it("another organization's project or brief is a 404 that reveals nothing", async () => {
    const { brief_id } = (await request("enterprise", pair("enterprise")).expect(200)).body;
    for (const plan of ["internal", "free"] as const) {
      const post = await request(plan, { project_id: projects.enterprise, entity_type: "district", entity_id: district }).expect(404);
      expect(post.body).toEqual({ error: "not_found", statusCode: 404, message: `project ${projects.enterprise} not found` });
      await t.get(`/api/v1/briefs?project_id=${projects.enterprise}&entity_type=district&entity_id=${district}`, plan).expect(404);
      const poll = await t.get(`/api/v1/briefs/${brief_id}`, plan).expect(404);
      expect(poll.body).toMatchObject({ error: "not_found", statusCode: 404 });
      await t.post(`/api/v1/briefs/${brief_id}/people/p_${"0".repeat(24)}/promote`, undefined, plan).expect(404);
    }
    await t.get(`/api/v1/briefs/00000000-0000-4000-8000-000000000000`).expect(404);
    await request("enterprise", { ...pair("enterprise"), entity_id: "00000000-0000-4000-8000-000000000000" }).expect(404);
    // Nothing of the enterprise organization's was touched.
    expect(
      await t.db.query(`SELECT count(*)::int AS n FROM briefs WHERE project_id = $1 AND entity_id = $2`, [projects.enterprise, district]),
    ).toEqual([{ n: 1 }]);
  });

  it("bad input is a 400 with the generic body naming the problem", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ project_id: projects.enterprise, entity_id: district }, /entity_type/],
      [{ ...pair("enterprise"), entity_type: "contact" }, /contact/],
      [{ ...pair("enterprise"), entity_id: "not-a-uuid" }, /entity_id/],
      [{ ...pair("enterprise"), entityId: district }, /entityId/],
      [{ ...pair("enterprise"), extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const res = await request("enterprise", body).expect(400);
      expect(res.body).toEqual({ error: "bad_request", statusCode: 400, message: expect.stringMatching(message) });
    }
    const reads = [
      [`/api/v1/briefs?entity_type=district&entity_id=${district}`, /project_id/],
      [`/api/v1/briefs?project_id=${projects.enterprise}&entity_type=state&entity_id=${district}`, /entity_type|state/],
      [`/api/v1/briefs?project_id=${projects.enterprise}&entity_type=district&entity_id=${district}&extra=1`, /extra/],
      [`/api/v1/briefs/not-a-uuid`, /brief_id/],
    ] as const;
    for (const [path, message] of reads) {
      const res = await t.get(path).expect(400);
      expect(res.body).toEqual({ error: "bad_request", statusCode: 400, message: expect.stringMatching(message) });
    }
    const { brief_id } = (await request("enterprise", pair("enterprise")).expect(200)).body;
    const badKey = await t.post(`/api/v1/briefs/${brief_id}/people/robert/promote`, undefined).expect(400);
    expect(badKey.body).toEqual({ error: "bad_request", statusCode: 400, message: expect.stringMatching(/person_key/) });
    // A person that is not in the dossier (a building brief has none yet) is not found.
    await t.post(`/api/v1/briefs/${brief_id}/people/p_${"a".repeat(24)}/promote`, undefined).expect(404);
  });

  it("GraphQL serves the same operations", async () => {
    const entity = await insertDistrict(t.db, { name: "GraphQL Brief District" });
    const requested = await t.graphql(
      `mutation($input: BriefRequestInput!) { requestBrief(input: $input) { briefId status started poll } }`,
      { input: { projectId: projects.enterprise, entityType: "district", entityId: entity } },
    );
    expect(requested.errors).toBeUndefined();
    const { briefId } = requested.data.requestBrief;
    expect(requested.data.requestBrief).toEqual({ briefId, status: "building", started: true, poll: `/api/v1/briefs/${briefId}` });
    const read = await t.graphql(
      `query($p: UUID!, $e: UUID!, $id: UUID!) {
         brief(projectId: $p, entityType: district, entityId: $e) { briefId status dossier }
         briefById(briefId: $id) { briefId projectId entityId }
       }`,
      { p: projects.enterprise, e: entity, id: briefId },
    );
    expect(read).toEqual({
      data: {
        brief: { briefId, status: "building", dossier: null },
        briefById: { briefId, projectId: projects.enterprise, entityId: entity },
      },
    });
    const refused = await t.graphql(
      `mutation($input: BriefRequestInput!) { requestBrief(input: $input) { briefId } }`,
      { input: { projectId: projects.free, entityType: "district", entityId: entity } },
      "free",
    );
    expect(refused.errors?.[0].extensions.code).toBe("FORBIDDEN");
    const foreign = await t.graphql(`query($id: UUID!) { briefById(briefId: $id) { briefId } }`, { id: briefId }, "internal");
    expect(foreign).toEqual({ data: { briefById: null } });
  });

  it("a brief read is one statement, by pair or by id", async () => {
    const viewer = { organizationId: t.orgs.enterprise, plan: "enterprise" } as Viewer;
    const { brief_id } = (await request("enterprise", pair("enterprise")).expect(200)).body;
    expect(await countStatements(t.db, () => briefOfPair(t.db, viewer, projects.enterprise, "district" as never, district))).toBe(1);
    expect(await countStatements(t.db, () => briefOfPair(t.db, viewer, projects.enterprise, "school" as never, school))).toBe(1);
    expect(await countStatements(t.db, () => briefById(t.db, viewer, brief_id))).toBe(1);
    // The project check rides in the same statement.
    const outsider = { organizationId: t.orgs.free, plan: "free" } as Viewer;
    expect(
      await countStatements(t.db, () => briefOfPair(t.db, outsider, projects.enterprise, "district" as never, district).catch(() => null)),
    ).toBe(1);
  });
});
