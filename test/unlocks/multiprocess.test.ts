/**
 * Unlocks across processes (issue 11): two `serve --role api` processes and one `serve --role worker`
 * process on one PostgreSQL database, 200 concurrent POST /unlock split across both API processes —
 * 100 for the same extracted district (charged once), 50 for distinct extracted districts (charged each),
 * 50 for distinct districts without extraction (held, then committed by the worker). Exact final balance,
 * nothing held, ledger invariants. PostgreSQL only: embedded PGlite is one process's database (DATA_DIR lock).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";

const root = path.resolve(__dirname, "../..");
const CLI = ["scripts/run-ts.js", "bin/cli.ts"];
const CREDITS = 1000;
const COST = 6;
const pg = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL)
  console.log("test/unlocks/multiprocess.test.ts skipped: it needs PostgreSQL (DATABASE_URL); embedded PGlite serves one process only");

pg("unlocks across two API processes and a worker on one PostgreSQL database", () => {
  let db: TestDb;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null)));
    await db?.close();
  });

  /** Starts `serve --role <role>` on the test database; resolves with its port once it logs "listening". */
  function serve(role: "api" | "worker"): Promise<number> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      WORKER_POLL_SECONDS: "0.5",
      JOB_RETRY_DELAY_SECONDS: "0",
      // 200 unlocks of one organization queue on its credit row; on a loaded CI machine the last ones waited past the
      // 15 s request deadline (400 query_timeout is the likely cause). This test is about the ledger under contention; test/http/request-deadline proves the deadline.
      REQUEST_TIMEOUT_MS: "120000",
    };
    const child = spawn("node", [...CLI, "serve", "--role", role], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stderr = "";
    child.stdout!.resume();
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve --role ${role} did not start:\n${stderr}`)), 90_000);
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        for (const line of stderr.split("\n"))
          if (line.includes('"listening"')) {
            clearTimeout(timer);
            resolve(JSON.parse(line).port as number);
          }
      });
      child.on("exit", (code) => reject(new Error(`serve --role ${role} exited (${code}) before listening:\n${stderr}`)));
    });
  }

  it("charges the same district once, every other district once, settles every pending unlock: exact balance, nothing held", async () => {
    const { organizationId } = await createOrganization(db, { name: "Multi-process", plan: "enterprise", credits: CREDITS });
    const { apiKey } = await createApiKey(db, organizationId);
    const same = await insertDistrict(db, { status: "completed" });
    const instant = await Promise.all(Array.from({ length: 50 }, () => insertDistrict(db, { status: "completed" })));
    const pending = await Promise.all(Array.from({ length: 50 }, () => insertDistrict(db, { status: "pending" })));

    // One API process first (it finds the database migrated), then the other and the worker together.
    const apiA = await serve("api");
    const [apiB] = await Promise.all([serve("api"), serve("worker")]);
    const ports = [apiA, apiB];

    const targets = [...Array<string>(100).fill(same), ...instant, ...pending];
    // Interleave the three groups so both processes see all of them at once.
    const order = targets.map((id, i) => ({ id, key: (i * 7919) % targets.length })).sort((a, b) => a.key - b.key);
    const post = (id: string, i: number) =>
      fetch(`http://127.0.0.1:${ports[i % 2]}/api/v1/unlock`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ entity_type: "district", entity_id: id }),
      }).then(async (r) => ({ id, status: r.status, body: (await r.json()) as { outcome?: string } }));
    const results = await Promise.all(order.map((t, i) => post(t.id, i)));

    const sameResults = results.filter((r) => r.id === same);
    // Any refusal shows with its body (status and error), not as a bare count.
    expect(sameResults.filter((r) => r.status !== 200)).toEqual([]);
    expect(sameResults).toHaveLength(100);
    expect(sameResults.filter((r) => r.body.outcome === "unlocked")).toHaveLength(1);
    expect(sameResults.filter((r) => r.body.outcome === "idempotent")).toHaveLength(99);
    const instantSet = new Set(instant);
    expect(results.filter((r) => instantSet.has(r.id)).map((r) => [r.status, r.body.outcome])).toEqual(Array(50).fill([200, "unlocked"]));
    const pendingSet = new Set(pending);
    expect(results.filter((r) => pendingSet.has(r.id)).map((r) => [r.status, r.body.outcome])).toEqual(
      Array(50).fill([202, "unlock_pending"]),
    );

    // The worker settles the pending unlocks; unlock-status (either API process) shows them unlocked.
    const status = (id: string, i: number) =>
      fetch(`http://127.0.0.1:${ports[i % 2]}/api/v1/unlock-status/district/${id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      }).then((r) => r.json() as Promise<{ state: string }>);
    const deadline = Date.now() + 120_000;
    let states: string[];
    for (;;) {
      states = (await Promise.all(pending.map(status))).map((s) => s.state);
      if (states.every((s) => s === "unlocked") || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(states).toEqual(Array(50).fill("unlocked"));

    const spent = (1 + 50 + 50) * COST;
    const credits = await fetch(`http://127.0.0.1:${apiB}/api/v1/org`, { headers: { authorization: `Bearer ${apiKey}` } }).then(
      (r) => r.json() as Promise<{ credits: unknown }>,
    );
    expect(credits.credits).toEqual({ balance: CREDITS - spent, held: 0, available: CREDITS - spent });
    const kinds = await db.query<{ kind: string; n: number }>(
      `SELECT kind, count(DISTINCT transfer_id)::int AS n FROM credit_ledger WHERE organization_id = $1::uuid GROUP BY 1 ORDER BY 1`,
      [organizationId],
    );
    expect(kinds).toEqual([
      { kind: "charge", n: 51 },
      { kind: "grant", n: 1 },
      { kind: "hold", n: 50 },
      { kind: "hold_commit", n: 50 },
    ]);
    const unlocks = await db.query<{ state: string; n: number; spent: number }>(
      `SELECT state, count(*)::int AS n, sum(credits_spent)::float AS spent FROM unlocks WHERE organization_id = $1::uuid GROUP BY 1`,
      [organizationId],
    );
    expect(unlocks).toEqual([{ state: "unlocked", n: 101, spent }]);
    expect(await ledgerViolations(db)).toEqual(NO_VIOLATIONS);
  }, 300_000);
});
