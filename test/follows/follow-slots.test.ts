/**
 * Issue 20 point 6: follow slots bound history. DELETE /follows/{id} sets slot_released_at to the later of now
 * and followed_at + FOLLOW_SLOT_MIN_DAYS (contract section 7); until then the free slot stays used (FOLLOW_LIMIT,
 * GET /org follow_slots.used) and the entity's history stays open (districts, metric query, briefs), so a
 * follow-read-unfollow loop opens at most FREE_FOLLOW_SLOTS histories and brief builds per 30 days.
 * Time passes by moving the follows' timestamps in the database (or the service's injectable clock): no sleeps.
 */
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { unfollow } from "../../src/features/account/follows/follow.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { until } from "../support/wait";

type Body = Record<string, any>;
const DAY_MS = 86_400_000;
const YEARS = Array.from({ length: 12 }, (_, i) => 2012 + i);

describe("follow slots bound history (issue 20 point 6)", () => {
  let t: TestApp;
  let key: string;
  let organizationId: string;
  let project: string;
  const districts: string[] = [];

  const as = { auth: () => `Bearer ${key}` };
  const get = (path: string) => t.http.get(path).set("Authorization", as.auth());
  const post = (path: string, body: object) => t.http.post(path).set("Authorization", as.auth()).send(body);
  const followOf = (id: string) => post("/api/v1/follows", { project_id: project, entity_type: "district", entity_id: id });
  const slots = async () => (await get("/api/v1/org").expect(200)).body.follow_slots;
  /** Years of the district's statistics trend the organization sees (12 when its history is open). */
  const historyYears = async (id: string) => (await get(`/api/v1/districts/${id}`).expect(200)).body.data.annual_statistics.trend.length;
  const metricYear = async (id: string) => {
    const query = encodeURIComponent(JSON.stringify({ select: [{ metric: "total_enrollment", year: 2015, as: "e" }] }));
    return (await get(`/api/v1/districts?ids=${id}&metric_query=${query}`).expect(200)).body.data[0].metric_values.e;
  };
  const briefOf = async (id: string) =>
    (await get(`/api/v1/briefs?project_id=${project}&entity_type=district&entity_id=${id}`).expect(200)).body.brief;
  const followRows = (id: string) =>
    t.db.query<{ id: string; followed_at: Date; unfollowed_at: Date | null; slot_released_at: Date | null }>(
      `SELECT id, followed_at, unfollowed_at, slot_released_at FROM follows WHERE organization_id = $1 AND entity_id = $2 ORDER BY created_at`,
      [organizationId, id],
    );

  beforeAll(async () => {
    t = await createTestApp({ WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "1" }, { jobs: "work" });
    ({ organizationId } = await createOrganization(t.db, { name: "Looping free", plan: "free" }));
    key = (await createApiKey(t.db, organizationId)).apiKey;
    project = (await post("/api/v1/projects", { name: "Loop" }).expect(201)).body.data.id;
    for (let i = 0; i < 6; i += 1) {
      const id = await insertDistrict(t.db, { name: `Slot District ${i}`, state: "WY" });
      for (const year of YEARS) await insertDistrictStats(t.db, id, year, { total_enrollment: 1000 + year });
      districts.push(id);
    }
  });
  afterAll(() => t?.close());

  it("a follow, read, brief, unfollow loop stops at the third slot: FOLLOW_LIMIT, used stays 3, 3 histories and 3 brief builds", async () => {
    const outcomes: (number | string)[] = [];
    for (const id of districts) {
      const res = await followOf(id);
      if (res.status !== 201) {
        expect([res.status, res.body]).toEqual([
          403,
          {
            error: "FOLLOW_LIMIT",
            statusCode: 403,
            message: expect.stringMatching(/3 follow slots/),
            slots: { used: 3, limit: 3, tier: "free" },
          },
        ]);
        outcomes.push("FOLLOW_LIMIT");
        continue;
      }
      outcomes.push(await historyYears(id));
      await post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: id }).expect(202);
      const gone = (await t.http.delete(`/api/v1/follows/${res.body.data.id}`).set("Authorization", as.auth()).expect(200)).body.data;
      // Released 30 days after the follow began, not at the unfollow.
      expect(Date.parse(gone.slot_released_at) - Date.parse(gone.followed_at)).toBe(30 * DAY_MS);
      expect(Date.parse(gone.unfollowed_at)).toBeLessThan(Date.parse(gone.slot_released_at));
    }
    expect(outcomes).toEqual([12, 12, 12, "FOLLOW_LIMIT", "FOLLOW_LIMIT", "FOLLOW_LIMIT"]);
    expect(await slots()).toEqual({ used: 3, limit: 3 });
    const gql = await t.http
      .post("/graphql")
      .set("Authorization", as.auth())
      .send({ query: "{ organization { followSlots { used limit } } }" });
    expect(gql.body.data.organization.followSlots).toEqual({ used: 3, limit: 3 });
    const built = await t.db.query(`SELECT entity_id FROM briefs WHERE organization_id = $1 ORDER BY started_at`, [organizationId]);
    expect(built.map((b: Body) => b.entity_id)).toEqual(districts.slice(0, 3));
    // Nothing was read of the districts the loop could not follow.
    expect(await historyYears(districts[3])).toBe(1);
  });

  it("while its slot is held an unfollowed entity keeps its history (detail, metric query, brief); following it again takes no new slot", async () => {
    expect(await historyYears(districts[0])).toBe(12);
    expect(await metricYear(districts[0])).toBe(3015);
    expect(await metricYear(districts[3])).toBeNull();
    const brief = await until(
      () => briefOf(districts[0]),
      (b) => b?.status !== "building",
    );
    expect(brief.status).toBe("ready");
    expect(brief.dossier.statistics).toMatchObject({ history_gated: false });
    expect(brief.dossier.statistics.trend).toHaveLength(12);

    const again = await followOf(districts[0]).expect(201);
    expect(again.body.data.unfollowed_at).toBeNull();
    expect(await slots()).toEqual({ used: 3, limit: 3 });
    await t.http.delete(`/api/v1/follows/${again.body.data.id}`).set("Authorization", as.auth()).expect(200);
    expect(await slots()).toEqual({ used: 3, limit: 3 });
  });

  it("once slot_released_at passes the slot is free: history gated again (detail, metric query, brief), a new entity can be followed", async () => {
    // 31 days later, for district 0 only: every one of its follows was unfollowed with a release 30 days after it began.
    await t.db.query(
      `UPDATE follows SET followed_at = followed_at - interval '31 days', unfollowed_at = unfollowed_at - interval '31 days',
              slot_released_at = slot_released_at - interval '31 days'
        WHERE organization_id = $1 AND entity_id = $2`,
      [organizationId, districts[0]],
    );
    expect(await slots()).toEqual({ used: 2, limit: 3 });
    expect(await historyYears(districts[0])).toBe(1);
    expect(await metricYear(districts[0])).toBeNull();
    const brief = await briefOf(districts[0]);
    expect(brief.dossier.statistics).toMatchObject({ history_gated: true, enrollment_change: null });
    expect(brief.dossier.statistics.trend).toHaveLength(1);
    expect(brief.dossier.narrative).toMatchObject({ included: false });

    await followOf(districts[3]).expect(201);
    expect(await slots()).toEqual({ used: 3, limit: 3 });
    expect(await historyYears(districts[3])).toBe(12);
    const refused = await followOf(districts[4]).expect(403);
    expect(refused.body.slots).toEqual({ used: 3, limit: 3, tier: "free" });
  });

  it("an unfollow later than FOLLOW_SLOT_MIN_DAYS after the follow releases the slot at once; the clock and the days are injectable", async () => {
    const viewer = {
      organizationId,
      organizationName: "Looping free",
      plan: "free" as const,
      entitlements: new Set<string>(),
      apiKeyId: "t",
    };
    const [active] = (await followRows(districts[3])).filter((f) => f.unfollowed_at === null);
    const followedAt = new Date(active.followed_at);

    // Ten days in: the slot is held until day 30, whatever FOLLOW_SLOT_MIN_DAYS the caller passes in.
    const tenDays = new Date(followedAt.getTime() + 10 * DAY_MS);
    const early = await unfollow(t.db, viewer, active.id, { FOLLOW_SLOT_MIN_DAYS: 30 }, tenDays);
    expect([early.unfollowed_at, early.slot_released_at]).toEqual([tenDays, new Date(followedAt.getTime() + 30 * DAY_MS)]);
    // Unfollowing again changes nothing.
    expect(await unfollow(t.db, viewer, active.id, { FOLLOW_SLOT_MIN_DAYS: 0 })).toEqual(early);

    // Followed 40 days ago and unfollowed now: released now, the slot free at once.
    const fresh = (await followOf(districts[1]).expect(201)).body.data; // district 1's slot is still held: no new slot
    expect(await slots()).toEqual({ used: 3, limit: 3 });
    await t.db.query(`UPDATE follows SET followed_at = now() - interval '40 days' WHERE id = $1`, [fresh.id]);
    const late = (await t.http.delete(`/api/v1/follows/${fresh.id}`).set("Authorization", as.auth()).expect(200)).body.data;
    expect(late.slot_released_at).toBe(late.unfollowed_at);

    // FOLLOW_SLOT_MIN_DAYS=0: an unfollow releases at once.
    const zero = await unfollow(t.db, viewer, (await followOf(districts[2]).expect(201)).body.data.id, { FOLLOW_SLOT_MIN_DAYS: 0 });
    expect(zero.slot_released_at).toEqual(zero.unfollowed_at);
  });

  it("FOLLOW_SLOT_MIN_DAYS is read from the environment", async () => {
    const app = await createTestApp({ FOLLOW_SLOT_MIN_DAYS: "7" });
    try {
      const p = (await app.post("/api/v1/projects", { name: "p" }, "free").expect(201)).body.data.id;
      const id = await insertDistrict(app.db);
      const made = (await app.post("/api/v1/follows", { project_id: p, entity_type: "district", entity_id: id }, "free").expect(201)).body
        .data;
      const gone = (await app.http.delete(`/api/v1/follows/${made.id}`).set("Authorization", `Bearer ${app.keys.free}`).expect(200)).body
        .data;
      expect(Date.parse(gone.slot_released_at) - Date.parse(gone.followed_at)).toBe(7 * DAY_MS);
      expect((await app.get("/api/v1/org", "free").expect(200)).body.follow_slots).toEqual({ used: 1, limit: 3 });
    } finally {
      await app.close();
    }
  });
});
