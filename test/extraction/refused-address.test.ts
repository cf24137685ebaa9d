/**
 * Issue 20 point 1, end to end: an internal key points a school's website_url at a listener on
 * 127.0.0.1 through an IPv4-mapped IPv6 literal and unlocks it; the crawler (default settings) must
 * send that listener nothing, and the run must record the refused address. Then the same through a
 * public-looking host (a fake resolver's answer, 127.0.0.2 exempted for the test) that redirects inward.
 */
import type dns from "node:dns";
import { loadEnv } from "../../src/config/env";
import type { LookupFunction } from "../../src/features/research/extraction/address-guard";
import { HostScheduler, HttpClient } from "../../src/features/research/extraction/http-client";
import { crawlOptions, runExtractionPipeline } from "../../src/features/research/extraction/pipeline";
import { useExtractor } from "../../src/features/account/unlocks/unlock.jobs";
import { pipelineExtractor } from "../../src/features/research/extraction/extraction.extractor";
import { createTestApp, type TestApp } from "../support/app";
import { createTestDb, type TestDb } from "../support/db";
import { insertSchool } from "../support/school-factories";
import { until } from "../support/wait";
import { EXTRACTION_TEST_ENV, listen, type Listener } from "./support/fixture-server";

// The extraction test settings, with the default address rule (loopback refused).
const STRICT = {
  ...EXTRACTION_TEST_ENV,
  EXTRACTION_ALLOW_PRIVATE_HOSTS: "false",
  WORKER_POLL_SECONDS: "0.5",
  JOB_RETRY_DELAY_SECONDS: "0",
  JOB_RETRY_LIMIT: "0",
};

const INTRANET_PAGE = `<html><head><title>Intranet</title></head><body><h1>Staff directory</h1>
<p>Superintendent Jane Secret, jane.secret@intranet.example, signed a contract with PowerSchool for $412,000.</p></body></html>`;

describe("the crawler never reaches an inward address (issue 20 point 1)", () => {
  let db: TestDb;
  let t: TestApp;
  let victim: Listener;
  beforeAll(async () => {
    useExtractor(pipelineExtractor);
    db = await createTestDb();
    victim = await listen("127.0.0.1", 0, (req, res) => {
      if (req.url === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
      res.writeHead(200, { "content-type": "text/html" }).end(INTRANET_PAGE);
    });
    t = await createTestApp(STRICT, { jobs: "work", db });
  });
  afterAll(async () => {
    await t?.close();
    await victim?.close();
    await db?.close();
  });

  it.each(["[::ffff:127.0.0.1]", "[0:0:0:0:0:ffff:7f00:1]"])(
    "an internal key sets website_url http://%s:PORT/ and unlocks: no request, the run records the refused address",
    async (host) => {
      const id = await insertSchool(db, { status: "pending" });
      const website = `http://${host}:${victim.port}/`;
      await t.http
        .patch(`/api/v1/schools/${id}`)
        .set("Authorization", `Bearer ${t.keys.internal}`)
        .send({ website_url: website })
        .expect(200);
      const res = await t.post("/api/v1/unlock", { entity_type: "school", entity_id: id }, "internal").expect(202);
      expect(res.body).toMatchObject({ outcome: "unlock_pending" });
      const done = await until(
        () => t.get(`/api/v1/unlock-status/school/${id}`, "internal").then((r) => r.body),
        (s) => s.state !== "unlock_pending",
        90_000,
      );
      expect(done).toMatchObject({
        state: "failed",
        error: expect.stringContaining("refused address ::ffff:7f00:1 (IPv4-mapped 127.0.0.1: loopback)"),
      });
      expect(victim.requests).toEqual([]);
      const runs = await db.query<{ status: string; error_message: string; requests: number }>(
        `SELECT status, error_message, requests FROM extraction_runs WHERE entity_id = $1`,
        [id],
      );
      expect(runs).toEqual([
        { status: "error", error_message: expect.stringMatching(/^site unreachable: refused address ::ffff:7f00:1/), requests: 0 },
      ]);
      const detail = (await t.get(`/api/v1/schools/${id}`, "internal").expect(200)).body.data;
      expect(JSON.stringify(detail)).not.toContain("Secret");
    },
  );

  it("a public-looking host whose robots.txt and pages redirect inward: the run fails on the refused hop, the listener gets nothing", async () => {
    // Same port as the victim on another loopback address, exempted below: it plays a public web site.
    const outside = await listen("127.0.0.2", victim.port, (req, res) => {
      res.writeHead(301, { location: `http://[::ffff:127.0.0.1]:${victim.port}${req.url}` }).end();
    });
    try {
      const answers: Record<string, string> = { "www.public-school.example": "127.0.0.2" };
      const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
        const address = answers[hostname];
        if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
        return options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);
      }) as unknown as LookupFunction;
      const env = loadEnv({ LOG_LEVEL: "silent", ...STRICT });
      const client = new HttpClient(crawlOptions(env).http, new HostScheduler(), { lookup, allowAddresses: ["127.0.0.2"] });
      const id = await insertSchool(db, { website_url: `http://www.public-school.example:${victim.port}/` });
      await expect(runExtractionPipeline(db, "school", id, { env, client })).rejects.toThrow(
        /^site unreachable: refused address ::ffff:7f00:1 \(IPv4-mapped 127\.0\.0\.1: loopback\)/,
      );
      expect(outside.requests).toEqual(["/robots.txt"]);
      expect(victim.requests).toEqual([]);
      const runs = await db.query<{ status: string; error_message: string }>(
        `SELECT status, error_message FROM extraction_runs WHERE entity_id = $1`,
        [id],
      );
      expect(runs).toEqual([{ status: "error", error_message: expect.stringContaining("refused address") }]);
    } finally {
      await outside.close();
    }
  });
});
