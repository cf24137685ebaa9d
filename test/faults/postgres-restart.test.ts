/**
 * PostgreSQL restarted under load (issue 26, faults; docs/operations.md "Faults"): a real `serve --role all` process on
 * a PostgreSQL server of the test's own (test/faults/support/private-postgres.ts; the shared server serves the other
 * files), with clients reading districts, unlocking districts and polling /readyz in a loop, while the server is
 * stopped (`pg_ctl stop -m fast`: every session ended, new connections refused) and started again. Meanwhile /readyz
 * answers 503 `database_unreachable` and the API answers 503 with the generic body (never a 500 or an internal
 * message); afterwards, with the same process, /readyz is 200 again, every request succeeds, the worker settles a
 * pending unlock, and the ledger holds (an unlock answered 503 while the server was down charged nothing).
 * Runs in the PostgreSQL run of the suite (it needs the server binaries, not the shared server); skipped, with the
 * reason, where a private server cannot be started.
 */
import { createDb, type Db } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { insertDistrict } from "../support/factories";
import { until } from "../support/wait";
import { killAll, serve, type Server } from "./support/processes";
import { privatePostgres, type PrivatePostgres } from "./support/private-postgres";

const pg = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL) console.log("test/faults/postgres-restart.test.ts skipped: it runs in the PostgreSQL run of the suite");

type Phase = "before" | "stopping" | "down" | "starting" | "up";
interface Answer {
  phase: Phase;
  kind: "read" | "unlock" | "ready";
  status: number;
  body: Record<string, unknown>;
  district?: string;
}

pg("PostgreSQL restarted under load", () => {
  let server: PrivatePostgres | undefined;
  let db: Db | undefined;

  afterAll(async () => {
    await killAll();
    await db?.close();
    await server?.destroy();
  });

  it("/readyz is 503 while the database is down and the API answers 503 (generic body); the same process recovers", async () => {
    const started = await privatePostgres();
    if ("unavailable" in started) {
      console.log(`test/faults/postgres-restart.test.ts: no private PostgreSQL server here (${started.unavailable}); skipped`);
      return;
    }
    server = started;
    db = await createDb({ databaseUrl: server.url, poolSize: 2 });
    await migrate(db);
    const { organizationId } = await createOrganization(db, { name: "Restart", plan: "enterprise", credits: 100_000 });
    const { apiKey } = await createApiKey(db, organizationId);
    const districts = await Promise.all(Array.from({ length: 400 }, () => insertDistrict(db!, { status: "completed" })));
    const pending = await insertDistrict(db, { status: "pending" });
    const api: Server = await serve("all", { DATABASE_URL: server.url, WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0" });

    let phase: Phase = "before";
    let running = true;
    let next = 0;
    const answers: Answer[] = [];
    const auth = { authorization: `Bearer ${apiKey}` };
    const call = async (kind: Answer["kind"]) => {
      const at = phase;
      const district = districts[next++ % districts.length]!;
      const request =
        kind === "ready"
          ? fetch(`${api.url}/readyz`)
          : kind === "read"
            ? fetch(`${api.url}/api/v1/districts/${district}`, { headers: auth })
            : fetch(`${api.url}/api/v1/unlock`, {
                method: "POST",
                headers: { ...auth, "content-type": "application/json" },
                body: JSON.stringify({ entity_type: "district", entity_id: district }),
              });
      const res = await request;
      answers.push({ phase: at, kind, status: res.status, body: (await res.json()) as Record<string, unknown>, district });
    };
    const loop = async (kind: Answer["kind"]) => {
      while (running) {
        await call(kind);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const loops = Promise.all([loop("ready"), loop("read"), loop("read"), loop("unlock")]);
    const count = (p: Phase, kind: Answer["kind"], status?: number) =>
      answers.filter((a) => a.phase === p && a.kind === kind && (status === undefined || a.status === status)).length;
    const settle = (ok: () => boolean, ms = 60_000) =>
      until(
        async () => ok(),
        (v) => v,
        ms,
      );

    try {
      await settle(() => count("before", "unlock", 200) >= 3 && count("before", "read", 200) >= 3);
      phase = "stopping";
      await server.stop();
      phase = "down";
      await settle(() => count("down", "ready") >= 3 && count("down", "read") >= 3 && count("down", "unlock") >= 3);
      phase = "starting";
      await server.start();
      phase = "up";
      await settle(() => count("up", "ready", 200) >= 3 && count("up", "read", 200) >= 5 && count("up", "unlock", 200) >= 5);
    } finally {
      running = false;
      await loops;
    }
    // The same process served throughout: never restarted.
    expect(api.child.exitCode).toBeNull();

    const down = answers.filter((a) => a.phase === "down");
    // Not ready while the database is down, in the documented readiness body.
    expect(down.filter((a) => a.kind === "ready").map((a) => [a.status, a.body])).toEqual(
      down
        .filter((a) => a.kind === "ready")
        .map(() => [503, { status: "database_unreachable", database: { kind: "postgres", reachable: false } }]),
    );
    // The API: 503 with exactly the generic body, nothing internal.
    const generic = { error: "service_unavailable", message: expect.any(String), statusCode: 503 };
    for (const a of down.filter((x) => x.kind !== "ready")) expect([a.status, a.body]).toEqual([503, generic]);
    expect(down.map((a) => a.body.message).join(" ")).not.toMatch(/prisma|ECONNREFUSED|127\.0\.0\.1|invocation/i);
    // No answer at any moment was a 500.
    expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    // Nothing was treated as unexpected (those are logged with their stack and answered 500).
    expect(api.stderr()).not.toMatch(/"message":"(unhandled error|resolver error|mcp tool error)"/);

    // Recovered: the last answers of each kind succeed, and the worker settles a pending unlock.
    for (const kind of ["ready", "read", "unlock"] as const) {
      const last = answers.filter((a) => a.kind === kind).slice(-3);
      expect(last.map((a) => a.status)).toEqual([200, 200, 200]);
    }
    const unlocking = await fetch(`${api.url}/api/v1/unlock`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ entity_type: "district", entity_id: pending }),
    });
    expect(unlocking.status).toBe(202);
    const settled = await until(
      () =>
        fetch(`${api.url}/api/v1/unlock-status/district/${pending}`, { headers: auth }).then((r) => r.json() as Promise<{ state: string }>),
      (s) => s.state !== "unlock_pending",
      60_000,
    );
    expect(settled.state).toBe("unlocked");

    // Money: every unlock answered 200 charged once; one answered 503 while the server was down charged nothing.
    const charged = new Map(
      (
        await db.query<{ entity_id: string; n: number }>(
          `SELECT entity_id::text, count(DISTINCT transfer_id)::int AS n FROM credit_ledger WHERE kind = 'charge' GROUP BY 1`,
        )
      ).map((r) => [r.entity_id, r.n]),
    );
    for (const a of answers.filter((x) => x.kind === "unlock")) {
      if (a.status === 200 && a.body.outcome === "unlocked") expect([a.district, charged.get(a.district!)]).toEqual([a.district, 1]);
      if (a.status === 503 && a.phase === "down") expect([a.district, charged.get(a.district!) ?? 0]).toEqual([a.district, 0]);
    }
    expect(await ledgerViolations(db)).toEqual(NO_VIOLATIONS);
  }, 300_000);
});
