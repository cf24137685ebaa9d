/**
 * `edmarket mcp` as an assistant runs it: a separate process speaking MCP on stdio, driven by the
 * official SDK client, against this file's own database (PostgreSQL) or a temporary embedded data
 * directory (which only one process may open at a time: setup and checks happen while no child runs).
 */
import { spawn as nodeSpawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createDb, type Db } from "../../src/db/client";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { createTestDataDir, createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";

const root = path.resolve(__dirname, "../..");
type Result = { isError?: boolean; content: { type: string; text: string }[] };
const body = (result: Result) => JSON.parse(result.content[0].text);
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

describe("edmarket mcp (stdio)", () => {
  let pg: TestDb | undefined;
  let dataDir: string | undefined;
  let baseEnv: Record<string, string>;
  let apiKey: string;
  let organizationId: string;
  let districtId: string;

  /** The database for setup and checks: PostgreSQL's stays open; the embedded one only between children. */
  const withDb = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
    if (pg) return fn(pg);
    const db = await createDb({ dataDir });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };

  beforeAll(async () => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    delete inherited.DATABASE_URL;
    if (process.env.DATABASE_URL) {
      pg = await createTestDb();
      baseEnv = { ...inherited, DATABASE_URL: pg.url!, LOG_LEVEL: "silent" };
    } else {
      dataDir = await createTestDataDir("edm-mcp-");
      baseEnv = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
    }
    await withDb(async (db) => {
      organizationId = (await createOrganization(db, { name: "Mcp Stdio", plan: "pro", credits: 50 })).organizationId;
      apiKey = (await createApiKey(db, organizationId)).apiKey;
      districtId = await insertDistrict(db, { name: "Stdio Test District", state: "WY", status: "completed", ai_summary: "stdio secret" });
    });
  });
  afterAll(async () => {
    await pg?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const spawn = (args: string[], env: Record<string, string>) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["scripts/run-ts.js", "bin/cli.ts", "mcp", ...args],
      cwd: root,
      env,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    return { transport, stderr: () => stderr };
  };

  /** Waits until the child has exited (the embedded database is free again). */
  const exited = async (pid: number | null | undefined) => {
    for (let i = 0; pid && i < 200; i += 1) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it("serves the tools with the key from EDMARKET_API_KEY: list, search, details, unlock with channel mcp", async () => {
    const { transport } = spawn([], { ...baseEnv, EDMARKET_API_KEY: apiKey });
    const client = new Client({ name: "edmarket-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "create_project",
        "create_webhook",
        "delete_webhook",
        "details",
        "file_bid",
        "get_brief",
        "list_email_templates",
        "list_opportunities",
        "list_projects",
        "list_webhooks",
        "metric_query",
        "metrics",
        "news_article",
        "news_feed",
        "opportunity_verification",
        "outreach_email",
        "refresh_opportunity",
        "request_brief",
        "search",
        "semantic_search",
        "signals_feed",
        "summarize",
        "unlock",
        "webhook_deliveries",
      ]);

      const page = body((await client.callTool({ name: "search", arguments: { entity: "districts", filter: { state: "WY" } } })) as Result);
      expect(page.pagination.total).toBe(1);
      expect(page.data[0]).toMatchObject({ id: districtId, name: "Stdio Test District", _access: { is_unlocked: false } });

      const locked = body((await client.callTool({ name: "details", arguments: { entity: "district", id: districtId } })) as Result);
      expect(locked.data).toMatchObject({ id: districtId, ai_summary: null });

      const unlocked = body(
        (await client.callTool({ name: "unlock", arguments: { entity_type: "district", entity_id: districtId } })) as Result,
      );
      expect(unlocked).toMatchObject({ outcome: "unlocked", credits_charged: 6, credits_remaining: 44 });
      const after = body((await client.callTool({ name: "details", arguments: { entity: "district", id: districtId } })) as Result);
      expect(after.data).toMatchObject({ ai_summary: "stdio secret", _access: { is_unlocked: true } });
    } finally {
      const pid = transport.pid;
      await client.close();
      await exited(pid);
    }
    const rows = await withDb((db) =>
      db.query<{ channel: string }>(`SELECT channel FROM unlocks WHERE organization_id = $1 AND entity_id = $2`, [
        organizationId,
        districtId,
      ]),
    );
    expect(rows).toEqual([{ channel: "mcp" }]);
  });

  it("creates and lists the organization's projects, and exits without an error on stderr (issue 20 point 14)", async () => {
    const { transport, stderr } = spawn(["--key", apiKey], { ...baseEnv, LOG_LEVEL: "warn" });
    const client = new Client({ name: "edmarket-test", version: "1.0.0" });
    await client.connect(transport);
    let created: Result;
    let listed: Result;
    try {
      created = (await client.callTool({ name: "create_project", arguments: { name: "Stdio project" } })) as Result;
      listed = (await client.callTool({ name: "list_projects", arguments: {} })) as Result;
    } finally {
      const pid = transport.pid;
      await client.close();
      await exited(pid);
    }
    // Closing stdin ends the command quietly: it used to print "RangeError: Maximum call stack size exceeded" three times.
    expect(stderr()).not.toMatch(/RangeError|Maximum call stack|Exception in PromiseRejectCallback/);
    expect(created.isError).toBeFalsy();
    const projectId = body(created).data.id as string;
    expect(body(listed).data.map((p: { id: string; name: string }) => [p.id, p.name])).toContainEqual([projectId, "Stdio project"]);
    const rows = await withDb((db) =>
      db.query<{ organization_id: string }>(`SELECT organization_id FROM projects WHERE id = $1`, [projectId]),
    );
    expect(rows).toEqual([{ organization_id: organizationId }]);
  });

  it("runs beside `serve` on the same database: on the embedded one it relays to the service's /mcp (issue 20 point 14)", async () => {
    const port = await freePort();
    const serve = nodeSpawn(process.execPath, ["scripts/run-ts.js", "bin/cli.ts", "serve", "--role", "api"], {
      cwd: root,
      env: { ...baseEnv, PORT: String(port), HOST: "127.0.0.1", SEED_ON_EMPTY: "false", LOG_LEVEL: "error" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let serveErr = "";
    serve.stderr?.on("data", (chunk: Buffer) => (serveErr += chunk.toString()));
    try {
      for (let i = 0; ; i += 1) {
        const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        if (serve.exitCode !== null || i > 1200) throw new Error(`serve did not start: ${serveErr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const { transport, stderr } = spawn([], { ...baseEnv, EDMARKET_API_KEY: apiKey });
      const client = new Client({ name: "edmarket-test", version: "1.0.0" });
      // Before: refused at start with data_dir_locked (one process per embedded data directory).
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain("list_projects");
        const page = body(
          (await client.callTool({ name: "search", arguments: { entity: "districts", filter: { state: "WY" } } })) as Result,
        );
        expect(page.data.map((d: { id: string }) => d.id)).toEqual([districtId]);
        const created = body((await client.callTool({ name: "create_project", arguments: { name: "Beside serve" } })) as Result);
        const listed = body((await client.callTool({ name: "list_projects", arguments: {} })) as Result);
        expect(listed.data.map((p: { id: string }) => p.id)).toContain(created.data.id);
        const bad = (await client.callTool({ name: "details", arguments: { entity: "district", id: "nope" } })) as Result;
        expect(bad.isError).toBe(true);
        expect(body(bad)).toMatchObject({ error: "bad_request", statusCode: 400 });
      } finally {
        const pid = transport.pid;
        await client.close();
        await exited(pid);
      }
      expect(stderr()).not.toMatch(/RangeError|data_dir_locked/);

      // A bad key is refused before any MCP message, as without a service.
      const refused = spawn(["--key", `sk_live_${"0".repeat(40)}`], baseEnv);
      const other = new Client({ name: "edmarket-test", version: "1.0.0" });
      await expect(other.connect(refused.transport)).rejects.toThrow();
      await exited(refused.transport.pid);
      expect(JSON.parse(refused.stderr().trim().split("\n").at(-1)!)).toMatchObject({ error: "unauthenticated" });
    } finally {
      const gone = new Promise((r) => serve.once("exit", r));
      if (serve.exitCode === null) serve.kill("SIGTERM");
      await gone;
    }
  });

  it("refuses to start with a bad or missing key: exit before any MCP message, the reason on stderr", async () => {
    for (const args of [["--key", `sk_live_${"0".repeat(40)}`], []]) {
      const { transport, stderr } = spawn(args, baseEnv);
      const client = new Client({ name: "edmarket-test", version: "1.0.0" });
      await expect(client.connect(transport)).rejects.toThrow();
      await exited(transport.pid);
      const line = JSON.parse(stderr().trim().split("\n").at(-1)!);
      expect(line).toMatchObject({ error: "unauthenticated", message: expect.stringMatching(/API key/) });
    }
  });
});
