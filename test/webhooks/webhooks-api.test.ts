/**
 * Webhooks over REST and GraphQL without a worker (docs/webhooks.md): creation shows the secret once, the list never
 * does, another organization's webhook is a 404 on every path, the crawler's address rules refuse private and
 * loopback targets (no EXTRACTION_ALLOW_PRIVATE_HOSTS here), hostile bodies are 400s naming the problem, the cap per
 * organization, and the outbox writes nothing for a rolled-back change.
 */
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AddressInfo } from "node:net";
import { attemptDelivery } from "../../src/features/account/webhooks/webhook.delivery";
import { WEBHOOKS_PER_ORGANIZATION } from "../../src/features/account/webhooks/webhook.inputs";
import { emitEvent } from "../../src/features/account/webhooks/webhook.outbox";
import { createTestApp, type TestApp } from "../support/app";

const PUBLIC_URL = "https://hooks.integrator.example/edmarket";

describe("webhooks API", () => {
  let t: TestApp;
  let id: string;
  let secret: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("POST /webhooks answers 201 with id, url, events, secret and created_at; the secret is a whsec_ key of 32 bytes", async () => {
    const res = await t.post(
      "/api/v1/webhooks",
      { url: PUBLIC_URL, events: ["unlock.failed", "unlock.completed", "unlock.completed"] },
      "pro",
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(["created_at", "events", "id", "secret", "url"]);
    expect(res.body.data).toMatchObject({ url: PUBLIC_URL, events: ["unlock.completed", "unlock.failed"] });
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(res.body.data.secret.slice("whsec_".length), "base64")).toHaveLength(32);
    ({ id, secret } = res.body.data);
  });

  it("GET /webhooks lists it without the secret; GraphQL's secret is null outside the creation", async () => {
    const res = await t.get("/api/v1/webhooks", "pro").expect(200);
    expect(res.body.data).toEqual([
      {
        id,
        url: PUBLIC_URL,
        events: ["unlock.completed", "unlock.failed"],
        enabled: true,
        consecutive_failures: 0,
        disabled_at: null,
        disabled_reason: null,
        created_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    const gql = await t.graphql("{ webhooks { id secret } }", {}, "pro");
    expect(gql).toEqual({ data: { webhooks: [{ id, secret: null }] } });
    const deliveries = await t.get(`/api/v1/webhooks/${id}/deliveries`, "pro").expect(200);
    expect(deliveries.body).toEqual({ data: [] });
  });

  it("another organization's webhook is a 404 to list, read deliveries of or delete; it still exists after", async () => {
    expect((await t.get("/api/v1/webhooks", "free").expect(200)).body).toEqual({ data: [] });
    const deliveries = await t.get(`/api/v1/webhooks/${id}/deliveries`, "free");
    expect([deliveries.status, deliveries.body.error]).toEqual([404, "not_found"]);
    const deleted = await t.http.delete(`/api/v1/webhooks/${id}`).set("Authorization", `Bearer ${t.keys.free}`);
    expect([deleted.status, deleted.body.error]).toEqual([404, "not_found"]);
    const gql = await t.graphql(`mutation { deleteWebhook(webhookId: "${id}") { id } }`, {}, "free");
    expect(gql.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(await t.db.prisma.webhook.count({ where: { id } })).toBe(1);
  });

  it.each([
    ["http://127.0.0.1:8080/hook", "loopback"],
    ["http://localhost/hook", "loopback"],
    ["http://api.localhost/hook", "loopback"],
    ["http://[::1]/hook", "loopback"],
    ["http://10.1.2.3/hook", "private"],
    ["http://169.254.169.254/latest/meta-data", "link-local"],
    ["http://0x7f.1/hook", "loopback"],
    ["http://[::ffff:192.168.0.1]/hook", "private"],
  ])("refuses the private or loopback target %s with a 400", async (url, kind) => {
    const res = await t.post("/api/v1/webhooks", { url, events: ["brief.ready"] }, "pro");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("bad_request");
    expect(res.body.message).toMatch(/url .* address: webhooks are delivered to public addresses only/);
    expect(res.body.message.toLowerCase()).toContain(kind.split("-")[0]);
  });

  it("a delivery attempt to a loopback address is refused before connecting", async () => {
    let received = 0;
    const receiver = http.createServer((_req, res) => {
      received++;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = (receiver.address() as AddressInfo).port;
    try {
      const result = await attemptDelivery(`http://127.0.0.1:${port}/`, secret, "msg", 1, "{}", {
        allowPrivateHosts: false,
        timeoutMs: 2000,
      });
      expect(result).toEqual({ ok: false, status: null, error: expect.stringMatching(/^refused address 127\.0\.0\.1/) });
      expect(received).toBe(0);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it.each([
    [{ events: ["brief.ready"] }, /url/],
    [{ url: "", events: ["brief.ready"] }, /url is required/],
    [{ url: "not a url", events: ["brief.ready"] }, /not an absolute URL/],
    [{ url: "javascript:alert(1)", events: ["brief.ready"] }, /http or https/],
    [{ url: "ftp://files.example.com/x", events: ["brief.ready"] }, /http or https/],
    [{ url: "https://user:pw@hooks.example.com/x", events: ["brief.ready"] }, /user name or password/],
    [{ url: `https://hooks.example.com/${"a".repeat(3000)}`, events: ["brief.ready"] }, /at most 2048 characters/],
    [{ url: "https://hooks.example.com/x", events: Array(10_000).fill("brief.ready") }, /events must have at most 100 entries/],
    [{ url: 42, events: ["brief.ready"] }, /url/i],
    [{ url: PUBLIC_URL }, /events/],
    [{ url: PUBLIC_URL, events: [] }, /events must name at least one/],
    [{ url: PUBLIC_URL, events: ["unlock.done"] }, /unknown event "unlock\.done"/],
    [{ url: PUBLIC_URL, events: [{ name: "brief.ready" }] }, /events/],
    [{ url: PUBLIC_URL, events: [null] }, /events/],
    [{ url: PUBLIC_URL, events: ["brief.ready"], secret: "mine" }, /secret/],
    [{ url: PUBLIC_URL, events: [`x${"\u0000".repeat(5)}`] }, /unknown event|NUL/i],
  ])("POST /webhooks with a bad body (case %#) is a 400 naming the problem", async (body, message) => {
    const res = await t.post("/api/v1/webhooks", body, "pro");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
    expect(res.body.message).toMatch(message);
  });

  it("bad ids and limits of the delivery log are 400s; an unknown id is a 404", async () => {
    for (const path of [
      `/api/v1/webhooks/${id}/deliveries?limit=0`,
      `/api/v1/webhooks/${id}/deliveries?limit=1000`,
      "/api/v1/webhooks/nope/deliveries",
    ]) {
      const res = await t.get(path, "pro");
      expect([path, res.status]).toEqual([path, 400]);
    }
    const res = await t.get("/api/v1/webhooks/00000000-0000-4000-8000-000000000000/deliveries", "pro");
    expect(res.status).toBe(404);
  });

  it(`an organization may have ${WEBHOOKS_PER_ORGANIZATION} webhooks; one more is a 400 until one is deleted`, async () => {
    for (let n = 1; n < WEBHOOKS_PER_ORGANIZATION; n++)
      await t.post("/api/v1/webhooks", { url: `${PUBLIC_URL}/${n}`, events: ["brief.ready"] }, "pro").expect(201);
    const over = await t.post("/api/v1/webhooks", { url: PUBLIC_URL, events: ["brief.ready"] }, "pro");
    expect([over.status, over.body.message]).toEqual([
      400,
      `an organization may have at most ${WEBHOOKS_PER_ORGANIZATION} webhooks: delete one first`,
    ]);
    await t.http.delete(`/api/v1/webhooks/${id}`).set("Authorization", `Bearer ${t.keys.pro}`).expect(204);
    expect((await t.get(`/api/v1/webhooks/${id}/deliveries`, "pro")).status).toBe(404);
    await t.post("/api/v1/webhooks", { url: PUBLIC_URL, events: ["brief.ready"] }, "pro").expect(201);
  });

  it("an event of a rolled-back change writes no delivery; a committed one writes one per subscribed webhook", async () => {
    const org = t.orgs.enterprise;
    const created = await t.post("/api/v1/webhooks", { url: PUBLIC_URL, events: ["brief.ready"] }, "enterprise").expect(201);
    await t.post("/api/v1/webhooks", { url: PUBLIC_URL, events: ["unlock.failed"] }, "enterprise").expect(201);
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await emitEvent(tx, "brief.ready", org, { id: "rolled back" });
        throw new Error("the change fails");
      }),
    ).rejects.toThrow("the change fails");
    expect(await t.db.prisma.webhookDelivery.count({ where: { organization_id: org } })).toBe(0);
    await t.db.prisma.$transaction((tx) => emitEvent(tx, "brief.ready", org, { id: "committed" }));
    const rows = await t.db.prisma.webhookDelivery.findMany({ where: { organization_id: org } });
    expect(rows.map((r) => [r.webhook_id, r.event_type, r.payload, r.status])).toEqual([
      [created.body.data.id, "brief.ready", { id: "committed" }, "pending"],
    ]);
  });
});

describe("webhooks over MCP", () => {
  let t: TestApp;
  let client: Client;
  beforeAll(async () => {
    t = await createTestApp();
    client = new Client({ name: "webhooks-test", version: "1.0.0" });
    const url = new URL(`http://127.0.0.1:${(t.server.address() as AddressInfo).port}/mcp`);
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${t.keys.pro}` } } }));
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    return { isError: Boolean(result.isError), body: JSON.parse(result.content[0]!.text) };
  };

  it("creates (secret once), lists, reads the delivery log and deletes, as the REST endpoints do", async () => {
    const created = await call("create_webhook", { url: PUBLIC_URL, events: ["brief.ready"] });
    expect(created.isError).toBe(false);
    expect(created.body.data).toMatchObject({ url: PUBLIC_URL, events: ["brief.ready"], secret: expect.stringMatching(/^whsec_/) });
    const id = created.body.data.id as string;
    const listed = await call("list_webhooks", {});
    expect(listed.body.data).toEqual([expect.objectContaining({ id, url: PUBLIC_URL, enabled: true })]);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");
    expect((await call("webhook_deliveries", { webhook_id: id, limit: 5 })).body).toEqual({ data: [] });
    expect((await call("delete_webhook", { webhook_id: id })).body).toEqual({ data: { id } });
    expect((await call("list_webhooks", {})).body).toEqual({ data: [] });
  });

  it("refuses bad arguments with bad_request and an unknown id with not_found", async () => {
    const unknownEvent = await call("create_webhook", { url: PUBLIC_URL, events: ["signal.deleted"] });
    expect([unknownEvent.isError, unknownEvent.body.error]).toEqual([true, "bad_request"]);
    const notAList = await call("create_webhook", { url: PUBLIC_URL, events: "brief.ready" });
    expect([notAList.isError, notAList.body.error]).toEqual([true, "bad_request"]);
    const missing = await call("webhook_deliveries", { webhook_id: "00000000-0000-4000-8000-000000000000" });
    expect([missing.isError, missing.body.error]).toEqual([true, "not_found"]);
    const tooMany = await call("webhook_deliveries", { webhook_id: "00000000-0000-4000-8000-000000000000", limit: 100000 });
    expect([tooMany.isError, tooMany.body.error]).toEqual([true, "bad_request"]);
  });
});
