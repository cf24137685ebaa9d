/**
 * The generated TypeScript client (clients/typescript/) against a live test server: the example script
 * runs as a user would run it (its own process, the API key in the environment) and prints what the
 * server holds; a refused key ends it with the API's error.
 */
import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createEdmarketClient } from "../../clients/typescript";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";

const root = path.join(__dirname, "../..");
let t: TestApp;
let baseUrl: string;
let bigId: string;

beforeAll(async () => {
  t = await createTestApp();
  bigId = await insertDistrict(t.db, { name: "Clientville Unified", state: "WY", student_count: 50_000, fed_id: "5600001" });
  await insertDistrict(t.db, { name: "Smallton District", state: "WY", student_count: 120 });
  await insertDistrict(t.db, { name: "Elsewhere District", state: "MT", student_count: 90_000 });
  baseUrl = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** Runs the example as its own process (async: the test server answers from this one). */
function runExample(apiKey: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(root, "scripts/run-ts.js"), path.join(root, "clients/typescript/example.ts"), ...args],
      {
        env: { ...process.env, EDMARKET_URL: baseUrl, EDMARKET_API_KEY: apiKey },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("clients/typescript/example.ts runs against the server and prints its data", async () => {
  const run = await runExample(t.keys.pro, ["WY"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const lines = run.stdout.trim().split("\n");
  expect(lines[0]).toBe("2 districts in WY; the largest:");
  expect(lines[1]).toBe("- Clientville Unified (WY): 50000 students");
  expect(lines[2]).toBe("- Smallton District (WY): 120 students");
  expect(lines[3]).toBe("detail: Clientville Unified, NCES 5600001, unlocked: false");
  expect(lines[4]).toMatch(/^organization Test pro \(pro\): \d+ credits available$/);
});

test("a refused key ends the example with the API's 401", async () => {
  const run = await runExample("sk_live_not_a_key", []);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("GET /districts: 401");
});

test("the client sends lists comma-separated and types the error body", async () => {
  const client = createEdmarketClient({ baseUrl, apiKey: t.keys.pro });
  const found = await client.GET("/districts", { params: { query: { ids: [bigId, "00000000-0000-4000-8000-000000000000"] } } });
  expect(found.error).toBeUndefined();
  expect(found.data!.data.map((d) => d.id)).toEqual([bigId]);
  const bad = await client.GET("/districts", { params: { query: { limit: 0 } } });
  expect(bad.response.status).toBe(400);
  expect(bad.error).toMatchObject({ error: "bad_request", statusCode: 400 });
  expect(bad.error!.message).toContain("limit");
});
