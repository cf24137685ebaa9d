/**
 * Issue 20 point 2: timeline events derived from gated intelligence (a contract, a grant, a budget, a bid, a
 * board meeting's minutes ...) carry none of their facts for an organization that has not unlocked the entity,
 * on every path: GET /districts|schools/{id}/events, GraphQL District.events / School.events / districtEvents
 * (by id and in a list page), a brief of a locked entity (REST and the MCP get_brief tool). After an unlock
 * the same callers read the full events. The events come from a real extraction of the cedar-ridge fixture
 * site (its October minutes state "a three-year contract with Infinite Campus ... in the amount of $186,000
 * for the period July 1, 2026 through June 30, 2029").
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadEnv } from "../../src/config/env";
import { runExtractionPipeline } from "../../src/features/research/extraction/pipeline";
import { GATED_EVENT_TITLES, presentEvent } from "../../src/features/catalogue/events/event.access";
import { TYPE } from "../../src/graphql/dictionary/dictionary";
import { intelligenceDictionary } from "../../src/features/research/intelligence/intelligence.dictionary";
import { createTestApp, type TestApp } from "../support/app";
import { insertUnlock } from "../support/block-factories";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { until } from "../support/wait";
import { EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "../extraction/support/fixture-server";

const FAST = { WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "1" };
const env = loadEnv({ LOG_LEVEL: "silent", ...EXTRACTION_TEST_ENV });

/** Facts of the gated contract, grant, budget and minutes, as the crawled documents state them. */
const GATED = ["Infinite Campus", "186,000", "June 30, 2029", "/board/minutes/2026-10-14-regular.pdf", "Routing Software"];
const leaks = (value: unknown): string[] => {
  const text = JSON.stringify(value);
  return GATED.filter((s) => text.includes(s));
};

const EVENT_FIELDS = "id eventType eventDate title description sourceUrl";

