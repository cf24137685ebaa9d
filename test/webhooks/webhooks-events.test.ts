/**
 * The events beyond unlock.completed and signal.created, each produced by the product on a real app, worker and
 * database and delivered to a local receiver (docs/webhooks.md, "Events"): unlock.failed (an extraction failing
 * after its retries), brief.ready (a brief build), opportunity.created (the opportunity agent's rows for a new project, one event each)
 * and opportunity.verified (a refresh's verification run). Only subscribed events arrive.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { useExtractor } from "../../src/features/account/unlocks/unlock.jobs";
import { pipelineExtractor } from "../../src/features/research/extraction/extraction.extractor";
import { createTestApp, type TestApp } from "../support/app";
import { insert, insertDistrict } from "../support/factories";
import { until } from "../support/wait";

const ENV = {
  EXTRACTION_ALLOW_PRIVATE_HOSTS: "true",
  WORKER_POLL_SECONDS: "0.5",
  JOB_RETRY_DELAY_SECONDS: "0",
  JOB_RETRY_LIMIT: "1",
  WEBHOOK_RETRY_BASE_SECONDS: "1",
};

interface Event {
  type: string;
  timestamp: string;
  data: Record<string, any>;
}

describe("webhook events", () => {
  let t: TestApp;
  let receiver: http.Server;
  let base: string;
  const received: { path: string; event: Event }[] = [];
  const eventsAt = (path: string, type?: string) =>
    received.filter((r) => r.path === path && (!type || r.event.type === type)).map((r) => r.event);

  const subscribe = async (path: string, events: string[]) =>
    (await t.post("/api/v1/webhooks", { url: `${base}${path}`, events }, "enterprise").expect(201)).body.data.id as string;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        // The opportunity's source (GET /story, read by its verification) is a page that is gone.
        if (req.method !== "POST") return void res.writeHead(404).end();
        received.push({ path: req.url ?? "", event: JSON.parse(body) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    t = await createTestApp(ENV, { jobs: "work" });
  });
  afterAll(async () => {
    useExtractor(pipelineExtractor);
    await t?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it("an extraction failing after its retries is unlock.failed, with the error; no unlock.completed", async () => {
    await subscribe("/unlocks", ["unlock.completed", "unlock.failed"]);
    useExtractor(async () => {
      throw new Error("the site is down");
    });
    const district = await insertDistrict(t.db, { name: "Failing Schools", state: "KS" });
    await t.post("/api/v1/unlock", { entity_type: "district", entity_id: district }, "enterprise").expect(202);
    const [failed] = await until(
      async () => eventsAt("/unlocks"),
      (events) => events.length >= 1,
    );
    useExtractor(pipelineExtractor);
    expect(failed).toMatchObject({ type: "unlock.failed", data: { entity_type: "district", entity_id: district, state: "failed" } });
    expect(failed!.data.error).toContain("the site is down");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(eventsAt("/unlocks")).toHaveLength(1);
  });

  it("a brief build is brief.ready with the brief's id", async () => {
    await subscribe("/briefs", ["brief.ready"]);
    const project = (await t.post("/api/v1/projects", { name: "Webhook briefs" }, "enterprise").expect(201)).body.data.id;
    const district = await insertDistrict(t.db, { name: "Brief Ready Schools", state: "NE" });
    const requested = await t
      .post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }, "enterprise")
      .expect(202);
    const [ready] = await until(
      async () => eventsAt("/briefs"),
      (events) => events.length >= 1,
    );
    expect(ready).toEqual({
      type: "brief.ready",
      timestamp: expect.any(String),
      data: { id: requested.body.brief_id, entity_type: "district", entity_id: district, finished_at: expect.any(String) },
    });
    expect((await t.get(`/api/v1/briefs/${requested.body.brief_id}`).expect(200)).body.brief.status).toBe("ready");
  });

  it("the opportunity agent's rows are opportunity.created, one each; a refresh's verification is opportunity.verified", async () => {
    await subscribe("/opportunities", ["opportunity.created", "opportunity.verified"]);
    const district = await insertDistrict(t.db, { name: "Green Mountain Schools", state: "VT", student_count: 4000 });
    const article = await insert(t.db, "articles", {
      url: `${base}/story`,
      title: "Green Mountain approves a bond",
      published_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      data_source: "test",
    });
    await insert(t.db, "signals", {
      article_id: article,
      signal_type: "facility_bond",
      buying_intent: "medium",
      buying_intent_reason: "Money approved.",
      summary: "The board approved a bond.",
      signal_date: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10),
      extraction_confidence: 0.9,
      evidence: JSON.stringify([{ text: "The board approved a bond.", start: 0, end: 26 }]),
      payload: {},
      entity_type: "district",
      entity_resolution_status: "resolved",
      entity_match_confidence: 0.95,
      entity_match_reason: "name and state",
      district_id: district,
      data_source: "test",
    });
    const project = (
      await t
        .post("/api/v1/projects", { name: "Webhook opportunities", icp: { states: ["VT"], entity_types: ["district"] } }, "enterprise")
        .expect(201)
    ).body.data.id;
    // The worker's sweep runs the agent for the new project.
    const written = await until(
      () => t.db.prisma.opportunity.findMany({ where: { project_id: project }, select: { id: true } }),
      (rows) => rows.length > 0,
    );
    const created = await until(
      async () => eventsAt("/opportunities", "opportunity.created"),
      (events) => events.filter((e) => e.data.project_id === project).length >= written.length,
    );
    // Every row the agent has written, one event each (other projects of the organization get theirs too). Polled, not
    // slept on: the sweep may write another project's row after this one's, and under CI's load its delivery took
    // over the one second this test once waited (a CI run of 2026-11-28).
    const { rows, events } = await until(
      async () => ({
        rows: await t.db.prisma.opportunity.findMany({ where: { organization_id: t.orgs.enterprise }, select: { id: true } }),
        events: eventsAt("/opportunities", "opportunity.created"),
      }),
      (seen) => seen.rows.every((row) => seen.events.some((e) => e.data.id === row.id)),
    );
    expect(events.map((e) => e.data.id).sort()).toEqual(rows.map((w) => w.id).sort());
    expect(created.find((e) => e.data.project_id === project)!.data).toMatchObject({
      project_id: project,
      entity_type: "district",
      district_id: district,
      signal_type: "facility_bond",
    });

    const id = written[0]!.id;
    await t.post(`/api/v1/opportunities/${id}/refresh`, {}, "enterprise").expect(202);
    const [verified] = await until(
      async () => eventsAt("/opportunities", "opportunity.verified"),
      (events) => events.length >= 1,
    );
    expect(verified!.data).toMatchObject({ id, verification_status: expect.stringMatching(/^(confirmed|unreachable)$/) });
    expect(verified!.data.last_verified_at).toEqual(expect.any(String));
  });
});
