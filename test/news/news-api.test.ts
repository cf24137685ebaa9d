/**
 * The read API of the signals feed (docs/signals.md, "Reading the feed"): GET /signals (the signals module,
 * 403 entitlement_required otherwise), every parameter and its 400, the since cursor, the capped count
 * (total_exact), the order and its ties, GET /news and GET /news/{id} scoped to follows and unlocks with noise
 * left out, the GraphQL relations District.signals / School.signals and their statement counts, and the MCP tools.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { listFeed, feedPagination } from "../../src/features/research/news/news.service";
import { createTestApp, type TestApp } from "../support/app";
import { insert, insertDistrict } from "../support/factories";
import { insertArticle } from "./support/articles";
import { insertFollow, insertSchool, insertUnlock } from "../support/school-factories";
import { countStatements } from "../support/statements";

type Body = Record<string, any>;

const ARTICLE_KEYS = ["author", "data_source", "description", "domain", "id", "ingested_at", "published_at", "signals", "title", "url"];
// The interface spec's "Signal item".
const SIGNAL_KEYS = [
  "buying_intent",
  "buying_intent_reason",
  "district",
  "entity_match_confidence",
  "entity_match_reason",
  "entity_resolution_status",
  "entity_type",
  "evidence",
  "extraction_confidence",
  "payload",
  "school",
  "signal_date",
  "signal_date_confidence",
  "signal_type",
  "summary",
];

describe("the signals feed read API", () => {
  let t: TestApp;
  const d: Record<string, string> = {};
  const a: Record<string, string> = {};
  let school: string;
  const TIE = "2026-11-20T10:00:00.000Z";

  const ids = (body: Body): string[] => body.data.map((x: Body) => x.id);
  const expect400 = (res: { status: number; body: Body }, param: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "bad_request", message: expect.stringContaining(param), statusCode: 400 });
  };

  beforeAll(async () => {
    t = await createTestApp({ SALES_CONTACT: "signals-sales@district-data.example" });
    d.ne = await insertDistrict(t.db, { name: "Omaha Test Public Schools", state: "NE", fed_id: "3100001" });
    d.ia = await insertDistrict(t.db, { name: "Des Moines Test Schools", state: "IA", fed_id: "1900001" });
    school = await insertSchool(t.db, { name: "Benson Test High", state: "NE", district_id: d.ne });
    const ne = { district_id: d.ne };
    const ia = { district_id: d.ia };
    // Two articles published at the same instant: ties go by ascending id.
    a.bond = await insertArticle(t, { title: "Voters pass a facility bond", published_at: TIE, ingested_at: "2026-11-21T00:00:00.000Z" }, [
      { ...ne, signal_type: "facility_bond", buying_intent: "high", summary: "A $90M bond passed for new buildings." },
    ]);
    a.staff = await insertArticle(t, { title: "Teacher vacancies grow", published_at: TIE, ingested_at: "2026-11-21T00:00:00.000Z" }, [
      {
        ...ne,
        school_id: school,
        entity_type: "school",
        signal_type: "staffing_shortage",
        buying_intent: "medium",
        summary: "Ten posts open.",
      },
    ]);
    a.deficit = await insertArticle(
      t,
      { title: "Board weighs budget", published_at: "2026-10-01T12:00:00.000Z", ingested_at: "2026-10-02T00:00:00.000Z" },
      [{ ...ia, signal_type: "budget_deficit", buying_intent: "low", buying_intent_reason: "Layoffs announced, no purchase." }],
    );
    a.noise = await insertArticle(
      t,
      { title: "Homecoming parade", published_at: "2026-09-01T12:00:00.000Z", ingested_at: "2026-09-02T00:00:00.000Z" },
      [{ ...ne, signal_type: "noise", buying_intent: "none", summary: "A parade." }],
    );
    a.undated = await insertArticle(t, { title: "RFP for tablets", published_at: null, ingested_at: "2026-08-15T00:00:00.000Z" }, [
      { ...ia, signal_type: "rfp_released", buying_intent: "high", summary: "Tablets RFP." },
    ]);
    a.mixed = await insertArticle(
      t,
      { title: "New superintendent named", published_at: "2026-08-01T12:00:00.000Z", ingested_at: "2026-08-02T00:00:00.000Z" },
      [
        { ...ne, signal_type: "noise", buying_intent: "none", summary: "Sports scores." },
        { ...ia, signal_type: "leadership_change", buying_intent: "none", summary: "A new superintendent starts in January." },
      ],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const tied = () => [a.bond, a.staff].sort();

  it("GET /signals without the signals module: 403 entitlement_required with module and contact (SALES_CONTACT)", async () => {
    for (const plan of ["free", "pro"] as const) {
      const res = await t.get("/api/v1/signals", plan);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: "entitlement_required",
        message: expect.stringContaining("signals module"),
        statusCode: 403,
        module: "signals",
        contact: "signals-sales@district-data.example",
      });
    }
    const gql = await t.graphql("{ signals { data { id } } }", undefined, "free");
    expect(gql.errors?.[0].extensions).toMatchObject({ code: "ENTITLEMENT_REQUIRED", body: { module: "signals" } });
  });

  it("lists articles with a signal other than noise, newest first, undated last, ties by id; the spec's fields", async () => {
    const res = await t.get("/api/v1/signals").expect(200);
    expect(ids(res.body)).toEqual([...tied(), a.deficit, a.mixed, a.undated]);
    expect(res.body.pagination).toEqual({ total: 5, limit: 50, offset: 0, has_more: false, total_exact: true });
    for (const article of res.body.data) {
      expect(Object.keys(article).sort()).toEqual(ARTICLE_KEYS);
      for (const signal of article.signals) expect(Object.keys(signal).sort()).toEqual(SIGNAL_KEYS);
    }
    const bond = res.body.data.find((x: Body) => x.id === a.bond);
    expect(bond).toMatchObject({
      title: "Voters pass a facility bond",
      published_at: TIE,
      ingested_at: "2026-11-21T00:00:00.000Z",
      data_source: "test",
    });
    expect(bond.signals).toEqual([
      expect.objectContaining({
        signal_type: "facility_bond",
        buying_intent: "high",
        signal_date: "2026-11-01",
        evidence: { sentences: [{ text: "It happened.", start: 0, end: 12 }] },
        payload: { amount_usd: 1000 },
        district: { id: d.ne, name: "Omaha Test Public Schools", state: "NE", fed_id: "3100001" },
        school: null,
      }),
    ]);
    const staff = res.body.data.find((x: Body) => x.id === a.staff);
    expect(staff.signals[0].school).toEqual({ id: school, name: "Benson Test High", state: "NE" });
    // The article with a noise signal and another: only the other is served.
    const mixed = res.body.data.find((x: Body) => x.id === a.mixed);
    expect(mixed.signals.map((s: Body) => s.signal_type)).toEqual(["leadership_change"]);
  });

  it("pages stably through the tie (limit and offset)", async () => {
    const first = await t.get("/api/v1/signals?limit=1").expect(200);
    const second = await t.get("/api/v1/signals?limit=1&offset=1").expect(200);
    expect([...ids(first.body), ...ids(second.body)]).toEqual(tied());
    expect(first.body.pagination).toEqual({ total: 5, limit: 1, offset: 0, has_more: true, total_exact: true });
    const past = await t.get("/api/v1/signals?offset=10").expect(200);
    expect(past.body).toEqual({ data: [], pagination: { total: 5, limit: 50, offset: 10, has_more: false, total_exact: true } });
  });

  it("filters by each parameter; a signal must match every signal condition at once", async () => {
    const q = async (query: string) => ids((await t.get(`/api/v1/signals?${query}`).expect(200)).body);
    expect(await q("signal_type=facility_bond")).toEqual([a.bond]);
    expect(await q("signal_type=facility_bond,budget_deficit")).toEqual([a.bond, a.deficit]);
    expect(await q("buying_intent=high")).toEqual([a.bond, a.undated]);
    expect(await q("buying_intent=medium,low")).toEqual([a.staff, a.deficit]);
    expect(await q(`district_id=${d.ia}`)).toEqual([a.deficit, a.mixed, a.undated]);
    expect(await q(`school_id=${school}`)).toEqual([a.staff]);
    expect(await q("state=ia")).toEqual([a.deficit, a.mixed, a.undated]);
    expect(await q("state=NE")).toEqual(tied()); // the NE signal of the mixed article is noise
    expect(await q("query=BOND")).toEqual([a.bond]); // title and summary
    expect(await q("query=layoffs")).toEqual([a.deficit]); // buying-intent reason
    expect(await q("query=superintendent%20starts")).toEqual([a.mixed]); // summary
    expect(await q("query=parade")).toEqual([]); // only a noise signal's summary and a noise article's title
    expect(await q("published_after=2026-10-01T12:00:00Z")).toEqual([...tied(), a.deficit]);
    expect(await q("published_before=2026-10-01T12:00:00%2B00:00")).toEqual([a.mixed]);
    expect(await q("published_after=2026-09-01T00:00:00Z&published_before=2026-11-01T00:00:00Z")).toEqual([a.deficit]);
    // The same signal must match: the staffing signal is medium, the high one is a bond.
    expect(await q("signal_type=staffing_shortage&buying_intent=high")).toEqual([]);
    expect(await q(`signal_type=leadership_change&state=NE`)).toEqual([]);
    expect(await q(`signal_type=leadership_change&state=IA`)).toEqual([a.mixed]);
  });

  it("query follows the article's title and signals as they change (articles.search_text, kept by triggers)", async () => {
    const q = async (query: string) => ids((await t.get(`/api/v1/signals?query=${encodeURIComponent(query)}`).expect(200)).body);
    const id = await insertArticle(t, { title: "Board weighs a calendar", published_at: TIE, ingested_at: "2026-11-21T00:00:00.000Z" }, [
      { district_id: d.ne, signal_type: "rfp_released", summary: "An RFP for tutoring.", buying_intent_reason: "Bids due soon." },
      { district_id: d.ne, signal_type: "noise", summary: "A marching band trip." },
    ]);
    try {
      expect(await q("tutoring")).toEqual([id]);
      expect(await q("bids DUE")).toEqual([id]);
      expect(await q("marching band")).toEqual([]); // a noise signal's summary
      expect(await q("calendar An RFP")).toEqual([]); // never across two parts (title, then summary)
      await t.db.query(`UPDATE signals SET summary = 'An RFP for busing.' WHERE article_id = $1 AND signal_type <> 'noise'`, [id]);
      expect(await q("tutoring")).toEqual([]);
      expect(await q("busing")).toEqual([id]);
      await t.db.query(`UPDATE articles SET title = 'Board weighs a new school year' WHERE id = $1`, [id]);
      expect(await q("calendar")).toEqual([]);
      expect(await q("new school year")).toEqual([id]);
      // The noise signal becomes a leadership change: its summary is matched; the RFP becomes noise: its text is not.
      await t.db.query(
        `UPDATE signals SET signal_type = CASE signal_type WHEN 'noise' THEN 'leadership_change' ELSE 'noise' END WHERE article_id = $1`,
        [id],
      );
      expect(await q("marching band")).toEqual([id]);
      expect(await q("busing")).toEqual([]);
      await t.db.query(`DELETE FROM signals WHERE article_id = $1 AND signal_type = 'leadership_change'`, [id]);
      expect(await q("marching band")).toEqual([]);
    } finally {
      await t.db.query(`DELETE FROM signals WHERE article_id = $1`, [id]);
      await t.db.query(`DELETE FROM articles WHERE id = $1`, [id]);
    }
  });

  it("answers 400 naming the parameter for each bad value", async () => {
    const cases: [string, string][] = [
      ["signal_type=noise", "signal_type"],
      ["signal_type=bonds", "signal_type"],
      ["signal_type=", "signal_type"],
      ["buying_intent=none", "buying_intent"],
      ["buying_intent=urgent", "buying_intent"],
      ["district_id=not-a-uuid", "district_id"],
      ["school_id=42", "school_id"],
      ["query=a", "query"],
      [`query=${"x".repeat(501)}`, "query"],
      ["query=%20%20x%20%20", "query"],
      ["query=bond%1Fpassed", "query"],
      ["query=bond%00", "query"],
      ["state=Nebraska", "state"],
      ["since=2026-11-20", "since"],
      ["since=2026-11-20T00:00:00", "since"],
      ["since=yesterday", "since"],
      ["published_after=2026-13-01T00:00:00Z", "published_after"],
      ["published_before=soon", "published_before"],
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["limit=ten", "limit"],
      ["offset=-1", "offset"],
      ["order_by=published_at", "order_by"],
      ["signal_types=facility_bond", "signal_types"],
    ];
    for (const [query, param] of cases) expect400(await t.get(`/api/v1/signals?${query}`), param);
    expect((await t.get(`/api/v1/signals?query=ab&limit=200`)).status).toBe(200);
    expect((await t.get(`/api/v1/signals?query=${"x".repeat(500)}`)).status).toBe(200);
  });

  it("since is an ingest cursor (ingested_at > since): a nightly sync reads each article once", async () => {
    const all = async (since: string) => {
      const res = await t.get(`/api/v1/signals?since=${encodeURIComponent(since)}&limit=200`).expect(200);
      return res.body.data as Body[];
    };
    // Strictly after: the two articles stored at 2026-11-21T00:00:00Z are not read again with that cursor.
    expect((await all("2026-11-21T00:00:00.000Z")).map((x) => x.id)).toEqual([]);
    expect((await all("2026-11-20T23:59:59.999Z")).map((x) => x.id)).toEqual(tied());
    expect((await all("2026-11-21T00:59:59.999+01:00")).map((x) => x.id)).toEqual(tied()); // numeric offset: 23:59:59.999Z
    expect((await all("2026-11-21T01:00:00+01:00")).map((x) => x.id)).toEqual([]);
    const first = await all("2026-01-01T00:00:00Z");
    expect(first.map((x) => x.id).sort()).toEqual([a.bond, a.staff, a.deficit, a.mixed, a.undated].sort());
    const cursor = first
      .map((x) => x.ingested_at as string)
      .sort()
      .at(-1)!;
    expect(cursor).toBe("2026-11-21T00:00:00.000Z");
    // An article published long ago but stored after the cursor is read by the next sync.
    const late = await insertArticle(
      t,
      { title: "Late story", published_at: "2025-01-01T00:00:00.000Z", ingested_at: "2026-11-22T00:00:00.000Z" },
      [{ district_id: d.ia, signal_type: "grant_award", buying_intent: "medium" }],
    );
    try {
      expect((await all(cursor)).map((x) => x.id)).toEqual([late]);
    } finally {
      await t.db.query(`DELETE FROM signals WHERE article_id = $1`, [late]);
      await t.db.query(`DELETE FROM articles WHERE id = $1`, [late]);
    }
  });

  it("counts up to the cap: beyond it total is the cap and total_exact false (a lowered cap on the real statement)", async () => {
    const capped = await listFeed(t.db, { kind: "all" }, { limit: 1, offset: 0 }, 3);
    expect(capped.pagination).toEqual({ total: 3, limit: 1, offset: 0, has_more: true, total_exact: false });
    expect(capped.data.map((x) => x.id)).toEqual([tied()[0]]);
    const exact = await listFeed(t.db, { kind: "all" }, { limit: 2, offset: 0 }, 5);
    expect(exact.pagination).toEqual({ total: 5, limit: 2, offset: 0, has_more: true, total_exact: true });
    // Past the cap a full page may be followed by more; a short page is the end.
    expect(feedPagination(10_001, 10_000, 50, 10_000, 50).has_more).toBe(true);
    expect(feedPagination(10_001, 10_000, 50, 10_000, 20).has_more).toBe(false);
    expect(feedPagination(10_001, 10_000, 50, 100, 50)).toEqual({
      total: 10_000,
      limit: 50,
      offset: 100,
      has_more: true,
      total_exact: false,
    });
  });

  describe("GET /news and GET /news/{id}: the organization's follows and unlocks", () => {
    beforeAll(async () => {
      // pro follows the NE district; free unlocked the IA district; internal has an unfollowed follow and a pending unlock only.
      await insertFollow(t.db, t.orgs.pro, "district", d.ne);
      await insertUnlock(t.db, t.orgs.free, "district", d.ia);
      const gone = await insertFollow(t.db, t.orgs.internal, "district", d.ne);
      await t.db.query(`UPDATE follows SET unfollowed_at = now() WHERE id = $1`, [gone]);
      await insertUnlock(t.db, t.orgs.internal, "district", d.ia, "unlock_pending");
    });

    it("lists the articles with a signal about a followed or unlocked entity, no module needed", async () => {
      const pro = await t.get("/api/v1/news", "pro").expect(200);
      expect(ids(pro.body)).toEqual(tied()); // the school signal belongs to the followed district
      expect(pro.body.pagination).toEqual({ total: 2, limit: 50, offset: 0, has_more: false, total_exact: true });
      const free = await t.get("/api/v1/news", "free").expect(200);
      expect(ids(free.body)).toEqual([a.deficit, a.mixed, a.undated]);
      const none = await t.get("/api/v1/news", "internal").expect(200);
      expect(none.body).toEqual({ data: [], pagination: { total: 0, limit: 50, offset: 0, has_more: false, total_exact: true } });
      // The enterprise organization has the module but follows nothing: /news is its scope, not the catalog.
      expect(ids((await t.get("/api/v1/news").expect(200)).body)).toEqual([]);
      // The same filters apply within the scope.
      expect(ids((await t.get("/api/v1/news?buying_intent=high", "free").expect(200)).body)).toEqual([a.undated]);
      expect400(await t.get("/api/v1/news?query=x", "free"), "query");
    });

    it("following a school scopes its signals", async () => {
      const org = await insert(t.db, "organizations", { name: "School follower", plan: "pro" });
      const key = (await import("../../src/features/account/organizations/api-keys.service")).createApiKey;
      const { apiKey } = await key(t.db, org);
      await insertFollow(t.db, org, "school", school);
      const res = await t.http.get("/api/v1/news").set("Authorization", `Bearer ${apiKey}`).expect(200);
      expect(ids(res.body)).toEqual([a.staff]);
    });

    it("GET /news/{id}: one article with every signal but noise; 404 outside the scope", async () => {
      const mixed = await t.get(`/api/v1/news/${a.mixed}`, "free").expect(200);
      expect(Object.keys(mixed.body)).toEqual(["data"]);
      expect(mixed.body.data.id).toBe(a.mixed);
      expect(mixed.body.data.signals.map((s: Body) => s.signal_type)).toEqual(["leadership_change"]);
      expect((await t.get(`/api/v1/news/${a.bond}`, "pro").expect(200)).body.data.signals[0].signal_type).toBe("facility_bond");
      const notFound = (res: { status: number; body: Body }) =>
        expect([res.status, res.body]).toEqual([404, { error: "not_found", message: expect.any(String), statusCode: 404 }]);
      notFound(await t.get(`/api/v1/news/${a.deficit}`, "pro")); // another district's article
      notFound(await t.get(`/api/v1/news/${a.noise}`, "pro")); // the followed district's, but noise only
      notFound(await t.get(`/api/v1/news/${a.bond}`, "internal")); // unfollowed; pending unlock
      notFound(await t.get(`/api/v1/news/${a.bond}`)); // the module does not widen the scope
      notFound(await t.get(`/api/v1/news/00000000-0000-4000-8000-000000000000`, "pro"));
      expect400(await t.get(`/api/v1/news/not-a-uuid`, "pro"), "id");
    });
  });

  describe("GraphQL", () => {
    const DISTRICTS = `query($limit: Int) { districts(limit: 20, orderBy: name) { data { id name
        signals(limit: $limit) { data { id signals { signalType district { id } school { id } } } pagination { total totalExact hasMore } }
        } } }`;

    it("District.signals and School.signals: the feed within each, one statement for every parent (limit 1 = limit 200)", async () => {
      const counts: number[] = [];
      for (const limit of [1, 200]) {
        let result: Body = {};
        counts.push(await countStatements(t.db, async () => (result = await t.graphql(DISTRICTS, { limit }))));
        expect(result.errors).toBeUndefined();
        const byName = Object.fromEntries(result.data.districts.data.map((x: Body) => [x.name, x.signals]));
        const ia = byName["Des Moines Test Schools"];
        expect(ia.pagination).toEqual({ total: 3, totalExact: true, hasMore: limit === 1 });
        expect(ia.data.map((x: Body) => x.id)).toEqual([a.deficit, a.mixed, a.undated].slice(0, limit));
        expect(byName["Omaha Test Public Schools"].data.map((x: Body) => x.id)).toEqual(tied().slice(0, limit));
      }
      // API key, the districts page, the signals of every district.
      expect(counts).toEqual([3, 3]);

      const schools = await t.graphql(`{ schools(limit: 200) { data { id signals { data { id } pagination { total } } } } }`);
      expect(schools.errors).toBeUndefined();
      expect(schools.data.schools.data.find((x: Body) => x.id === school).signals).toEqual({
        data: [{ id: a.staff }],
        pagination: { total: 1 },
      });
    });

    it("without the module, a relation reads only the scope", async () => {
      // free unlocked the IA district only.
      const result = await t.graphql(DISTRICTS, { limit: 200 }, "free");
      const byName = Object.fromEntries(result.data.districts.data.map((x: Body) => [x.name, x.signals.pagination.total]));
      expect(byName).toMatchObject({ "Des Moines Test Schools": 3, "Omaha Test Public Schools": 0 });
    });

    it("signals, news and newsArticle; the feed counts in the query cost", async () => {
      const denied = await t.graphql(`{ signals(limit: 2) { data { id } } }`, undefined, "free");
      expect(denied.errors?.[0]).toMatchObject({ path: ["signals"], extensions: { code: "ENTITLEMENT_REQUIRED" } });
      const result = await t.graphql(
        `query($id: UUID!) { news(limit: 5) { data { id } } newsArticle(id: $id) { id title signals { signalType } } }`,
        { id: a.mixed },
        "free",
      );
      expect(result.errors).toBeUndefined();
      expect(result.data.news.data.map((x: Body) => x.id)).toEqual([a.deficit, a.mixed, a.undated]);
      expect(result.data.newsArticle).toEqual({
        id: a.mixed,
        title: "New superintendent named",
        signals: [{ signalType: "leadership_change" }],
      });
      expect((await t.graphql(`query($id: UUID!) { newsArticle(id: $id) { id } }`, { id: a.bond }, "free")).data.newsArticle).toBeNull();
      const ent = await t.graphql(
        `{ signals(filter: { state: ["IA"] }, limit: 2) { data { id } pagination { total totalExact hasMore } } }`,
      );
      expect(ent.data.signals).toEqual({
        data: [{ id: a.deficit }, { id: a.mixed }],
        pagination: { total: 3, totalExact: true, hasMore: true },
      });
      const costly = await t.graphql(`{ districts(limit: 200) { data { signals(limit: 200) { data { signals { district { id } } } } } } }`);
      expect(costly.errors?.[0].message).toMatch(/query cost \d+ exceeds the limit/);
      const tooLarge = await t.graphql(`{ signals(limit: 201) { data { id } } }`);
      expect(tooLarge.errors?.[0].message).toMatch(/limit must be an integer from 1 to 200/);
    });

    it("GET /signals is one statement beside the API key", async () => {
      expect(await countStatements(t.db, () => t.get("/api/v1/signals?limit=200&state=NE,IA&query=the").expect(200))).toBe(2);
      expect(await countStatements(t.db, () => t.get("/api/v1/news", "free").expect(200))).toBe(2);
    });
  });

  describe("MCP", () => {
    let client: Client;
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };

    beforeAll(async () => {
      const port = (t.server.address() as { port: number }).port;
      client = new Client({ name: "news-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${t.keys.free}` } },
        }),
      );
    });
    afterAll(async () => {
      await client?.close().catch(() => undefined);
    });

    it("lists the feed tools and answers as REST does", async () => {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["signals_feed", "news_feed", "news_article"]));
      const feed = tools.find((tool) => tool.name === "signals_feed")!;
      expect(Object.keys((feed.inputSchema as Body).properties)).toEqual(["filter", "limit", "offset"]);

      const denied = await call("signals_feed", {});
      expect(denied.isError).toBe(true);
      expect(JSON.parse(denied.content[0].text)).toMatchObject({ error: "entitlement_required", module: "signals", statusCode: 403 });
      const news = JSON.parse((await call("news_feed", { filter: { buyingIntent: ["high"] } })).content[0].text);
      expect(news.data.map((x: Body) => x.id)).toEqual([a.undated]);
      expect(news.pagination).toMatchObject({ total: 1, total_exact: true });
      const bad = await call("news_feed", { filter: { query: "x" } });
      expect(JSON.parse(bad.content[0].text)).toMatchObject({ error: "bad_request", message: expect.stringContaining("query") });
      const article = JSON.parse((await call("news_article", { id: a.mixed })).content[0].text);
      expect(article.data.signals.map((s: Body) => s.signal_type)).toEqual(["leadership_change"]);
      const missing = await call("news_article", { id: a.bond });
      expect(JSON.parse(missing.content[0].text)).toMatchObject({ error: "not_found", statusCode: 404 });
    });
  });
});
