/**
 * Issue 20 point 2, briefs built before it: a build for an organization that had not unlocked the entity stored
 * the entity's timeline events whole, gated ones included (a contract award quoting vendor, amount and expiry,
 * the minutes' URL), and its narrative quoted them. Such a brief, stored as an old build stored it and then
 * upgraded by the migrations, serves none of those facts to the locked organization over REST, GraphQL and MCP
 * (events presented with the organization's current unlock; the narrative withheld and the brief failed so that
 * POST /briefs builds it again); a rebuild while locked quotes none of them; after an unlock the same brief shows
 * the events whole.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { migrate, MIGRATIONS_DIR } from "../../src/db/migrate";
import { GATED_EVENT_TITLES } from "../../src/features/catalogue/events/event.access";
import { createTestApp, type TestApp } from "../support/app";
import { insertEvent, insertUnlock } from "../support/block-factories";
import { createTestDb, type TestDb } from "../support/db";
import { insert, insertDistrict } from "../support/factories";
import { until } from "../support/wait";

const MIGRATION = "20261204000000_brief_event_regate";
const MINUTES_URL = "https://cedar.example.org/board/minutes/2026-10-14-regular.pdf";
const CONTRACT_TITLE = "Board approves a three-year contract with PowerSchool for $412,000 expiring June 30, 2029";
const GATED = ["PowerSchool", "412,000", "June 30, 2029", MINUTES_URL];
const leaks = (value: unknown): string[] => {
  const text = JSON.stringify(value);
  return GATED.filter((s) => text.includes(s));
};

/** The database as it was before this migration: every earlier migration applied. */
async function migrateBefore(db: TestDb): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-migrations-"));
  try {
    for (const name of fs.readdirSync(MIGRATIONS_DIR).filter((n) => n < MIGRATION))
      fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
    await migrate(db, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("briefs built before event gating (issue 20 point 2)", () => {
  let db: TestDb;
  let t: TestApp;
  let district: string;
  let project: string;
  let briefId: string;
  const clients: Client[] = [];

  const readAll = async () => {
    const rest = (await t.get(`/api/v1/briefs/${briefId}`).expect(200)).body.brief;
    const pair = (await t.get(`/api/v1/briefs?project_id=${project}&entity_type=district&entity_id=${district}`).expect(200)).body.brief;
    const graphql = await t.graphql(`query($id: UUID!) { briefById(briefId: $id) { status error dossier } }`, { id: briefId });
    expect(graphql.errors).toBeUndefined();
    const client = new Client({ name: "edmarket-test", version: "1.0.0" });
    const url = new URL(`http://127.0.0.1:${(t.server.address() as { port: number }).port}/mcp`);
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${t.keys.enterprise}` } } }),
    );
    clients.push(client);
    const result = (await client.callTool({ name: "get_brief", arguments: { brief_id: briefId } })) as { content: { text: string }[] };
    const mcp = JSON.parse(result.content[0]!.text);
    return { rest, pair, graphql: graphql.data.briefById, mcp };
  };

  beforeAll(async () => {
    db = await createTestDb({ migrate: false });
    await migrateBefore(db);
    district = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE" });
    await insertEvent(db, "district", district, "2026-10-14", {
      event_type: "contract_award",
      title: CONTRACT_TITLE,
      description: "Minutes: the board approved the PowerSchool contract for $412,000 through June 30, 2029.",
      source_url: MINUTES_URL,
      data_source: "extraction",
    });
    await insertEvent(db, "district", district, "2026-09-01", { title: "Bond election set for November" });
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t?.close();
    await db?.close();
  });

  it("an old locked build's leaked events and narrative are not served after the upgrade (REST, GraphQL, MCP)", async () => {
    // The organization exists before the upgrade in real life; here the app (the current code, which needs the
    // current schema) creates its organizations after the upgrade, and the old brief is handed to one of them then.
    const before = crypto.randomUUID();
    project = await insert(db, "projects", { organization_id: before, name: "Old brief" });
    const oldEvents = [
      {
        event_date: "2026-10-14",
        event_type: "contract_award",
        title: CONTRACT_TITLE,
        description: "Minutes: PowerSchool, $412,000.",
        source_url: MINUTES_URL,
        data_source: "extraction",
      },
      {
        event_date: "2026-09-01",
        event_type: "news",
        title: "Bond election set for November",
        description: "Local coverage",
        source_url: "https://example.test/event",
        data_source: "test",
      },
    ];
    briefId = await insert(db, "briefs", {
      organization_id: before,
      project_id: project,
      entity_type: "district",
      entity_id: district,
      status: "ready",
      generator: "extractive",
      finished_at: new Date("2026-11-20T00:00:00Z"),
      dossier: {
        entity: { type: "district", id: district, name: "Cedar Ridge Public Schools", state: "NE" },
        built_at: "2026-11-20T00:00:00.000Z",
        statistics: { trend: [], enrollment_change: null },
        finance: { trend: [] },
        people: [],
        findings: { included: false, note: "Extracted findings are withheld." },
        events: oldEvents,
        narrative: {
          text: `Extractive draft. ${CONTRACT_TITLE}.`,
          provider: "extractive",
          model: null,
          language_model_used: false,
          source_urls: [MINUTES_URL],
        },
        data_source: { events: ["extraction", "test"] },
      },
    });
    // Before the upgrade the stored row holds every gated fact (what an old build wrote).
    const [stored] = await db.query<{ dossier: unknown }>(`SELECT dossier FROM briefs WHERE id = $1`, [briefId]);
    expect(leaks(stored)).toEqual(GATED);

    await migrate(db); // the upgrade
    t = await createTestApp({ JOB_RETRY_LIMIT: "1", WORKER_POLL_SECONDS: "0.5" }, { jobs: "work", db });
    for (const table of ["projects", "briefs"])
      await db.query(`UPDATE ${table} SET organization_id = $1 WHERE organization_id = $2`, [t.orgs.enterprise, before]);

    const read = await readAll();
    for (const [face, brief] of Object.entries(read)) expect([face, leaks(brief)]).toEqual([face, []]);
    expect(read.rest).toMatchObject({ status: "failed", error: expect.stringContaining("POST /briefs builds it again") });
    expect(read.rest.dossier.narrative).toMatchObject({ included: false });
    expect(read.rest.dossier.events).toEqual([
      { ...oldEvents[0], title: GATED_EVENT_TITLES.contract_award, description: null, source_url: null },
      oldEvents[1],
    ]);
    expect(read.mcp.brief.dossier.events).toEqual(read.rest.dossier.events);
    expect(read.graphql.dossier.events).toEqual(read.rest.dossier.events);
  });

  it("POST /briefs rebuilds it; the locked rebuild quotes no gated fact", async () => {
    const started = await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }).expect(202);
    expect(started.body).toMatchObject({ brief_id: briefId, started: true });
    const brief = await until(
      async () => (await t.get(`/api/v1/briefs/${briefId}`).expect(200)).body.brief,
      (b) => b.status !== "building",
    );
    expect(brief).toMatchObject({ status: "ready", error: null });
    expect(brief.dossier.narrative.text).toEqual(expect.any(String));
    const read = await readAll();
    for (const [face, b] of Object.entries(read)) expect([face, leaks(b)]).toEqual([face, []]);
  });

  it("after an unlock the organization reads the stored events whole (the narrative stays as built)", async () => {
    await insertUnlock(db, t.orgs.enterprise, "district", district);
    const read = await readAll();
    for (const [face, brief] of Object.entries(read)) {
      const dossier = face === "graphql" ? brief.dossier : face === "mcp" ? brief.brief.dossier : brief.dossier;
      expect([face, leaks(dossier.events)]).toEqual([face, GATED]);
      expect([face, leaks(dossier.narrative)]).toEqual([face, []]);
    }
    // The rebuild's events are chronological, as the district's events block serves them: the latest last.
    expect(read.rest.dossier.events.at(-1)).toMatchObject({ event_type: "contract_award", title: CONTRACT_TITLE, source_url: MINUTES_URL });
  });
});
