/**
 * Hostile probes of briefs: client input that must be a 4xx (never a 5xx or a stall), and gated data
 * that must not leak through a brief.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";

describe("briefs: hostile probes", () => {
  let t: TestApp;
  let project: string;
  let district: string;
  let briefId: string;

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send" });
    project = (await t.post("/api/v1/projects", { name: "Hostile briefs" }).expect(201)).body.data.id;
    district = await insertDistrict(t.db, { name: "Hostile Brief District", state: "NE" });
    briefId = (await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }).expect(202)).body
      .brief_id;
  });
  afterAll(() => t?.close());

  it("odd input on every brief route is a 4xx with the generic body", async () => {
    const probes: [string, string, unknown, number][] = [
      ["POST", `/api/v1/briefs/${briefId}/people/%E0%A4%A/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/${briefId}/people/${"p_" + "a".repeat(10_000)}/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/${briefId}/people/p_${"A".repeat(24)}/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/${briefId}/people/p_${"a".repeat(24)}%00/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/not-a-uuid/people/p_${"a".repeat(24)}/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/${briefId}/people/p_${"a".repeat(24)}/promote`, { extra: 1 }, 400],
      ["POST", "/api/v1/briefs", [1, 2], 400],
      ["POST", "/api/v1/briefs", { project_id: 1, entity_type: "district", entity_id: district }, 400],
      ["POST", "/api/v1/briefs", { project_id: project, entity_type: null, entity_id: district }, 400],
      ["POST", "/api/v1/briefs", { project_id: project, entity_type: ["district"], entity_id: district }, 400],
      [
        "POST",
        "/api/v1/briefs",
        { project_id: project, entity_type: "district", entity_id: district, pad: "x".repeat(2 * 1024 * 1024) },
        413,
      ],
      ["GET", `/api/v1/briefs?project_id=${project}&project_id=${project}&entity_type=district&entity_id=${district}`, undefined, 400],
      ["GET", `/api/v1/briefs?project_id=${project}&entity_type=district&entity_id=${district.toUpperCase()}x`, undefined, 400],
      ["GET", `/api/v1/briefs?project_id=${project}&entity_type=&entity_id=${district}`, undefined, 400],
      ["GET", `/api/v1/briefs/${briefId}?x=1`, undefined, 400],
    ];
    const failures: string[] = [];
    for (const [method, path, body, status] of probes) {
      const req = method === "GET" ? t.get(path) : t.post(path, body);
      const res = await req;
      if (res.status !== status || res.body.statusCode !== status || typeof res.body.message !== "string")
        failures.push(`${method} ${path.slice(0, 120)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it("concurrent promotes and requests never answer 5xx", async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2
          ? t.post(`/api/v1/briefs/${briefId}/people/p_${"b".repeat(24)}/promote`, undefined)
          : t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }),
      ),
    );
    expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
  });
});

describe("briefs: a free organization's brief after an unfollow", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "1" }, { jobs: "work" });
  });
  afterAll(() => t?.close());

  it("serves the multi-year history only while the entity is followed (contract section 4), on every read path", async () => {
    const district = await insertDistrict(t.db, { name: "Unfollowed Brief District", state: "KS" });
    for (const [year, total_enrollment, total_revenue] of [
      [2021, 5000, 70_000_000],
      [2022, 5400, 71_000_000],
      [2023, 5900, 72_000_000],
    ])
      await insertDistrictStats(t.db, district, year, {
        total_enrollment,
        finance_fiscal_year: year + 1,
        total_revenue,
        total_expenditures: total_revenue,
        f33_version: `F-33 FY${year + 1}`,
      });
    const project = (await t.post("/api/v1/projects", { name: "Free unfollow" }, "free").expect(201)).body.data.id;
    const follow = (
      await t.post("/api/v1/follows", { project_id: project, entity_type: "district", entity_id: district }, "free").expect(201)
    ).body.data;
    const { brief_id } = (
      await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }, "free").expect(202)
    ).body;
    const end = Date.now() + 60_000;
    let brief: any;
    while (Date.now() < end) {
      brief = (await t.get(`/api/v1/briefs/${brief_id}`, "free").expect(200)).body.brief;
      if (brief.status !== "building") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(brief.status).toBe("ready");
    // Followed: the whole history.
    expect(brief.dossier.statistics.trend).toHaveLength(3);

    // Unfollowed a month after following: the slot is released at once (before FOLLOW_SLOT_MIN_DAYS it stays held,
    // and the history with it: test/follows/follow-slots.test.ts).
    await t.db.query(`UPDATE follows SET followed_at = followed_at - interval '31 days' WHERE id = $1`, [follow.id]);
    await t.http.delete(`/api/v1/follows/${follow.id}`).set("Authorization", `Bearer ${t.keys.free}`).expect(200);
    const pairUrl = `/api/v1/briefs?project_id=${project}&entity_type=district&entity_id=${district}`;
    const graphql = await t.graphql(`query($id: UUID!) { briefById(briefId: $id) { dossier } }`, { id: brief_id }, "free");
    for (const dossier of [
      (await t.get(`/api/v1/briefs/${brief_id}`, "free").expect(200)).body.brief.dossier,
      (await t.get(pairUrl, "free").expect(200)).body.brief.dossier,
      graphql.data.briefById.dossier,
    ]) {
      expect(dossier.statistics).toEqual({
        trend: [expect.objectContaining({ school_year_start: 2023 })],
        enrollment_change: null,
        history_gated: true,
      });
      expect(dossier.finance.trend).toEqual([expect.objectContaining({ finance_fiscal_year: 2024 })]);
      expect(dossier.finance.history_gated).toBe(true);
      // Neither the earlier years nor the change between them, in any section (the narrative quotes the change).
      expect(JSON.stringify(dossier)).not.toMatch(/5000|5400|70000000|71000000|18%/);
    }
    // Followed again: the whole history again.
    await t.post("/api/v1/follows", { project_id: project, entity_type: "district", entity_id: district }, "free").expect(201);
    const reopened = (await t.get(`/api/v1/briefs/${brief_id}`, "free").expect(200)).body.brief.dossier;
    expect(reopened.statistics).toMatchObject({ history_gated: false, enrollment_change: { from: 2021, to: 2023, percent: 18 } });
    expect(reopened.statistics.trend).toHaveLength(3);
    expect(reopened.narrative.text).toContain("18%");
  });
});
