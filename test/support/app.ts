/**
 * A real app on a real (per-file) database, listening on an ephemeral port, with one organization
 * and API key per plan. Requests go through supertest over HTTP.
 */
import type http from "node:http";
import supertest from "supertest";
import { restAdapter } from "../../rest-adapter";
import { createApp } from "../../src/app";
import type { ExecutionEngine } from "../../src/graphql/execution";
import type { IdempotencyHooks } from "../../src/graphql/idempotency";
import { loadEnv } from "../../src/config/env";
import { createHttpServer } from "../../src/http-server";
import { createMetrics, type Metrics } from "../../src/observability/metrics";
import type { Jobs } from "../../src/jobs/worker";
import { createTestDb, type TestDb } from "./db";
import { createPlanOrganizations, GENEROUS_RATE_LIMITS, type PlanKey } from "./plans";

export { GENEROUS_RATE_LIMITS, type PlanKey };

export interface TestApp {
  db: TestDb;
  server: http.Server;
  http: ReturnType<typeof supertest>;
  keys: Record<PlanKey, string>;
  /** The app's execution engine (its compiled-operation cache is observable). */
  engine: ExecutionEngine;
  orgs: Record<PlanKey, string>;
  /** The job queue, when created with `{ jobs: "send" | "work" }`. */
  jobs?: Jobs;
  /** The request metrics, when created with `{ metrics: true }`. */
  metrics?: Metrics;
  /** GET with the given plan's key. */
  get(path: string, plan?: PlanKey): supertest.Test;
  post(path: string, body: unknown, plan?: PlanKey): supertest.Test;
  graphql(query: string, variables?: Record<string, unknown>, plan?: PlanKey): Promise<{ data?: any; errors?: any[] }>;
  close(): Promise<void>;
}

export async function createTestApp(
  envOverrides: Record<string, string> = {},
  options: {
    jobs?: "send" | "work";
    db?: TestDb;
    metrics?: boolean;
    idempotency?: IdempotencyHooks;
    /** A restart on the same database (`db`): the plan organizations and keys an earlier app created there, reused. */
    plans?: Pick<TestApp, "keys" | "orgs">;
  } = {},
): Promise<TestApp> {
  const db = options.db ?? (await createTestDb());
  // Background embedding off unless a test turns it on (test/support/env.ts says why).
  const env = loadEnv({
    LOG_LEVEL: "silent",
    API_KEY_CACHE_SECONDS: "0",
    EMBEDDINGS_AUTO: "false",
    ...GENEROUS_RATE_LIMITS,
    ...envOverrides,
  });
  // Loaded only here: pg-boss (ESM, transformed by jest) stays out of test files that run no jobs.
  const jobs = options.jobs
    ? await (await import("../../src/compose-jobs")).startServiceJobs(db, env, { work: options.jobs === "work" })
    : undefined;
  const metrics = options.metrics ? createMetrics(db) : undefined;
  const { app, stop, engine } = await createApp({
    db,
    env,
    rest: restAdapter,
    jobs: jobs?.queue,
    worker: jobs?.health,
    metrics,
    idempotency: options.idempotency,
  });
  const server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { keys, orgs } = options.plans ?? (await createPlanOrganizations(db));
  const agent = supertest(server);
  const auth = (plan: PlanKey) => `Bearer ${keys[plan]}`;
  return {
    db,
    server,
    engine,
    jobs,
    metrics,
    http: agent,
    keys,
    orgs,
    get: (path, plan = "enterprise") => agent.get(path).set("Authorization", auth(plan)),
    post: (path, body, plan = "enterprise") =>
      agent
        .post(path)
        .set("Authorization", auth(plan))
        .send(body as object),
    async graphql(query, variables, plan = "enterprise") {
      const res = await agent.post("/graphql").set("Authorization", auth(plan)).send({ query, variables });
      // Every response reports its cost in extensions.cost (test/http/conventions.test.ts asserts it):
      // left out here so results compare as data and errors.
      const { extensions, ...body } = res.body ?? {};
      const { cost: _cost, ...rest } = (extensions ?? {}) as Record<string, unknown>;
      return Object.keys(rest).length ? { ...body, extensions: rest } : body;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stop();
      await jobs?.stop();
      if (!options.db) await db.close(); // a database passed in outlives this app (restart tests)
    },
  };
}
