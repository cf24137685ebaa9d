/**
 * POST /semantic-search (issue 24) on a real database with the real offline model (loaded once in this file):
 * hybrid retrieval by name and by meaning, query hints, filters, matches with their source, coverage, gating
 * and the contacts' listing rule, charging through the ledger (402, nothing charged on a 400), and the
 * GraphQL and MCP faces. Background embedding is off (EMBEDDINGS_AUTO=false): the file embeds what it needs.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { embeddingProvider, normalize, type EmbeddingProvider } from "../../src/features/research/semantic-search/embeddings.provider";
import { embedPending } from "../../src/features/research/semantic-search/semantic-search.indexer";
import { SemanticSearchEntityType } from "../../src/features/research/semantic-search/semantic-search.inputs";
import { rankEntities } from "../../src/features/research/semantic-search/semantic-search.service";
import { loadEnv } from "../../src/config/env";
import { createTestApp, type TestApp } from "../support/app";
import { insert, insertDistrict, insertDistrictStats } from "../support/factories";
import { insertSchool, insertUnlock } from "../support/school-factories";
import { countStatements } from "../support/statements";

describe("POST /semantic-search", () => {
  let t: TestApp;
  let provider: EmbeddingProvider;
  const d: Record<string, string> = {};
  const s: Record<string, string> = {};
  const c: Record<string, string> = {};

  const search = (body: Record<string, unknown>, plan: "free" | "pro" | "enterprise" = "pro") =>
    t.post("/api/v1/semantic-search", body, plan);
  const balance = async (org: string) =>
    Number(
      (await t.db.query<{ credit_balance: number }>(`SELECT credit_balance FROM organizations WHERE id = $1`, [org]))[0]!.credit_balance,
    );

  beforeAll(async () => {
    t = await createTestApp({ EMBEDDINGS_AUTO: "false" });
    provider = embeddingProvider(loadEnv({}));
    d.omaha = await insertDistrict(t.db, {
      name: "Omaha Public Schools",
      state: "NE",
      physical_city: "Omaha",
      locale_type: "City: Large",
      student_count: 52_000,
      status: "completed",
      ai_summary: "Omaha's gated summary.",
    });
    d.sandhills = await insertDistrict(t.db, {
      name: "Sandhills Valley District",
      state: "NE",
      physical_city: "Thedford",
      locale_type: "Rural: Remote",
      student_count: 180,
      status: "pending",
    });
    await insertDistrictStats(t.db, d.sandhills, 2023, { school_age_poverty_pct: 31 });
    d.lincoln = await insertDistrict(t.db, {
      name: "Lincoln Public Schools",
      state: "NE",
      physical_city: "Lincoln",
      locale_type: "City: Midsize",
      student_count: 42_000,
      status: "completed",
    });
    await insertDistrictStats(t.db, d.lincoln, 2023, { school_age_poverty_pct: 9 });
    d.miami = await insertDistrict(t.db, {
      name: "Miami-Dade County Public Schools",
      state: "FL",
      physical_city: "Miami",
      locale_type: "City: Large",
      student_count: 335_000,
      status: "completed",
    });
    d.desMoines = await insertDistrict(t.db, {
      name: "Des Moines Independent Community School District",
      state: "IA",
      physical_city: "Des Moines",
      locale_type: "City: Midsize",
      student_count: 30_000,
      status: "completed",
    });
    s.central = await insertSchool(t.db, {
      name: "Omaha Central High School",
      district_id: d.omaha,
      state: "NE",
      physical_city: "Omaha",
      grade_buckets: ["high"],
      grade_low: "09",
      grade_high: "12",
      status: "completed",
    });
    s.field = await insertSchool(t.db, {
      name: "Field Club Elementary School",
      district_id: d.omaha,
      state: "NE",
      physical_city: "Omaha",
      grade_buckets: ["elementary"],
      grade_low: "KG",
      grade_high: "05",
    });
    s.lincolnHigh = await insertSchool(t.db, {
      name: "Lincoln High School",
      district_id: d.lincoln,
      state: "NE",
      physical_city: "Lincoln",
      grade_buckets: ["high"],
      grade_low: "09",
      grade_high: "12",
    });
    const contact = (values: Record<string, unknown>) => insert(t.db, "contacts", { data_source: "test", source: "test", ...values });
    c.carvalho = await contact({
      name: "Jose Dotres",
      title: "Superintendent",
      district_id: d.miami,
      state: "FL",
      is_district_contact: true,
      email: "supt@miami.example.org",
    });
    c.logan = await contact({
      name: "Cheryl Logan",
      title: "Superintendent",
      district_id: d.omaha,
      state: "NE",
      is_district_contact: true,
    });
    c.principal = await contact({ name: "Keith Bigsby", title: "Principal", school_id: s.central, district_id: d.omaha, state: "NE" });
    // Its district was never extracted and it is no directory contact: never listed (docs/contacts.md).
    c.hidden = await contact({ name: "Hidden Superintendent", title: "Superintendent", district_id: d.sandhills, state: "NE" });
    await insert(t.db, "timeline_events", {
      entity_type: "district",
      entity_id: d.omaha,
      event_date: "2026-03-10",
      event_type: "board_meeting",
      title: "Board meeting minutes: replacing 5,000 student Chromebooks with new laptops",
      description: "The board approved a device refresh for middle and high schools.",
      source_url: "https://www.ops.example.org/board/minutes-2026-03-10.pdf",
      data_source: "test",
    });
    // Gated intelligence: matched and shown only once the caller unlocked the district.
    await insert(t.db, "pain_points", {
      entity_type: "district",
      district_id: d.lincoln,
      category: "infrastructure",
      description: "Aging wireless network in every building needs a replacement",
      source_url: "https://lps.example.org/budget.pdf",
      data_source: "test",
    });
    const report = await embedPending(t.db, provider, { batchSize: 64 });
    expect(report).toMatchObject({ more: false });
    expect(report.embedded).toBe(5 + 3 + 4 + 1 + 1);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("finds by meaning and shows the passage that matched, with its source", async () => {
    const res = await search({ query: "board minutes about replacing Chromebooks", entity_type: "district" }).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(["_access_summary", "coverage", "data", "matches", "relevance"]);
    expect(res.body.data[0].id).toBe(d.omaha);
    expect(res.body.relevance[d.omaha]).toBe(1);
    const match = res.body.matches[d.omaha][0];
    expect(match).toEqual({
      content: expect.stringContaining("Chromebooks"),
      source_type: "timeline_event",
      url: "https://www.ops.example.org/board/minutes-2026-03-10.pdf",
      source_id: expect.any(String),
    });
    for (const record of res.body.data) expect(res.body.relevance[record.id]).toBeLessThanOrEqual(1);
    expect(res.body.coverage).toEqual({ embedded: 5, total: 5 });
  });

  it("finds by name and place (trigram), and names a state in the query as a filter", async () => {
    const byName = await search({ query: "Lincoln Public", entity_type: "district" }).expect(200);
    expect(byName.body.data[0].id).toBe(d.lincoln);
    const inIowa = await search({ query: "school districts in Iowa", entity_type: "district" }).expect(200);
    expect(inIowa.body.data.map((r: { id: string }) => r.id)).toEqual([d.desMoines]);
    expect(inIowa.body.coverage).toEqual({ embedded: 1, total: 1 });
  });

  it("boosts what the query's hints say: rural, high poverty", async () => {
    const res = await search({ query: "rural districts in Nebraska with high poverty", entity_type: "district" }).expect(200);
    expect(res.body.data[0].id).toBe(d.sandhills);
    expect(new Set(res.body.data.map((r: { state: string }) => r.state))).toEqual(new Set(["NE"]));
  });

  it("applies the filters inside the search: state, district_id, school_id; limit", async () => {
    const fl = await search({ query: "superintendent", entity_type: "contact", state: "FL" }).expect(200);
    expect(fl.body.data.map((r: { id: string }) => r.id)).toEqual([c.carvalho]);
    const schools = await search({ query: "high school", entity_type: "school", district_id: d.omaha }).expect(200);
    expect(schools.body.data.map((r: { id: string }) => r.id).sort()).toEqual([s.central, s.field].sort());
    expect(schools.body.data[0].id).toBe(s.central);
    const atSchool = await search({ query: "principal", entity_type: "contact", school_id: s.central }).expect(200);
    expect(atSchool.body.data.map((r: { id: string }) => r.id)).toEqual([c.principal]);
    const one = await search({ query: "public schools", entity_type: "district", limit: 1 }).expect(200);
    expect(one.body.data).toHaveLength(1);
    expect(one.body._access_summary.total_results).toBe(1);
  });

  it("serves contacts by the lists' listing rule and gating", async () => {
    const res = await search({ query: "superintendent of a large Florida district", entity_type: "contact" }).expect(200);
    expect(res.body.data[0].id).toBe(c.carvalho);
    // Locked: gated fields null, as on GET /contacts.
    expect(res.body.data[0].email).toBeNull();
    expect(res.body.data[0]._access).toMatchObject({ is_unlocked: false, unlock_cost: 2 });
    const all = await search({ query: "Hidden Superintendent", entity_type: "contact", limit: 500 }).expect(200);
    const ids = all.body.data.map((r: { id: string }) => r.id);
    expect(ids).not.toContain(c.hidden);
    expect(ids.sort()).toEqual([c.carvalho, c.logan, c.principal].sort());
    // Listed contacts only in the coverage too.
    expect(all.body.coverage).toEqual({ embedded: 3, total: 3 });
    expect(all.body._access_summary).toEqual({
      total_results: 3,
      unlocked: 0,
      locked_processed: 0,
      locked_unprocessed: 3,
      unlock_all_cost: 6,
    });
  });

  it("shows gated fields and gated passages only for records the caller unlocked", async () => {
    const query = { query: "aging wireless network replacement", entity_type: "district" };
    const locked = await search(query, "enterprise").expect(200);
    const lincolnLocked = locked.body.data.find((r: { id: string }) => r.id === d.lincoln);
    expect(locked.body.matches[d.lincoln] ?? []).not.toContainEqual(expect.objectContaining({ source_type: "pain_point" }));
    expect(lincolnLocked?.ai_summary ?? null).toBeNull();
    expect(locked.body._access_summary.unlocked).toBe(0);
    await insertUnlock(t.db, t.orgs.enterprise, "district", d.lincoln);
    await insertUnlock(t.db, t.orgs.enterprise, "district", d.omaha);
    const unlocked = await search(query, "enterprise").expect(200);
    expect(unlocked.body.data[0].id).toBe(d.lincoln);
    expect(unlocked.body.matches[d.lincoln][0]).toMatchObject({ source_type: "pain_point", url: "https://lps.example.org/budget.pdf" });
    const omaha = await search({ query: "Omaha Public Schools", entity_type: "district" }, "enterprise").expect(200);
    expect(omaha.body.data[0]).toMatchObject({ id: d.omaha, ai_summary: "Omaha's gated summary.", _access: { is_unlocked: true } });
    const other = await search({ query: "Omaha Public Schools", entity_type: "district" }, "pro").expect(200);
    expect(other.body.data[0]).toMatchObject({ id: d.omaha, ai_summary: null, _access: { is_unlocked: false } });
  });

  it("charges 1 credit per search through the ledger", async () => {
    const before = await balance(t.orgs.free);
    await search({ query: "Omaha", entity_type: "school" }, "free").expect(200);
    expect(await balance(t.orgs.free)).toBe(before - 1);
    const rows = await t.db.query<{ account: string; amount: number; kind: string; note: string }>(
      `SELECT account, amount, kind, note FROM credit_ledger WHERE organization_id = $1 AND kind = 'charge' ORDER BY account`,
      [t.orgs.free],
    );
    expect(rows).toEqual([
      { account: "available", amount: -1, kind: "charge", note: "semantic search (school)" },
      { account: "spent", amount: 1, kind: "charge", note: "semantic search (school)" },
    ]);
  });

  it("answers 402 insufficient_credits with balance and required, charging nothing", async () => {
    const { organizationId } = await createOrganization(t.db, { name: "Broke", plan: "pro", credits: 0 });
    const key = (await createApiKey(t.db, organizationId)).apiKey;
    const res = await t.http
      .post("/api/v1/semantic-search")
      .set("Authorization", `Bearer ${key}`)
      .send({ query: "Omaha", entity_type: "district" })
      .expect(402);
    expect(res.body).toEqual({ error: "insufficient_credits", message: expect.any(String), statusCode: 402, balance: 0, required: 1 });
    expect(await balance(organizationId)).toBe(0);
  });

  it.each([
    [{ query: "a", entity_type: "district" }, /query must be at least 2 characters/],
    [{ query: "  x ", entity_type: "district" }, /query must be at least 2/],
    [{ query: "Omaha", entity_type: "district", limit: 0 }, /limit must be an integer from 1 to 500/],
    [{ query: "Omaha", entity_type: "district", limit: 501 }, /limit must be an integer from 1 to 500/],
    [{ query: "Omaha", entity_type: "district", district_id: "00000000-0000-4000-8000-000000000000" }, /district_id/],
    [{ query: "Omaha", entity_type: "school", school_id: "00000000-0000-4000-8000-000000000000" }, /school_id/],
    [{ query: "Omaha", entity_type: "district", state: "Nebraska" }, /state/],
    [{ query: "Omaha", entity_type: "county" }, /entity_type/],
    [{ query: "Omaha" }, /entity_type/],
    [{ query: "Omaha", entity_type: "district", sort: "name" }, /sort/],
  ])("answers 400 naming the problem and charges nothing: %j", async (body, message) => {
    const before = await balance(t.orgs.pro);
    const res = await search(body).expect(400);
    expect(res.body).toEqual({ error: "bad_request", message: expect.stringMatching(message), statusCode: 400 });
    expect(await balance(t.orgs.pro)).toBe(before);
  });

  it("runs as GraphQL semanticSearch", async () => {
    const res = await t.graphql(
      `mutation($input: SemanticSearchInput!) {
        semanticSearch(input: $input) { entityType districts { id name } schools { id } relevance coverage { embedded total }
          _accessSummary { totalResults } } }`,
      { input: { query: "Miami public schools", entityType: "district", limit: 2 } },
    );
    expect(res.errors).toBeUndefined();
    const r = res.data.semanticSearch;
    expect(r).toMatchObject({
      entityType: "district",
      schools: null,
      coverage: { embedded: 5, total: 5 },
      _accessSummary: { totalResults: 2 },
    });
    expect(r.districts[0]).toEqual({ id: d.miami, name: "Miami-Dade County Public Schools" });
    expect(r.relevance[d.miami]).toBe(1);
  });

  it("runs as the MCP tool semantic_search", async () => {
    const port = (t.server.address() as { port: number }).port;
    const client = new Client({ name: "edmarket-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${t.keys.pro}` } },
      }),
    );
    try {
      const result = (await client.callTool({
        name: "semantic_search",
        arguments: { query: "high school in Lincoln", entity_type: "school" },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBeFalsy();
      const body = JSON.parse(result.content[0]!.text);
      expect(body.data[0]).toMatchObject({ id: s.lincolnHigh, name: "Lincoln High School" });
      expect(body.coverage).toEqual({ embedded: 3, total: 3 });
      expect(body.matches[s.lincolnHigh][0]).toMatchObject({ source_type: "profile" });
    } finally {
      await client.close();
    }
  });

  it("reads a page in a fixed number of statements", async () => {
    const page = (query: string) => countStatements(t.db, () => search({ query, entity_type: "district" }).expect(200));
    // Each shape once first: the in-process vectors' first load is apart (a serving process loads them at its start).
    await page("public schools in Nebraska");
    // A change here is a change of every search's cost (18 before the latency work: a credit pre-check of two and a
    // transaction of SET LOCALs around the search are gone). The API key (the rate limit is in memory between writes),
    const auth = 1;
    // the charge's transaction (lock, which reads the balance, the holds, the ledger's two rows with the balance in
    // one statement; BEGIN and COMMIT are counted on PostgreSQL only: PGlite runs them itself),
    const charge = 3 + (t.db.kind === "postgres" ? 2 : 0);
    // the records by id and their blocks (the catalogue's loaders, as on GET /districts/{id}): one statement for the
    // record's blocks, one for the breakdowns under its statistics.
    const records = 3;
    // The search: one statement, and the in-process vectors' refresh before it (vector-scan.ts) without pgvector,
    // or with a filter (here the state the query names) on every database (vector-index.ts vectorCandidates).
    expect(await page("public schools in Nebraska")).toBe(auth + 2 + charge + records);
    expect(await page("public school districts")).toBe(auth + (t.db.hasVector ? 1 : 2) + charge + records);
    // A query with a lexical part: one statement more, the names' and passages' matches (run while the vector is computed).
    expect(await page("Omaha public schools")).toBe(auth + 1 + (t.db.hasVector ? 1 : 2) + charge + records);
  });

  it("embeds again what changed, and everything for another model", async () => {
    expect(await embedPending(t.db, provider, { batchSize: 64 })).toEqual({ embedded: 0, unchanged: 0, more: false });
    await t.db.query(`UPDATE districts SET name = 'Omaha Public Schools District 1', last_updated_at = now() WHERE id = $1`, [d.omaha]);
    await t.db.query(`UPDATE districts SET last_updated_at = now() WHERE id = $1`, [d.miami]);
    expect(await embedPending(t.db, provider, { batchSize: 64 })).toEqual({ embedded: 1, unchanged: 1, more: false });
    const other: EmbeddingProvider = {
      model: "test-other-model",
      embed: async (texts) => texts.map((text) => normalize([text.length, 1, 2])),
    };
    const report = await embedPending(t.db, other, { batchSize: 4, only: ["district"] });
    expect(report).toEqual({ embedded: 5 + 1 + 1, unchanged: 0, more: false });
    const models = await t.db.query<{ model: string; dimension: number; n: number }>(
      `SELECT model, dimension, count(*)::int AS n FROM embeddings WHERE entity_type = 'district' GROUP BY 1, 2 ORDER BY 1`,
    );
    expect(models).toEqual([
      { model: "test-other-model", dimension: 3, n: 7 },
      { model: provider.model, dimension: 512, n: 7 },
    ]);
  });

  it("reports coverage of records not embedded yet", async () => {
    await insertDistrict(t.db, { name: "New Unembedded District", state: "KS" });
    const res = await search({ query: "new district", entity_type: "district" }).expect(200);
    expect(res.body.coverage).toEqual({ embedded: 5, total: 6 });
    // Found by name all the same (the lexical retrieval needs no vector).
    expect(res.body.data.map((r: { name: string }) => r.name)).toContain("New Unembedded District");
  });
  it("matches a place named in the query: a whole city or county in any case, a dot a dot, never part of one", async () => {
    const place = { status: "completed", state: "MN" };
    const inStPaul = await insertDistrict(t.db, { ...place, name: "Capitol Ridge Schools", physical_city: "St. Paul" });
    const inStxPaul = await insertDistrict(t.db, { ...place, name: "Capitol Ridge Academy", physical_city: "Stx Paul" });
    const inCounty = await insertDistrict(t.db, {
      ...place,
      name: "Lakeshore Valley Schools",
      physical_city: "Elm",
      county: "Ramsey County",
    });
    const inPaulsen = await insertDistrict(t.db, { ...place, name: "North Shore Schools", physical_city: "Paulsen" });
    const places = async (query: string) => {
      const rows = await rankEntities(
        t.db,
        t.orgs.pro,
        provider,
        { query, entityType: SemanticSearchEntityType.district, filters: { state: null, districtId: null, schoolId: null }, limit: 50 },
        "lexical",
      );
      return rows.map((r) => r.entity_id);
    };
    const found = await places("public schools in ST. PAUL and ramsey county");
    expect(found).toEqual(expect.arrayContaining([inStPaul, inCounty]));
    expect(found).not.toContain(inStxPaul);
    expect(found).not.toContain(inPaulsen);
    // A run is matched whole: "paul" names no city here ("Paulsen" is not Paul).
    expect(await places("schools of paul")).not.toContain(inPaulsen);
  });
});