describe("gated intelligence in timeline events (issue 20 point 2)", () => {
  let db: TestDb;
  let t: TestApp;
  let site: FixtureSite;
  let district: string;
  let school: string;
  let url: URL;
  const clients: Client[] = [];

  const mcp = async (key: string): Promise<Client> => {
    const client = new Client({ name: "edmarket-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  };
  const mcpBrief = async (client: Client, briefId: string) => {
    const result = (await client.callTool({ name: "get_brief", arguments: { brief_id: briefId } })) as { content: { text: string }[] };
    return JSON.parse(result.content[0]!.text);
  };
  const buildBrief = async (name: string) => {
    const project = (await t.post("/api/v1/projects", { name }).expect(201)).body.data.id;
    const started = await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }).expect(202);
    const brief = await until(
      async () => (await t.get(`/api/v1/briefs/${started.body.brief_id}`).expect(200)).body.brief,
      (b) => b.status !== "building",
    );
    expect(brief.status).toBe("ready");
    return brief;
  };
  const graphqlEvents = (plan: "free" | "enterprise") =>
    t.graphql(
      `query($d: UUID!, $s: UUID!) {
        district(id: $d) { events(limit: 200) { ${EVENT_FIELDS} } contracts { vendorName } }
        districts(filter: { ids: [$d] }, limit: 5) { data { events(limit: 200) { ${EVENT_FIELDS} } } }
        school(id: $s) { events(limit: 200) { ${EVENT_FIELDS} } }
        districtEvents(id: $d) { ${EVENT_FIELDS} }
        schoolEvents(id: $s) { ${EVENT_FIELDS} }
      }`,
      { d: district, s: school },
      plan,
    );

  beforeAll(async () => {
    db = await createTestDb();
    t = await createTestApp(FAST, { jobs: "work", db });
    url = new URL(`http://127.0.0.1:${(t.server.address() as { port: number }).port}/mcp`);
    site = await serveFixtureSite("cedar-ridge");
    district = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${site.origin}/` });
    school = await insertSchool(db, {
      name: "Cedar Ridge High School",
      state: "NE",
      district_id: district,
      website_url: `${site.origin}/`,
    });
    expect((await runExtractionPipeline(db, "district", district, { env })).status).toBe("completed");
    expect((await runExtractionPipeline(db, "school", school, { env })).status).toBe("completed");
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t?.close();
    await site?.close();
    await db?.close();
  });

  it("the extraction stored events quoting the gated contract (the facts this test looks for)", async () => {
    const stored = await db.query<{ text: string }>(
      `SELECT concat_ws(' ', title, description, source_url) AS text FROM timeline_events WHERE entity_id = ANY($1::uuid[])`,
      [[district, school]],
    );
    expect(leaks(stored)).toEqual(GATED);
  });

  it("a free organization without an unlock reads public events on REST and GraphQL, with the gated lists null", async () => {
    for (const path of [`/api/v1/districts/${district}/events`, `/api/v1/schools/${school}/events`]) {
      const events = (await t.get(path, "free").expect(200)).body.data as Record<string, unknown>[];
      expect([path, leaks(events)]).toEqual([path, []]);
      // Still listed: every type and date, a gated one in its public form.
      const contractAwards = events.filter((e) => e.event_type === "contract_award");
      expect(contractAwards).toHaveLength(3);
      for (const e of contractAwards)
        expect(e).toMatchObject({
          event_date: "2026-10-14",
          title: GATED_EVENT_TITLES.contract_award,
          description: null,
          source_url: null,
        });
      // A public kind (a dated news page) keeps its facts.
      expect(events.find((e) => e.event_type === "news")).toMatchObject({ source_url: `${site.origin}/news/bond-and-grants.html` });
    }
    const res = await graphqlEvents("free");
    expect(res.errors).toBeUndefined();
    expect(res.data.district.contracts).toBeNull();
    expect(res.data.district.events).toHaveLength(11);
    expect(res.data.districts.data).toHaveLength(1);
    expect(leaks(res.data)).toEqual([]);
  });

  it("an enterprise brief of a locked district, read over REST and MCP, carries no gated fact", async () => {
    const brief = await buildBrief("Locked brief");
    expect(brief.dossier.findings.included).toBe(false);
    expect(brief.dossier.events.length).toBeGreaterThan(0);
    expect(leaks(brief)).toEqual([]);
    expect(leaks(await mcpBrief(await mcp(t.keys.enterprise), brief.brief_id))).toEqual([]);
    // The enterprise organization has not unlocked it either: the same public events.
    expect(leaks((await t.get(`/api/v1/districts/${district}/events`, "enterprise").expect(200)).body)).toEqual([]);
  });

  it("after an unlock the organization reads the full events on every path", async () => {
    await insertUnlock(db, t.orgs.free, "district", district);
    await insertUnlock(db, t.orgs.free, "school", school);
    await insertUnlock(db, t.orgs.enterprise, "district", district);
    for (const path of [`/api/v1/districts/${district}/events`, `/api/v1/schools/${school}/events`])
      expect([path, leaks((await t.get(path, "free").expect(200)).body)]).toEqual([path, GATED]);
    const res = await graphqlEvents("free");
    expect(res.errors).toBeUndefined();
    expect(res.data.district.contracts).toContainEqual({ vendorName: "Infinite Campus" });
    for (const part of [res.data.district, res.data.districts, res.data.school, res.data.districtEvents, res.data.schoolEvents])
      expect(leaks(part)).toEqual(GATED);

    const brief = await buildBrief("Unlocked brief");
    expect(brief.dossier.findings.included).toBe(true);
    expect(leaks(brief.dossier.events)).toEqual(expect.arrayContaining(["Infinite Campus", "/board/minutes/2026-10-14-regular.pdf"]));
    expect(leaks(await mcpBrief(await mcp(t.keys.enterprise), brief.brief_id))).toEqual(expect.arrayContaining(["Infinite Campus"]));
  });

  it("the schema's description of TimelineEvent names exactly the gated event types", () => {
    const named = /\(eventType ([a-z_, ]+)\)/.exec(intelligenceDictionary.TimelineEvent![TYPE]!)?.[1]?.split(", ");
    expect(named?.sort()).toEqual(Object.keys(GATED_EVENT_TITLES).sort());
  });

  it("presentEvent: public kinds and unlocked callers as stored; a locked gated event keeps type, date and a demo marker", () => {
    const event = {
      event_type: "grant_award",
      event_date: "2026-10-20",
      title: "Awarded a $250,000 grant (demo event)",
      description: "x",
      source_url: "y",
    };
    expect(presentEvent(event, true)).toBe(event);
    expect(presentEvent({ ...event, event_type: "news" }, false)).toEqual({ ...event, event_type: "news" });
    expect(presentEvent(event, false)).toEqual({
      event_type: "grant_award",
      event_date: "2026-10-20",
      title: "Grant award recorded (demo event)",
      description: null,
      source_url: null,
    });
    expect(presentEvent({ ...event, title: "Awarded a $250,000 grant" }, false).title).toBe("Grant award recorded");
  });
});
