/**
 * `edmarket ingest news-feed <url-or-file>` and `edmarket news feed add|list|remove` as an operator runs them: a
 * separate process, one JSON object on stdout, against this file's database (PostgreSQL) or a temporary embedded
 * one. The articles are stored whatever the analysis does (it may still be unfinished or throw).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createDb, type Db } from "../../src/db/client";
import { createTestDataDir, createTestDb, type TestDb } from "../support/db";
import { NEWS_TEST_ENV, serveNewsSite, type NewsSite } from "./support/news-server";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

describe("edmarket ingest news-feed / news feed", () => {
  let db: TestDb | undefined;
  let dataDir: string | undefined;
  let env: NodeJS.ProcessEnv;
  let site: NewsSite;

  beforeAll(async () => {
    site = await serveNewsSite();
    site.setPage("dup-a", [
      "The district approved a new contract with its teachers' union on Tuesday night, ending months of talks. ".repeat(3),
    ]);
    site.setPage(
      "dup-b",
      ["The district approved a new contract with its teachers' union on Tuesday night, ending months of talks. ".repeat(3)],
      {
        canonical: "/gen/dup-a",
        title: "dup-a",
      },
    );
    const base = { ...process.env, ...NEWS_TEST_ENV, EXTRACTION_ALLOW_PRIVATE_HOSTS: "false" };
    if (process.env.DATABASE_URL) {
      db = await createTestDb();
      env = { ...base, DATABASE_URL: db.url };
    } else {
      dataDir = await createTestDataDir("edm-news-cli-");
      env = { ...base, DATA_DIR: dataDir, SEED_ON_EMPTY: "false" };
      delete env.DATABASE_URL;
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
  const json = (stdout: string) => {
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]!);
  };
  /** This file's database, read after the CLI process has let go of it. */
  const query = async <T>(sql: string): Promise<T[]> => {
    if (db) return db.query<T>(sql);
    const embedded: Db = await createDb({ dataDir: dataDir! });
    try {
      return await embedded.query<T>(sql);
    } finally {
      await embedded.close();
    }
  };

  it("ingests a feed URL once and prints its summary; a second run changes nothing", async () => {
    const first = await cli("ingest", "news-feed", `${site.origin}/feeds/rss-quirks.xml`);
    expect(first.code).toBe(0);
    const summary = json(first.stdout);
    expect(summary).toMatchObject({ format: "rss", items: 11, new: 9, updated: 0, unchanged: 1, failed: 1 });
    expect(summary.analyzed + summary.analysis_failed).toBe(9);
    expect(typeof summary.signals).toBe("number");
    expect(typeof summary.seconds).toBe("number");
    const rows = await query<{ n: number; pages: number; cli: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE text_source = 'page')::int AS pages, count(*) FILTER (WHERE origin = 'cli')::int AS cli FROM articles`,
    );
    expect(rows[0]).toEqual({ n: 9, pages: 2, cli: 9 });

    const second = json((await cli("ingest", "news-feed", `${site.origin}/feeds/rss-quirks.xml`)).stdout);
    expect(second).toMatchObject({ items: 11, new: 0, updated: 0, unchanged: 10, failed: 1 });
    expect(second.fetch_status.known).toBeGreaterThan(0);

    // --refetch: the pages already stored are fetched and read again (nothing changed, so nothing is updated).
    const requests = site.requests.length;
    const refetched = json((await cli("ingest", "news-feed", `${site.origin}/feeds/rss-quirks.xml`, "--refetch")).stdout);
    expect(refetched).toMatchObject({ items: 11, new: 0, updated: 0, unchanged: 10, failed: 1 });
    expect(refetched.fetch_status.known).toBeUndefined();
    expect(site.requests.slice(requests)).toContain("/gen/dup-a");
    // A value means the flag was put before the feed: a usage error, nothing ingested.
    const misplaced = await cli("ingest", "news-feed", "--refetch", `${site.origin}/feeds/rss-quirks.xml`);
    expect(misplaced.code).toBe(2);
    expect(JSON.parse(misplaced.stderr.trim())).toMatchObject({
      error: "usage",
      message: expect.stringContaining("--refetch takes no value"),
    });
  }, 120_000);

  it("ingests a feed file; its items' pages are on a private host the file does not vouch for", async () => {
    const file = path.join(os.tmpdir(), `edm-news-${process.pid}.xml`);
    fs.writeFileSync(
      file,
      `<?xml version="1.0"?><rss version="2.0"><channel><title>file</title><link>${site.origin}/</link>
       <item><title>From a file</title><link>/gen/from-file?utm_source=file</link><description>A feed read from a file, its link relative to the channel.</description></item>
       </channel></rss>`,
    );
    try {
      const result = await cli("ingest", "news-feed", file);
      expect(result.code).toBe(0);
      // A file is no feed host: its item's page on 127.0.0.1 is refused, the item's own text stored.
      expect(json(result.stdout)).toMatchObject({ items: 1, new: 1, fetch_status: { forbidden_address: 1 } });
    } finally {
      fs.rmSync(file, { force: true });
    }
    expect(await query(`SELECT url, text, text_source, origin FROM articles WHERE title = 'From a file'`)).toEqual([
      {
        url: `${site.origin}/gen/from-file`,
        text: "A feed read from a file, its link relative to the channel.",
        text_source: "feed_item",
        origin: "cli",
      },
    ]);
    expect(site.requests).not.toContain("/gen/from-file?utm_source=file");
    const missing = await cli("ingest", "news-feed", "/no/such/feed.xml");
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stderr.trim())).toMatchObject({ error: "usage" });
  }, 120_000);

  it("adds, lists and removes a polled feed", async () => {
    const added = json((await cli("news", "feed", "add", `${site.origin}/feeds/atom.xml`)).stdout);
    expect(added).toMatchObject({ added: true, feed: { url: `${site.origin}/feeds/atom.xml`, last_status: null } });
    expect(json((await cli("news", "feed", "add", `${site.origin}/feeds/atom.xml`)).stdout)).toMatchObject({ added: false });
    const listed = json((await cli("news", "feed", "list")).stdout);
    expect(listed.feeds.map((f: { id: string }) => f.id)).toEqual([added.feed.id]);
    expect(json((await cli("news", "feed", "remove", added.feed.id)).stdout)).toEqual({ removed: 1 });
    expect(json((await cli("news", "feed", "list")).stdout)).toEqual({ feeds: [] });
    const bad = await cli("news", "feed", "add", "ftp://example.org/feed");
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr.trim())).toMatchObject({ error: "usage", message: expect.stringMatching(/http\(s\) URL/) });
    expect((await cli("news", "feed", "rename")).code).toBe(2);
  }, 120_000);
});
