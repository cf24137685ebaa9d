/**
 * Opportunities end to end on a real app, worker and database (docs/opportunities.md): the agent's first rows for a
 * new project (from the worker's sweep), the profile's conditions, deduplication, supplementary prospects, the
 * verification table against a local fixture server (one source up and unchanged, one changed, one gone, one
 * unreachable), windows under a controllable clock, a refresh while one runs, REST, GraphQL, MCP and tenant isolation.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { isoDay, setClock } from "../../src/config/clock";
import { runOpportunityAgent } from "../../src/features/research/opportunities/opportunity.agent";
import { createTestApp, type TestApp } from "../support/app";
import { insert, insertDistrict, insertDistrictStats } from "../support/factories";
import { insertUnlock } from "../support/school-factories";
import { countStatements } from "../support/statements";
import { until } from "../support/wait";

const BOND_SENTENCE = "The Prairie View board approved a $48 million bond for two new elementary schools on Tuesday night.";
const PAGE = (body: string) => `<!doctype html><html><head><title>Prairie View news</title></head><body><article><h1>District news</h1>
  <p>${body}</p><p>Construction is expected to start next spring, the superintendent said, after the design phase ends.</p></article></body></html>`;

const daysAgo = (n: number) => isoDay(new Date(Date.now() - n * 86_400_000));

type Row = Record<string, any>;

describe("opportunities", () => {
  let t: TestApp;
  let fixture: http.Server;
  let base: string;
  let closedUrl: string;
  let ne: string;
  let ca: string;
  let ia: string;
  let contactId: string;
  let project: string;
  let rows: Row[];
  const byType = (type: string) => rows.find((r) => r.signal_type === type)!;

  beforeAll(async () => {
    fixture = http.createServer((req, res) => {
      if (req.url === "/story-up") res.writeHead(200, { "content-type": "text/html" }).end(PAGE(BOND_SENTENCE));
      else if (req.url === "/story-changed")
        res.writeHead(200, { "content-type": "text/html" }).end(PAGE("The district's request for proposals was withdrawn."));
      else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    });
    await new Promise<void>((resolve) => fixture.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
    // A port nobody listens on: the unreachable source.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/story`;
    await new Promise((resolve) => probe.close(resolve));

    t = await createTestApp({ EXTRACTION_ALLOW_PRIVATE_HOSTS: "true", WORKER_POLL_SECONDS: "0.5" }, { jobs: "work" });
    ne = await insertDistrict(t.db, {
      name: "Prairie View Public Schools",
      state: "NE",
      physical_city: "Kearney",
      student_count: 5200,
      status: "completed",
    });
    ca = await insertDistrict(t.db, { name: "Coastal Unified", state: "CA", student_count: 9000 });
    ia = await insertDistrict(t.db, { name: "Cedar Valley Community Schools", state: "IA", student_count: 1100 });
    await insertDistrict(t.db, { name: "Flat Creek Schools", state: "IA", student_count: 800 });
    await insertDistrictStats(t.db, ia, 2019, { total_enrollment: 1000 });
    await insertDistrictStats(t.db, ia, 2023, { total_enrollment: 1100 });
    contactId = await insert(t.db, "contacts", {
      district_id: ne,
      name: "Dana Whitfield",
      title: "Superintendent",
      email: "dana.whitfield@prairieview.example",
      is_district_contact: true,
      source: "district_website",
      data_source: "test",
    });

    const article = async (url: string, signal: Record<string, unknown>) => {
      const id = await insert(t.db, "articles", {
        url,
        title: `Story at ${url}`,
        published_at: `${daysAgo(5)}T12:00:00Z`,
        data_source: "test",
      });
      await insert(t.db, "signals", {
        article_id: id,
        buying_intent: "medium",
        buying_intent_reason: "Money approved.",
        summary: "A summary.",
        signal_date: daysAgo(5),
        extraction_confidence: 0.9,
        evidence: JSON.stringify([{ text: "It happened.", start: 0, end: 12 }]),
        payload: {},
        entity_type: "district",
        entity_resolution_status: "resolved",
        entity_match_confidence: 0.95,
        entity_match_reason: "name and state",
        district_id: ne,
        data_source: "test",
        ...signal,
      });
    };
    await article(`${base}/story-up`, {
      signal_type: "facility_bond",
      summary: BOND_SENTENCE,
      evidence: JSON.stringify([{ text: BOND_SENTENCE, start: 0, end: BOND_SENTENCE.length }]),
    });
    await article(`${base}/story-changed`, {
      signal_type: "rfp_released",
      signal_date: daysAgo(20),
      evidence: JSON.stringify([
        { text: "Prairie View issued a request for proposals for classroom devices due next month.", start: 0, end: 80 },
      ]),
    });
    await article(`${base}/story-gone`, { signal_type: "staffing_shortage" });
    await article(closedUrl, { signal_type: "technology_initiative" });
    await article(`${base}/noise`, { signal_type: "noise" });
    await article(`${base}/elsewhere`, { signal_type: "facility_bond", district_id: ca });
    await article(`${base}/unresolved`, { signal_type: "grant_award", district_id: null, entity_resolution_status: "unresolved" });
    await article(`${base}/old`, { signal_type: "grant_award", signal_date: daysAgo(500) });
  });
  afterAll(async () => {
    setClock(null);
    await t?.close();
    await new Promise((resolve) => fixture?.close(resolve));
  });

  it("writes a new project's first opportunities within a minute: resolved, recent signals of fitting entities, one row each", async () => {
    const created = await t.post(
      "/api/v1/projects",
      { name: "Nebraska districts", icp: { states: ["NE"], entity_types: ["district"] } },
      "enterprise",
    );
    expect(created.status).toBe(201);
    project = created.body.data.id;
    const page = await until(
      async () => (await t.get(`/api/v1/opportunities?project_id=${project}`, "enterprise")).body,
      (body) => body.data?.length >= 4,
      120_000, // a liveness bound, not a timing claim (about a second here; the worker's sweep runs every 0.5 s)
    );
    rows = page.data;
    expect(rows.map((r: Row) => r.signal_type).sort()).toEqual([
      "facility_bond",
      "rfp_released",
      "staffing_shortage",
      "technology_initiative",
    ]);
    expect(page.pagination).toEqual({ total: 4, limit: 50, offset: 0, has_more: false });
    for (const row of rows) {
      expect(row).toMatchObject({
        project_id: project,
        entity_type: "district",
        district_id: ne,
        school_id: null,
        supplementary: false,
        verification_status: "unverified",
        last_verified_at: null,
        verification_note: null,
        source_checks: [],
        geo_scope: "Kearney, NE",
        data_source: "agent",
      });
      expect(row.signal_ids).toHaveLength(1);
      expect(row.title).toContain("Prairie View Public Schools (NE)");
      expect(row.suggested_action.length).toBeGreaterThan(10);
      expect(row.suggested_prompts.length).toBeGreaterThan(0);
      expect(row.confidence).toBeGreaterThan(0);
      expect(row.confidence).toBeLessThanOrEqual(1);
    }
    const bond = byType("facility_bond");
    expect(bond.why_now).toContain(BOND_SENTENCE);
    expect(bond.source_urls).toEqual([`${base}/story-up`]);
    expect(bond).toMatchObject({ event_date: daysAgo(5), event_date_basis: "signal_date", window_status: "open" });
    // The entity's listed contact, its email gated (the organization has not unlocked the contact).
    expect(bond.contacts).toEqual([
      {
        contact_id: contactId,
        name: "Dana Whitfield",
        title: "Superintendent",
        email: null,
        email_status: "pending",
        source: "district_website",
      },
    ]);
    expect(byType("staffing_shortage")).toMatchObject({ window_status: "durable", window_ends_on: null });
    // An RFP runs 30 days from its date: 20 days ago leaves 10, so it is closing.
    expect(byType("rfp_released")).toMatchObject({
      window_status: "closing",
      window_ends_on: isoDay(new Date(Date.parse(daysAgo(20)) + 30 * 86_400_000)),
    });
  });

  it("never writes the same (project, entity, signal) twice", async () => {
    const again = await runOpportunityAgent(t.db, project);
    expect(again).toEqual({ signalBased: 0, supplementary: 0 });
    const count = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM opportunities WHERE project_id = $1`, [project]);
    expect(count[0]!.n).toBe(4);
  });

  it("verifies each source: up and unchanged confirmed; changed, gone and unreachable are unreachable with their checks", async () => {
    for (const row of rows) {
      const refreshed = await t.post(`/api/v1/opportunities/${row.id}/refresh`, {}, "enterprise");
      expect(refreshed.status).toBe(202);
      expect(refreshed.body).toEqual({ verification_status: "verifying", started: true });
    }
    const verdict = async (id: string) => (await t.get(`/api/v1/opportunities/${id}/verification`, "enterprise")).body;
    const settled = async (id: string) =>
      until(
        () => verdict(id),
        (v) => v.verification_status !== "verifying",
        60_000,
      );

    const up = await settled(byType("facility_bond").id);
    expect(up).toMatchObject({ verification_status: "confirmed", window_status: "open" });
    expect(up.last_verified_at).toEqual(expect.any(String));
    expect(up.source_checks).toEqual([
      { url: `${base}/story-up`, checked_at: up.last_verified_at, status: "ok", note: expect.stringContaining("still saying it") },
    ]);

    const changed = await settled(byType("rfp_released").id);
    expect(changed.verification_status).toBe("unreachable");
    expect(changed.source_checks).toMatchObject([{ url: `${base}/story-changed`, status: "changed" }]);

    const gone = await settled(byType("staffing_shortage").id);
    expect(gone).toMatchObject({ verification_status: "unreachable", window_status: "durable" });
    expect(gone.source_checks).toMatchObject([{ status: "gone", note: expect.stringContaining("404") }]);

    const unreachable = await settled(byType("technology_initiative").id);
    expect(unreachable.verification_status).toBe("unreachable");
    expect(unreachable.source_checks).toMatchObject([{ url: closedUrl, status: "unreachable" }]);

    // The list shows the verdict too.
    const listed = (await t.get(`/api/v1/opportunities/${byType("facility_bond").id}`, "enterprise")).body.data;
    expect(listed).toMatchObject({ verification_status: "confirmed", verification_note: expect.stringContaining("1 of 1") });
  });

  it("starts no second run while one is in flight", async () => {
    const id = byType("facility_bond").id;
    const both = await Promise.all([1, 2].map(() => t.post(`/api/v1/opportunities/${id}/refresh`, {}, "enterprise")));
    expect(both.map((r) => r.status)).toEqual([202, 202]);
    expect(both.map((r) => r.body.started).sort()).toEqual([false, true]);
    const runs = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'opportunities.verify' AND data->>'opportunityId' = $1`,
      [id],
    );
    expect(runs[0]!.n).toBe(2); // the first test's run and one of these two
    await until(
      async () => (await t.get(`/api/v1/opportunities/${id}/verification`, "enterprise")).body,
      (v) => v.verification_status !== "verifying",
    );
  });

  it("decides windows from dates and the clock, independently of the verdict", async () => {
    setClock(() => new Date(Date.now() + 400 * 86_400_000));
    try {
      const bond = (await t.get(`/api/v1/opportunities/${byType("facility_bond").id}/verification`, "enterprise")).body;
      expect(bond).toMatchObject({ verification_status: "confirmed", window_status: "closed" });
      expect((await t.get(`/api/v1/opportunities/${byType("staffing_shortage").id}/verification`, "enterprise")).body.window_status).toBe(
        "durable",
      );
      // A run under the moved clock stores the same window.
      const id = byType("facility_bond").id;
      await t.post(`/api/v1/opportunities/${id}/refresh`, {}, "enterprise");
      await until(
        async () => (await t.get(`/api/v1/opportunities/${id}/verification`, "enterprise")).body,
        (v) => v.verification_status !== "verifying",
      );
      const stored = await t.db.query<{ window_status: string }>(`SELECT window_status FROM opportunities WHERE id = $1`, [id]);
      expect(stored[0]!.window_status).toBe("closed");
    } finally {
      setClock(null);
    }
    expect((await t.get(`/api/v1/opportunities/${byType("facility_bond").id}`, "enterprise")).body.data.window_status).toBe("open");
  });

  it("prospects from the catalogue when no signal matches (supplementary), verified against the catalogue", async () => {
    const created = await t.post("/api/v1/projects", { name: "Iowa", icp: { states: ["IA"] } }, "pro");
    const iowa = created.body.data.id;
    const page = await until(
      async () => (await t.get(`/api/v1/opportunities?project_id=${iowa}&supplementary=true`, "pro")).body,
      (body) => body.data?.length >= 1,
    );
    expect(page.data).toHaveLength(1); // Flat Creek has no reason in the data
    const prospect = page.data[0];
    expect(prospect).toMatchObject({
      district_id: ia,
      supplementary: true,
      signal_ids: [],
      signal_type: null,
      event_date: "2023-10-01",
      event_date_basis: "federal_school_year",
      window_status: "durable",
      verification_status: "unverified",
    });
    expect(prospect.why_now).toContain("from 1000 (2019-20) to 1100 (2023-24), +10%");
    expect((await t.get(`/api/v1/opportunities?project_id=${iowa}&supplementary=false`, "pro")).body.data).toEqual([]);

    await t.post(`/api/v1/opportunities/${prospect.id}/refresh`, {}, "pro");
    const verdict = async () => (await t.get(`/api/v1/opportunities/${prospect.id}/verification`, "pro")).body;
    const confirmed = await until(verdict, (v) => v.verification_status !== "verifying");
    expect(confirmed.verification_status).toBe("confirmed");
    expect(confirmed.source_checks).toMatchObject([{ url: `/api/v1/districts/${ia}`, status: "ok" }]);
    // The federal figures change (a corrected file): the claim no longer stands.
    await t.db.query(`UPDATE district_annual_stats SET total_enrollment = 1005 WHERE district_id = $1 AND school_year_start = 2023`, [ia]);
    await t.post(`/api/v1/opportunities/${prospect.id}/refresh`, {}, "pro");
    const changed = await until(verdict, (v) => v.verification_status !== "verifying");
    expect(changed.verification_status).toBe("unreachable");
    expect(changed.source_checks).toMatchObject([{ status: "changed" }]);

    // A changed profile makes the agent run again: Nebraska's signals now match, once the organization may read them
    // (the pro plan has no signals module: the signals of districts it unlocked).
    await insertUnlock(t.db, t.orgs.pro, "district", ne);
    const patched = await t.http
      .patch(`/api/v1/projects/${iowa}`)
      .set("Authorization", `Bearer ${t.keys.pro}`)
      .send({ icp: { states: ["NE"], signal_types: ["facility_bond"] } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.icp).toEqual({ states: ["NE"], signal_types: ["facility_bond"] });
    const signalBased = await until(
      async () => (await t.get(`/api/v1/opportunities?project_id=${iowa}&supplementary=false`, "pro")).body,
      (body) => body.data?.length >= 1,
    );
    expect(signalBased.data.map((r: Row) => r.signal_type)).toEqual(["facility_bond"]);
  });

  it("uses only the signals the organization may read: without the signals module, those of entities it follows or unlocked", async () => {
    const created = await t.post("/api/v1/projects", { name: "Nebraska, free", icp: { states: ["NE"] } }, "free");
    const id = created.body.data.id;
    await until(
      async () => (await t.db.query<{ run: unknown }>(`SELECT opportunities_run_at AS run FROM projects WHERE id = $1`, [id]))[0]!.run,
      (run) => run !== null,
    );
    expect((await t.get(`/api/v1/opportunities?project_id=${id}&supplementary=false`, "free")).body.data).toEqual([]);
    // Followed: its signals are the organization's to read, and the agent writes their opportunities.
    await t.post("/api/v1/follows", { project_id: id, entity_type: "district", entity_id: ne }, "free").expect(201);
    await t.http
      .patch(`/api/v1/projects/${id}`)
      .set("Authorization", `Bearer ${t.keys.free}`)
      .send({ icp: { states: ["NE"], signal_types: ["facility_bond"] } })
      .expect(200);
    const page = await until(
      async () => (await t.get(`/api/v1/opportunities?project_id=${id}&supplementary=false`, "free")).body,
      (body) => body.data?.length >= 1,
    );
    expect(page.data.map((r: Row) => r.signal_type)).toEqual(["facility_bond"]);
  });

  it("shows a contact's email on the opportunities naming it once the organization unlocks the contact", async () => {
    const before = (await t.get(`/api/v1/opportunities?project_id=${project}`, "enterprise")).body.data as Row[];
    for (const row of before) expect(row.contacts).toMatchObject([{ contact_id: contactId, email: null }]);
    await insertUnlock(t.db, t.orgs.enterprise, "contact", contactId);
    const unlocked = (await t.get(`/api/v1/opportunities?project_id=${project}`, "enterprise")).body.data as Row[];
    for (const row of unlocked)
      expect(row.contacts).toMatchObject([{ contact_id: contactId, email: "dana.whitfield@prairieview.example" }]);
  });

  it("answers 400 for bad parameters and 404 for unknown ids", async () => {
    expect((await t.get(`/api/v1/opportunities?supplementary=maybe`, "enterprise")).status).toBe(400);
    expect((await t.get(`/api/v1/opportunities?limit=201`, "enterprise")).status).toBe(400);
    expect((await t.get(`/api/v1/opportunities?project_id=nope`, "enterprise")).status).toBe(400);
    expect((await t.get(`/api/v1/opportunities?order_by=title`, "enterprise")).body.message).toContain("order_by");
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const path of [`/api/v1/opportunities/${unknown}`, `/api/v1/opportunities/${unknown}/verification`])
      expect((await t.get(path, "enterprise")).status).toBe(404);
    expect((await t.post(`/api/v1/opportunities/${unknown}/refresh`, {}, "enterprise")).status).toBe(404);
    const withBody = await t.post(`/api/v1/opportunities/${rows[0]!.id}/refresh`, { force: true }, "enterprise");
    expect([withBody.status, withBody.body.message]).toEqual([400, expect.stringContaining("force")]);
    expect((await t.get(`/api/v1/opportunities?project_id=${unknown}`, "enterprise")).status).toBe(404);
  });

  it("keeps every opportunity to its organization: another one reads, refreshes and filters none of them (404, never 403)", async () => {
    const id = rows[0]!.id;
    for (const plan of ["free", "pro", "internal"] as const) {
      expect((await t.get(`/api/v1/opportunities/${id}`, plan)).status).toBe(404);
      expect((await t.get(`/api/v1/opportunities/${id}/verification`, plan)).status).toBe(404);
      expect((await t.post(`/api/v1/opportunities/${id}/refresh`, {}, plan)).status).toBe(404);
      expect((await t.get(`/api/v1/opportunities?project_id=${project}`, plan)).status).toBe(404);
      const all = (await t.get(`/api/v1/opportunities?limit=200`, plan)).body.data as Row[];
      expect(all.filter((r) => r.project_id === project)).toEqual([]);
      const gql = await t.graphql(`query ($id: UUID!) { opportunity(id: $id) { id } opportunities { data { id } } }`, { id }, plan);
      expect(gql.data.opportunity).toBeNull();
      expect(gql.data.opportunities.data.map((r: Row) => r.id)).not.toContain(id);
      const refresh = await t.graphql(`mutation ($id: UUID!) { refreshOpportunity(id: $id) { started } }`, { id }, plan);
      expect(refresh.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    }
  });

  it("serves the list and the refresh as MCP tools", async () => {
    const port = (t.server.address() as AddressInfo).port;
    const client = new Client({ name: "edmarket-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${t.keys.enterprise}` } },
      }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        JSON.parse(((await client.callTool({ name, arguments: args })) as { content: { text: string }[] }).content[0]!.text);
      const listed = await call("list_opportunities", { filter: { projectId: project }, limit: 2 });
      expect(listed.data).toHaveLength(2);
      expect(listed.pagination.total).toBe(4);
      const id = byType("staffing_shortage").id;
      const refreshed = await call("refresh_opportunity", { id });
      expect(refreshed.verification_status ?? refreshed.verificationStatus).toBe("verifying");
      const verdict = await until(
        () => call("opportunity_verification", { id }),
        (v) => (v.verification_status ?? v.verificationStatus) !== "verifying",
      );
      expect(verdict.verification_status ?? verdict.verificationStatus).toBe("unreachable");
    } finally {
      await client.close();
    }
  });

  it("runs again when a signal arrives: the project gains the new signal's opportunity", async () => {
    const id = await insert(t.db, "articles", {
      url: `${base}/grant`,
      title: "Prairie View wins a state literacy grant",
      published_at: `${daysAgo(1)}T12:00:00Z`,
      data_source: "test",
    });
    await insert(t.db, "signals", {
      article_id: id,
      signal_type: "grant_award",
      buying_intent: "high",
      summary: "Prairie View Public Schools won a $250,000 state literacy grant.",
      signal_date: daysAgo(1),
      extraction_confidence: 0.8,
      entity_type: "district",
      entity_resolution_status: "resolved",
      entity_match_confidence: 1,
      district_id: ne,
      data_source: "test",
    });
    const page = await until(
      async () => (await t.get(`/api/v1/opportunities?project_id=${project}&supplementary=false`, "enterprise")).body,
      (body) => body.data?.length >= 5,
    );
    const grant = page.data.find((r: Row) => r.signal_type === "grant_award");
    expect(grant).toMatchObject({ confidence: 0.8, verification_status: "unverified", window_status: "open" });
    expect(grant.window_ends_on).toBe(isoDay(new Date(Date.parse(daysAgo(1)) + 180 * 86_400_000)));
  });
});

// Statement counts need a database no worker shares (its sweep runs statements too): an app without jobs, the agent run directly.
describe("opportunities: statements per request", () => {
  let t: TestApp;
  let project: string;
  beforeAll(async () => {
    t = await createTestApp();
    const district = await insertDistrict(t.db, { name: "Counted District", state: "NE", status: "completed" });
    for (const name of ["Avery Counted", "Blair Counted"])
      await insert(t.db, "contacts", { district_id: district, name, title: "Director", is_district_contact: true, data_source: "test" });
    for (const [n, type] of ["facility_bond", "rfp_released", "grant_award", "leadership_change"].entries()) {
      const article = await insert(t.db, "articles", {
        url: `https://news.example.org/counted-${n}`,
        title: `Counted ${n}`,
        data_source: "test",
      });
      await insert(t.db, "signals", {
        article_id: article,
        signal_type: type,
        buying_intent: "medium",
        signal_date: daysAgo(3),
        entity_type: "district",
        entity_resolution_status: "resolved",
        district_id: district,
        data_source: "test",
      });
    }
    project = await insert(t.db, "projects", { organization_id: t.orgs.enterprise, name: "Counted" });
    await insert(t.db, "projects", { organization_id: t.orgs.enterprise, name: "Counted too" });
    expect(await runOpportunityAgent(t.db, project)).toEqual({ signalBased: 4, supplementary: 0 });
  });
  afterAll(() => t?.close());

  it("reads a page in the same statements for 1 row or 4: the key, the project check, the page, the contacts", async () => {
    const page = (limit: number) => () =>
      t.get(`/api/v1/opportunities?project_id=${project}&order_by=confidence&order_ascending=false&limit=${limit}`, "enterprise");
    expect(await countStatements(t.db, page(1))).toBe(4);
    expect(await countStatements(t.db, page(50))).toBe(4);
    expect((await page(50)()).body.data[0].contacts.map((c: Row) => c.name)).toEqual(["Avery Counted", "Blair Counted"]);
  });

  it("reads Project.opportunities with their contacts without N+1", async () => {
    const query = (limit: number) =>
      `{ projects { id opportunities(limit: ${limit}, orderBy: confidence, orderAscending: false) { data { id contacts { name email } } pagination { total } } } }`;
    const one = await countStatements(t.db, () => t.graphql(query(1), {}, "enterprise"));
    expect(await countStatements(t.db, () => t.graphql(query(10), {}, "enterprise"))).toBe(one);
    // The key, the projects, their pages (one statement), the contacts (one batch).
    expect(one).toBe(4);
    const body = await t.graphql(query(10), {}, "enterprise");
    expect(body.data.projects.find((p: Row) => p.id === project).opportunities.pagination.total).toBe(4);
  });
});
