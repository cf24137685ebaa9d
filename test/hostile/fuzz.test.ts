/**
 * Fuzzing generated from the definitions (issue 26): requests derived from the REST route table, the GraphQL
 * schema and the metric-query grammar (test/support/fuzz), sent to a real app on a real database. Every answer
 * must be a non-5xx, every error the generic body (GraphQL errors coded, none internal), within twice the server's
 * own deadline (REQUEST_TIMEOUT_MS, 15 s: under CI's load a healthy answer can take over 10 s), and no body may carry
 * a gated column of a record the caller's organization has not unlocked.
 *
 * The seed is fixed (FUZZ_SEED overrides it, FUZZ_RUNS the count, FUZZ_TIMEOUT_MS the hang limit): a failure prints
 * the seed and each failing request, and the same seed sends the same requests again. FUZZ_DEBUG=1 prints the
 * summary and the labels that took longest.
 */
import { routes } from "../../rest-adapter/routes";
import { loadEnv } from "../../src/config/env";
import { createTestApp, type TestApp } from "../support/app";
import { hasUnlockedRecord, seedFuzzData, warmUp } from "../support/fuzz/fixtures";
import type { FuzzData } from "../support/fuzz/inputs";
import { requestArbitrary, runFuzz, summarize, type FuzzReport } from "../support/fuzz/runner";

const SEED = Number(process.env.FUZZ_SEED ?? 26_2026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
/** An answer slower than this is a hang: twice the server's own deadline (under CI's load healthy answers took 12 s). */
const TIMEOUT_MS = Number(process.env.FUZZ_TIMEOUT_MS ?? 2 * loadEnv({}).REQUEST_TIMEOUT_MS);

describe("fuzzing from the definitions", () => {
  let t: TestApp;
  let data: FuzzData;
  let report: FuzzReport;

  beforeAll(async () => {
    // A pending contact unlock sends its enrichment job, as an API process does.
    t = await createTestApp({}, { jobs: "send" });
    data = await seedFuzzData(t.db, t.orgs);
    const base = `http://127.0.0.1:${(t.server.address() as { port: number }).port}`;
    await warmUp(base, t.keys.internal);
    report = await runFuzz(
      {
        base,
        keys: t.keys,
        orgs: t.orgs,
        hasUnlocked: (org, id) => hasUnlockedRecord(t.db, org, id),
      },
      requestArbitrary(routes, t.engine.schema, data),
      // Embedded PGlite runs one statement at a time: more in flight only queue, and a queued request's wait counts
      // against the hang limit.
      { seed: SEED, runs: RUNS, concurrency: t.db.url ? 4 : 2, timeoutMs: TIMEOUT_MS },
    );
  });
  afterAll(() => t?.close());
  afterAll(() => {
    if (process.env.FUZZ_DEBUG)
      process.stderr.write(
        `${summarize(report)}\n${Object.entries(report.labelMs)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25)
          .map(([label, ms]) => `${label}: ${ms} ms / ${report.labels[label]}`)
          .join("\n")}\n`,
      );
  });

  it(`answers ${RUNS} fuzzed requests with no 5xx, bad error body, hang or leak`, () => {
    const problems = Object.values(report.counts).reduce((a, b) => a + b, 0);
    if (problems > 0) {
      const lines = report.failures.map((f) => `#${f.index} ${f.problem} ${f.label}: ${f.reason}\n    ${f.request}`);
      throw new Error(
        `${summarize(report)}\nreplay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npm test -- test/hostile/fuzz.test.ts\n${lines.join("\n")}`,
      );
    }
    expect(report.requests).toBe(RUNS);
  });

  it("reaches every route of the table and every root field of the schema", () => {
    const schema = t.engine.schema;
    const expected = [
      ...routes.map((r) => `${r.method} ${r.path}`),
      ...Object.keys(schema.getQueryType()!.getFields()).map((f) => `graphql Query.${f}`),
      ...Object.keys(schema.getMutationType()!.getFields()).map((f) => `graphql Mutation.${f}`),
    ];
    if (RUNS >= 2_000) expect(expected.filter((label) => !report.labels[label])).toEqual([]);
  });
});
