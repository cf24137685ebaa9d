/**
 * The `briefs.build` job on a real worker: the dossier carries the entity's stored figures (profile,
 * statistics trend, finance, people with stable keys, extracted findings with their source_url when the
 * organization unlocked the entity, events), a narrative from the default text generator (no language
 * model, and it says so) and data_source per section; a ready brief is reused; a failed build is failed
 * with its error; promoting a person links the catalogue contact or makes an unlinked record.
 */
import crypto from "node:crypto";
import { DOSSIER_EVENTS_LIMIT, FINDINGS_LIMIT, personKey } from "../../src/features/research/briefs/brief.dossier";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertEvent, insertIntelligence, insertUnlock } from "../support/block-factories";
import { insertCenter } from "../support/early-childhood-factories";
import { insert, insertDistrict, insertDistrictStats } from "../support/factories";
import { insertSchool, insertSchoolStats } from "../support/school-factories";
import { until } from "../support/wait";

const FAST = { WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "1" };

describe("the brief build job", () => {
  let db: TestDb;
  let t: TestApp;
  let project: string;
  let district: string;
  let ada: string;

  const poll = (app: TestApp, briefId: string, plan: "enterprise" | "free" | "internal" = "enterprise") =>
    until(
      async () => (await app.get(`/api/v1/briefs/${briefId}`, plan).expect(200)).body.brief,
      (b) => b.status !== "building",
    );

  beforeAll(async () => {
    db = await createTestDb();
    t = await createTestApp(FAST, { jobs: "work", db });
    project = (await t.post("/api/v1/projects", { name: "Brief build" }).expect(201)).body.data.id;
    district = await insertDistrict(db, {
      name: "Prairie Brief Public Schools",
      state: "NE",
      status: "completed",
      student_count: 4210,
      school_count: 9,
      physical_city: "Kearney",
      data_source: "nces_ccd_lea_test",
      ai_summary: "Prairie Brief Public Schools adopted a new literacy plan approved by the board for all students.",
      // JSON text: node-postgres would send a JS array as a PostgreSQL array literal.
      strategic_priorities: JSON.stringify(["Literacy for every student", "Career pathways"]),
    });
    await insertDistrictStats(db, district, 2021, {
      total_enrollment: 4000,
      teachers_fte: 280.5,
      school_age_poverty_pct: 14.25,
      fed_membership_version: "CCD 2021-22",
    });
    await insertDistrictStats(db, district, 2022, {
      total_enrollment: 4100,
      teachers_fte: 285,
      school_age_poverty_pct: 13.5,
      finance_fiscal_year: 2023,
      total_revenue: 61_000_000,
      total_expenditures: 59_500_000,
      federal_revenue: 4_200_000,
      f33_version: "F-33 FY2023",
      fed_membership_version: "CCD 2022-23",
    });
    await insertDistrictStats(db, district, 2023, { total_enrollment: 4210, teachers_fte: 290, fed_membership_version: "CCD 2023-24" });
    ada = await insert(db, "contacts", {
      name: "Ada Quillfeather",
      title: "Superintendent",
      district_id: district,
      is_district_contact: true,
      email: "ada@demo.example.org",
      phone: "(402) 555-0101",
      source_url: "https://demo.example.org/prairie/staff",
      data_source: "demo",
      enrichment_status: "completed",
    });
    await insertCenter(db, {
      name: "Prairie Early Learning Center",
      state: "NE",
      district_id: district,
      district_operated: true,
      director_name: "Rosa Brambleworth",
      source_url: "https://example.test/roster/prairie",
    });
    await insertIntelligence(db, { district_id: district }, "prairie");
    await insert(db, "pain_points", {
      entity_type: "district",
      district_id: district,
      category: "staffing",
      description: "The district reported a shortage of special education teachers for the next school year.",
      source_url: "https://prairie.example.test/board/minutes-2026-10",
      detected_at: new Date("2026-10-15T00:00:00.000Z"),
      data_source: "extraction",
    });
    await insert(db, "timeline_events", {
      entity_type: "district",
      entity_id: district,
      event_date: "2026-10-14",
      event_type: "board_meeting",
      title: "Board adopts literacy plan",
      description: "The board approved the literacy plan and its budget for all elementary schools.",
      source_url: "https://prairie.example.test/board",
      data_source: "extraction",
    });
    await insertUnlock(db, t.orgs.enterprise, "district", district);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  let briefId: string;
  let dossier: any;

  it("builds a dossier of the entity's stored figures, findings with source_url and an honest narrative", async () => {
    const started = (await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }).expect(202))
      .body;
    briefId = started.brief_id;
    const brief = await poll(t, briefId);
    expect(brief).toMatchObject({ status: "ready", error: null, finished_at: expect.any(String) });
    dossier = brief.dossier;

    expect(dossier.entity).toEqual({ type: "district", id: district, name: "Prairie Brief Public Schools", state: "NE" });
    expect(dossier.profile).toMatchObject({ student_count: 4210, school_count: 9, city: "Kearney", data_source: "nces_ccd_lea_test" });
    expect(dossier.statistics.trend.map((e: any) => [e.school_year_start, e.total_enrollment, e.teachers_fte])).toEqual([
      [2021, 4000, 280.5],
      [2022, 4100, 285],
      [2023, 4210, 290],
    ]);
    expect(dossier.statistics.enrollment_change).toEqual({ from: 2021, to: 2023, absolute: 210, percent: 5.3 });
    expect(dossier.finance.trend).toEqual([
      expect.objectContaining({
        school_year_start: 2022,
        finance_fiscal_year: 2023,
        total_revenue: 61_000_000,
        total_expenditures: 59_500_000,
      }),
    ]);

    // People: the catalogue contact (no gated field) and the childcare director, by stable keys.
    expect(dossier.people).toEqual([
      {
        person_key: personKey("district", district, "adaquillfeather"),
        name: "Ada Quillfeather",
        title: "Superintendent",
        roles: ["district contact"],
        contact_id: ada,
        source_urls: ["https://demo.example.org/prairie/staff"],
        data_source: ["demo"],
      },
      {
        person_key: personKey("district", district, "rosabrambleworth"),
        name: "Rosa Brambleworth",
        title: "Director",
        roles: ["childcare director (Prairie Early Learning Center)"],
        contact_id: null,
        source_urls: ["https://example.test/roster/prairie"],
        data_source: ["test"],
      },
    ]);
    expect(JSON.stringify(dossier)).not.toContain("555-0101");

    // Findings (the organization unlocked the district), each with where it was found.
    expect(dossier.findings.included).toBe(true);
    expect(dossier.findings.priorities).toEqual(["Literacy for every student", "Career pathways"]);
    expect(dossier.findings.pain_points).toContainEqual({
      category: "staffing",
      description: "The district reported a shortage of special education teachers for the next school year.",
      source_url: "https://prairie.example.test/board/minutes-2026-10",
      detected_at: "2026-10-15T00:00:00.000Z",
      data_source: "extraction",
    });
    expect(dossier.findings.vendors).toEqual([
      expect.objectContaining({ name: expect.stringMatching(/^Vendor prairie/), category: "lms" }),
    ]);
    expect(dossier.findings.bids.map((b: any) => b.title).sort()).toEqual(["Lapsed RFP prairie", "Open RFP prairie"]);
    expect(dossier.events).toEqual([expect.objectContaining({ event_date: "2026-10-14", title: "Board adopts literacy plan" })]);

    // The default generator uses no language model and says so; it quotes the stored sources.
    expect(dossier.narrative).toMatchObject({ provider: "extractive", model: null, language_model_used: false });
    expect(dossier.narrative.text).toMatch(/^Extractive draft \(no language model was used/);
    expect(dossier.narrative.text).toContain("enrollment 4210 in school year 2023-24");
    expect(dossier.narrative.source_urls).toContain("https://prairie.example.test/board");

    expect(dossier.data_source).toMatchObject({
      profile: ["nces_ccd_lea_test"],
      statistics: expect.arrayContaining(["CCD 2021-22", "CCD 2023-24"]),
      finance: ["F-33 FY2023"],
      people: ["demo", "test"],
      findings: expect.arrayContaining(["extraction", "test"]),
      events: ["extraction"],
      narrative: "extractive (no language model)",
      demo_sections: ["people"],
      extraction_sections: ["findings", "events"],
    });
  });

  it("a bid's status is the one the district record serves: open only until its deadline (contract section 4)", async () => {
    const served = (await t.get(`/api/v1/districts/${district}`).expect(200)).body.data.bids;
    const status = (bids: { title: string; status: string }[]) => Object.fromEntries(bids.map((b) => [b.title, b.status]));
    expect(status(dossier.findings.bids)).toEqual(status(served));
    expect(status(dossier.findings.bids)).toEqual({ "Open RFP prairie": "open", "Lapsed RFP prairie": "closed" });
    expect(dossier.narrative.text).not.toContain("open bid: Lapsed RFP prairie");
  });

  it("the findings lists are the district record's lists: the same rows, in the same order, as its blocks serve them", async () => {
    // Where a second reader went wrong: a vendor named twice (and first named after another by name order), two
    // funding rows of one year whose ids sort against their sources, a contract with a vendor the district does
    // not list as its own.
    const agreeing = await insertDistrict(db, { name: "Agreeing Brief District", state: "NE", status: "completed" });
    const owner = { entity_type: "district", district_id: agreeing };
    const zeta = await insert(db, "vendors", { name: `Zeta Tutoring ${agreeing}`, category: "tutoring", data_source: "test" });
    const alpha = await insert(db, "vendors", { name: `Alpha Learning ${agreeing}`, category: "lms", data_source: "test" });
    const other = await insert(db, "vendors", { name: `Other Vendor ${agreeing}`, category: "other", data_source: "test" });
    // Found a day apart: rows inserted within one millisecond (the column's precision) tie, and the tie goes by id.
    const found = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();
    await insert(db, "entity_vendors", {
      ...owner,
      vendor_id: zeta,
      source_url: "https://example.test/zeta-1",
      data_source: "test",
      created_at: found(1),
    });
    await insert(db, "entity_vendors", { ...owner, vendor_id: alpha, source_url: "https://example.test/alpha", data_source: "test" });
    await insert(db, "entity_vendors", {
      ...owner,
      vendor_id: zeta,
      source_url: "https://example.test/zeta-2",
      data_source: "test",
      created_at: found(2),
    });
    const [low, high] = [crypto.randomUUID(), crypto.randomUUID()].sort();
    await insert(db, "funding", { ...owner, id: low, source: "title_i", amount: 100, fiscal_year: 2026, data_source: "test" });
    await insert(db, "funding", { ...owner, id: high, source: "e_rate", amount: 200, fiscal_year: 2026, data_source: "test" });
    await insert(db, "contracts", {
      ...owner,
      vendor_id: other,
      category: "other",
      amount: 10,
      expires_on: "2027-06-30",
      data_source: "test",
    });
    await insertIntelligence(db, { district_id: agreeing }, "agreeing");
    await insertUnlock(db, t.orgs.enterprise, "district", agreeing);

    const { brief_id } = (await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: agreeing }).expect(202))
      .body;
    const { findings } = (await poll(t, brief_id)).dossier;
    const served = (await t.get(`/api/v1/districts/${agreeing}`).expect(200)).body.data;
    const pick = (rows: Record<string, unknown>[], keys: string[]) => rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));
    const lists: Record<string, string[]> = {
      vendors: ["name", "category"],
      funding: ["source", "amount", "fiscal_year", "description"],
      contracts: ["vendor_name", "category", "amount", "starts_on", "expires_on"],
      pain_points: ["category", "description", "source_url", "detected_at"],
      bids: ["title", "status", "posted_on", "deadline_at", "url"],
    };
    for (const [list, keys] of Object.entries(lists)) expect([list, pick(findings[list], keys)]).toEqual([list, pick(served[list], keys)]);
    expect(findings.vendors.map((v: any) => v.name)).toEqual([
      `Alpha Learning ${agreeing}`,
      expect.stringMatching(/^Vendor agreeing/),
      `Zeta Tutoring ${agreeing}`,
    ]);
    // A vendor named twice is cited where it was first found.
    expect(findings.vendors[2]).toMatchObject({ source_url: "https://example.test/zeta-1", data_source: "test" });
    expect(findings.funding.map((f: any) => f.source)).toEqual(["e_rate", "title_i", "title_i"]);
  });

  it("the events are the record's events block: the same rows, order and gating as it serves the organization", async () => {
    // More events than the dossier holds; a gated kind; two events of one day whose ids sort against their
    // creation (the block breaks ties by created_at, then id).
    const eventful = await insertDistrict(db, { name: "Eventful Brief District", state: "NE", status: "completed" });
    const [low, high] = [crypto.randomUUID(), crypto.randomUUID()].sort();
    const created = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
    for (let i = 0; i < DOSSIER_EVENTS_LIMIT + 2; i += 1)
      await insertEvent(db, "district", eventful, `2026-0${1 + (i % 9)}-1${i % 7}`, { title: `News ${i}`, created_at: created(i) });
    await insertEvent(db, "district", eventful, "2026-11-02", {
      id: high,
      event_type: "contract_award",
      title: "Board approves a contract with Brightline for $90,000",
      description: "Minutes: the Brightline contract, $90,000 through 2028.",
      source_url: "https://example.test/eventful/minutes.pdf",
      data_source: "extraction",
      created_at: created(30),
    });
    await insertEvent(db, "district", eventful, "2026-11-02", { id: low, title: "Later the same day", created_at: created(31) });
    await insertUnlock(db, t.orgs.enterprise, "district", eventful);
    const internalProject = (await t.post("/api/v1/projects", { name: "Internal briefs" }, "internal").expect(201)).body.data.id;

    const keys = ["event_date", "event_type", "title", "description", "source_url"];
    const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    for (const [plan, projectId, unlocked] of [
      ["enterprise", project, true],
      ["internal", internalProject, false],
    ] as const) {
      const { brief_id } = (
        await t.post("/api/v1/briefs", { project_id: projectId, entity_type: "district", entity_id: eventful }, plan).expect(202)
      ).body;
      const { events } = (await poll(t, brief_id, plan)).dossier;
      const served = await t.graphql(
        `query($id: UUID!, $n: Int!) { district(id: $id) { events(limit: $n) { ${keys.map(camel).join(" ")} } } }`,
        { id: eventful, n: DOSSIER_EVENTS_LIMIT },
        plan,
      );
      expect(served.errors).toBeUndefined();
      const blockEvents = served.data.district.events.map((e: Record<string, unknown>) =>
        Object.fromEntries(keys.map((k) => [k, e[camel(k)]])),
      );
      expect([plan, events.map((e: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, e[k]])))]).toEqual([
        plan,
        blockEvents,
      ]);
      expect(blockEvents.slice(-2).map((e: any) => e.title)).toEqual([
        unlocked ? "Board approves a contract with Brightline for $90,000" : "Contract award recorded",
        "Later the same day",
      ]);
      expect(events.at(-2).data_source).toBe("extraction");
    }
  });

  it("reads each findings list bounded, the most recent first, and says which lists were cut", async () => {
    const busy = await insertDistrict(db, { name: "Busy Brief District", state: "NE", status: "completed" });
    for (let i = 0; i < FINDINGS_LIMIT + 5; i += 1)
      await insert(db, "bids", {
        entity_type: "district",
        district_id: busy,
        title: `Bid ${i}`,
        status: "closed",
        posted_on: new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10),
        url: `https://example.test/bid-${i}`,
        data_source: "test",
      });
    await insertUnlock(db, t.orgs.enterprise, "district", busy);
    const { brief_id } = (await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: busy }).expect(202))
      .body;
    const brief = await poll(t, brief_id);
    expect(brief.status).toBe("ready");
    expect(brief.dossier.findings.truncated).toEqual(["bids"]);
    expect(brief.dossier.findings.bids).toHaveLength(FINDINGS_LIMIT);
    expect(brief.dossier.findings.bids[0].title).toBe(`Bid ${FINDINGS_LIMIT + 4}`);
    expect(brief.dossier.findings.bids.map((b: any) => b.title)).not.toContain("Bid 0");
  });

  it("a ready brief is reused: 200, started false, no new build", async () => {
    const again = (await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }).expect(200)).body;
    expect(again).toEqual({ brief_id: briefId, status: "ready", started: false, poll: `/api/v1/briefs/${briefId}` });
    const jobs = await db.query(`SELECT 1 FROM pgboss.job WHERE name = 'briefs.build' AND data->>'briefId' = $1`, [briefId]);
    expect(jobs).toHaveLength(1);
  });

  it("promote links the catalogue contact, or makes an unlinked record that a later promote links", async () => {
    const adaKey = dossier.people[0].person_key;
    const linked = await t.post(`/api/v1/briefs/${briefId}/people/${adaKey}/promote`, undefined).expect(201);
    expect(linked.body.data).toMatchObject({
      brief_id: briefId,
      person_key: adaKey,
      project_id: project,
      entity_type: "district",
      entity_id: district,
      name: "Ada Quillfeather",
      title: "Superintendent",
      contact_id: ada,
      linked: true,
      brief_reference: { brief_id: briefId, person_key: adaKey, section: "people" },
      contact: expect.objectContaining({
        id: ada,
        name: "Ada Quillfeather",
        email: null,
        _access: expect.objectContaining({ is_unlocked: false }),
      }),
    });
    const repeat = await t.post(`/api/v1/briefs/${briefId}/people/${adaKey}/promote`, undefined).expect(200);
    expect(repeat.body.data.id).toBe(linked.body.data.id);

    const rosaKey = dossier.people[1].person_key;
    const unlinked = (await t.post(`/api/v1/briefs/${briefId}/people/${rosaKey}/promote`, undefined).expect(201)).body.data;
    expect(unlinked).toMatchObject({ name: "Rosa Brambleworth", contact_id: null, linked: false, linked_at: null, contact: null });
    // The record holds the reference, never the brief's prose.
    const [row] = await db.query<Record<string, unknown>>(`SELECT * FROM promoted_contacts WHERE id = $1`, [unlinked.id]);
    expect(JSON.stringify(row)).not.toMatch(/Extractive|shortage|literacy/i);

    // The catalogue lists her later: the next promote links the same record.
    const rosa = await insert(db, "contacts", {
      name: "Rosa  Brambleworth",
      title: "Director",
      district_id: district,
      data_source: "extraction",
    });
    const merged = (await t.post(`/api/v1/briefs/${briefId}/people/${rosaKey}/promote`, undefined).expect(200)).body.data;
    expect(merged).toMatchObject({ id: unlinked.id, contact_id: rosa, linked: true, linked_at: expect.any(String) });
    expect(await db.query(`SELECT count(*)::int AS n FROM promoted_contacts WHERE brief_id = $1`, [briefId])).toEqual([{ n: 2 }]);

    // Another organization cannot promote from this brief.
    await t.post(`/api/v1/briefs/${briefId}/people/${adaKey}/promote`, undefined, "internal").expect(404);
  });

  it("withholds the findings when the organization has not unlocked the entity (free plan, following)", async () => {
    const freeProject = (await t.post("/api/v1/projects", { name: "Free briefs" }, "free").expect(201)).body.data.id;
    await t.post("/api/v1/follows", { project_id: freeProject, entity_type: "district", entity_id: district }, "free").expect(201);
    const { brief_id } = (
      await t.post("/api/v1/briefs", { project_id: freeProject, entity_type: "district", entity_id: district }, "free").expect(202)
    ).body;
    const brief = await poll(t, brief_id, "free");
    expect(brief.status).toBe("ready");
    expect(brief.dossier.findings).toEqual({ included: false, note: expect.stringMatching(/withheld/) });
    expect(JSON.stringify(brief.dossier)).not.toMatch(/shortage of special education|Literacy for every student|Vendor prairie/);
    expect(brief.dossier.data_source.findings).toEqual([]);
    // The public parts are the same figures.
    expect(brief.dossier.statistics).toEqual(dossier.statistics);
    // The same person has the same key in another organization's brief of the entity.
    expect(brief.dossier.people.map((p: any) => p.person_key)).toEqual(dossier.people.map((p: any) => p.person_key));
  });

  it("builds a school's dossier from the school's own rows, with its district", async () => {
    const school = await insertSchool(db, { name: "Prairie Brief Elementary", district_id: district, state: "NE", student_count: 410 });
    await insertSchoolStats(db, school, 2022, { total_enrollment: 400, free_or_reduced_price_lunch_pct: 41.5 });
    await insertSchoolStats(db, school, 2023, { total_enrollment: 410, free_or_reduced_price_lunch_pct: 39 });
    const { brief_id } = (await t.post("/api/v1/briefs", { project_id: project, entity_type: "school", entity_id: school }).expect(202))
      .body;
    const brief = await poll(t, brief_id);
    expect(brief).toMatchObject({ status: "ready", entity_type: "school", entity_id: school });
    expect(brief.dossier.profile).toMatchObject({ name: "Prairie Brief Elementary", student_count: 410, district: { id: district } });
    expect(brief.dossier.statistics.trend.map((e: any) => [e.total_enrollment, e.free_or_reduced_price_lunch_pct])).toEqual([
      [400, 41.5],
      [410, 39],
    ]);
    expect(brief.dossier.statistics.enrollment_change).toEqual({ from: 2022, to: 2023, absolute: 10, percent: 2.5 });
    expect(brief.dossier.finance).toBeNull();
    // The district's people are not the school's.
    expect(brief.dossier.people).toEqual([]);
  });

  it("a build that fails after its retries leaves the brief failed with the error", async () => {
    // Its own database: no worker runs until the district is gone. An API process without a worker accepts the
    // request and stops; the district is deleted; then a worker process finds the job.
    const own = await createTestDb();
    try {
      const api = await createTestApp(FAST, { jobs: "send", db: own });
      const doomed = await insertDistrict(own, { name: "Vanishing District" });
      const apiProject = (await api.post("/api/v1/projects", { name: "Doomed" }).expect(201)).body.data.id;
      const { brief_id } = (
        await api.post("/api/v1/briefs", { project_id: apiProject, entity_type: "district", entity_id: doomed }).expect(202)
      ).body;
      await own.query(`DELETE FROM districts WHERE id = $1`, [doomed]);
      await api.close();
      const worker = await createTestApp(FAST, { jobs: "work", db: own });
      try {
        const row = await until(
          () => own.prisma.brief.findUniqueOrThrow({ where: { id: brief_id }, select: { status: true, error: true, finished_at: true } }),
          (b) => b.status !== "building",
        );
        expect(row).toEqual({
          status: "failed",
          error: `build failed: district ${doomed} no longer exists`,
          finished_at: expect.any(Date),
        });
        const read = (await worker.get(`/api/v1/briefs/${brief_id}`).expect(404)).body;
        expect(read).toMatchObject({ error: "not_found" }); // the new process's organizations are others
      } finally {
        await worker.close();
      }
    } finally {
      await own.close();
    }
  });
});
