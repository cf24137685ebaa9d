/**
 * `edmarket extract --entity district:<uuid> [--url <root>]` as an operator runs it: a separate process,
 * one JSON summary on stdout, against this file's database (PostgreSQL) or a temporary embedded one.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createTestDb, openTestDataDir, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { deadOrigin, EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "./support/fixture-server";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

describe("edmarket extract", () => {
  let db: TestDb | undefined;
  let dataDir: string | undefined;
  let env: NodeJS.ProcessEnv;
  let site: FixtureSite;
  let districtId: string;

  beforeAll(async () => {
    site = await serveFixtureSite("cedar-ridge");
    const base = { ...process.env, LOG_LEVEL: "silent", ...EXTRACTION_TEST_ENV };
    if (process.env.DATABASE_URL) {
      db = await createTestDb();
      env = { ...base, DATABASE_URL: db.url };
      districtId = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE" });
    } else {
      const opened = await openTestDataDir("edm-extract-");
      dataDir = opened.dataDir;
      env = { ...base, DATA_DIR: dataDir, SEED_ON_EMPTY: "false" };
      delete env.DATABASE_URL;
      const embedded = opened.db;
      try {
        districtId = await insertDistrict(embedded, { name: "Cedar Ridge Public Schools", state: "NE" });
      } finally {
        await embedded.close();
      }
    }
  });
  afterAll(async () => {
    await site?.close();
    await db?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run("node", ["scripts/run-ts.js", "bin/cli.ts", ...args], { cwd: root, env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it("runs the pipeline in the foreground and prints one JSON summary", async () => {
    const { code, stdout } = await cli("extract", "--entity", `district:${districtId}`, "--url", `${site.origin}/`);
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]!);
    expect(summary).toMatchObject({
      entity_type: "district",
      entity_id: districtId,
      status: "completed",
      root_url: `${site.origin}/`,
      pages_fetched: 9,
      counts: { contacts: 8, vendors: 9, bids: 3, meeting_minutes_pdfs: 1 },
      text_provider: "extractive",
      error: null,
    });
    expect(summary.bytes).toBeGreaterThan(10_000);
    expect(summary.errors.map((e: { kind: string }) => e.kind).sort()).toEqual([
      "http_status",
      "pdf",
      "redirect_loop",
      "timeout",
      "too_large",
    ]);
    expect(Object.keys(summary.timings_ms)).toEqual(["map", "fetch", "extract", "summarize", "store"]);
  });

  it("prints the failed run's summary and exits 1 when the site is dead", async () => {
    const { code, stdout } = await cli("extract", "--entity", `district:${districtId}`, "--url", `${await deadOrigin()}/`);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: "error", pages_fetched: 0, error: expect.stringMatching(/^site unreachable/) });
  });

  it("refuses a malformed --entity with a usage error", async () => {
    const { code, stdout, stderr } = await cli("extract", "--entity", "district:not-a-uuid");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(JSON.parse(stderr)).toEqual({
      error: "usage",
      message: "--entity must be district:<uuid> or school:<uuid>, not district:not-a-uuid",
    });
  });
});
