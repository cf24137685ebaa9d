/**
 * The admin CLI as a user runs it: a separate process per command, one JSON object on stdout each,
 * against this file's own database (PostgreSQL) or a temporary embedded data directory.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { hashApiKey } from "../../src/features/account/auth/api-key.service";
import { createTestDb, type TestDb } from "../support/db";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

describe("edmarket admin CLI", () => {
  let db: TestDb | undefined;
  let env: NodeJS.ProcessEnv;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      db = await createTestDb();
      env = { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: "silent" };
    } else {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-cli-"));
      env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
      delete env.DATABASE_URL;
    }
  });
  afterAll(async () => {
    await db?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    const { stdout } = await run("node", ["scripts/run-ts.js", "bin/cli.ts", ...args], { cwd: root, env });
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]);
  };

  it("migrates, creates an organization, key, project and credits, and revokes the key", async () => {
    const migrated = await cli("db", "migrate");
    // A new embedded data directory: this command applied every migration and says so (it said none before).
    const all = fs.readdirSync(path.join(root, "prisma/migrations")).filter((name) => /^\d{14}_/.test(name));
    if (dataDir) expect(migrated.applied).toEqual(all.sort());
    else expect(migrated.applied).toEqual([]);
    const again = await cli("db", "migrate");
    expect(again.applied).toEqual([]);

    const org = await cli(
      "org",
      "create",
      "--name",
      "Acme Learning",
      "--plan",
      "enterprise",
      "--credits",
      "25",
      "--entitlement",
      "signals",
    );
    expect(org.organization_id).toMatch(/^[0-9a-f-]{36}$/);
    const key = await cli("key", "create", "--org", org.organization_id);
    expect(key.api_key).toMatch(/^sk_live_[A-Za-z0-9_-]{40,}$/);
    const project = await cli("project", "create", "--org", org.organization_id, "--name", "Midwest K-12");
    expect(project.project_id).toMatch(/^[0-9a-f-]{36}$/);
    const credits = await cli("credits", "grant", "--org", org.organization_id, "--amount", "75");
    expect(credits.balance).toBe(100);
    const revoked = await cli("key", "revoke", "--key-prefix", key.api_key.slice(0, 16));
    expect(revoked.revoked).toBe(1);

    if (db) {
      // Keys are stored hashed, never in clear.
      const rows = await db.query<{ key_hash: string; revoked_at: Date | null }>(`SELECT key_hash, revoked_at FROM api_keys`);
      expect(rows.map((r) => r.key_hash)).toEqual([hashApiKey(key.api_key)]);
      expect(rows[0].revoked_at).not.toBeNull();
      const ledger = await db.query<{ kind: string; amount: number }>(
        `SELECT kind, amount FROM credit_ledger WHERE account = 'available' ORDER BY created_at`,
      );
      expect(ledger).toEqual([
        { kind: "grant", amount: 25 },
        { kind: "grant", amount: 75 },
      ]);
    }
  });

  /** A command that must fail: its exit code, stdout, and the one JSON object on stderr's last line. */
  const refused = async (...args: string[]) => {
    const failure = await run("node", ["scripts/run-ts.js", "bin/cli.ts", ...args], { cwd: root, env }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure).not.toBeNull();
    return { code: failure!.code, stdout: failure!.stdout, error: JSON.parse(failure!.stderr.trim().split("\n").at(-1)!) };
  };

  it("credits are whole numbers within bounds: refuses 1.5, 1e20 and other amounts; a large valid grant is exact (issue 20 point 10)", async () => {
    const org = (await cli("org", "create", "--name", "Bounded", "--plan", "pro", "--credits", "100")).organization_id;
    for (const amount of ["1.5", "1e20", "abc", "", "0x10", "-5", " 7", "1.0"]) {
      const res = await refused("credits", "grant", "--org", org, `--amount=${amount}`);
      expect([amount, res.code, res.stdout, res.error]).toEqual([
        amount,
        2,
        "",
        { error: "usage", message: `--amount must be a whole number of credits (digits only), got ${JSON.stringify(amount)}` },
      ]);
    }
    for (const amount of ["0", "1000000000001", "100000000000000000000"]) {
      const res = await refused("credits", "grant", "--org", org, "--amount", amount);
      expect([res.code, res.error]).toEqual([2, { error: "usage", message: `--amount must be from 1 to 1000000000000, got "${amount}"` }]);
    }
    const fractional = await refused("org", "create", "--name", "Half", "--plan", "free", "--credits", "2.5");
    expect(fractional.error).toEqual({ error: "usage", message: '--credits must be a whole number of credits (digits only), got "2.5"' });
    expect(await cli("credits", "grant", "--org", org, "--amount", "1000000000000")).toEqual({ balance: 1_000_000_000_100 });
    if (db) {
      const ledger = await db.query(
        `SELECT kind, amount::text AS amount FROM credit_ledger WHERE organization_id = $1 AND account = 'available' ORDER BY created_at`,
        [org],
      );
      expect(ledger).toEqual([
        { kind: "grant", amount: "100" },
        { kind: "grant", amount: "1000000000000" },
      ]);
    }
  });

  it("answers --help, -h, help and ingest --help without opening a database (--help once started the service)", async () => {
    // A data directory and a server that do not exist: opening either would fail or create the directory.
    const untouched = path.join(os.tmpdir(), `edm-cli-help-${process.pid}`);
    const helpEnv: NodeJS.ProcessEnv = { ...env, DATA_DIR: untouched, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" };
    if (!process.env.DATABASE_URL) delete helpEnv.DATABASE_URL;
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const { stdout } = await run("node", ["scripts/run-ts.js", "bin/cli.ts", ...args], { cwd: root, env: helpEnv, timeout: 60_000 });
      expect(stdout).toMatch(/^usage: edmarket <command>\n/);
    }
    const { stdout } = await run("node", ["scripts/run-ts.js", "bin/cli.ts", "ingest", "--help"], {
      cwd: root,
      env: helpEnv,
      timeout: 60_000,
    });
    const sources = JSON.parse(stdout).sources;
    expect(sources["nces-lea"]).toMatchObject({ table: "districts", files: [expect.stringMatching(/^data\//)] });
    expect(fs.existsSync(untouched)).toBe(false);
  });

  it("reports bad usage as a JSON error and a non-zero exit", async () => {
    const failure = await run("node", ["scripts/run-ts.js", "bin/cli.ts", "org", "create", "--name", "X", "--plan", "gold"], {
      cwd: root,
      env,
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(JSON.parse(failure!.stderr.trim().split("\n").at(-1)!)).toMatchObject({
      error: "bad_user_input",
      message: expect.stringContaining("plan"),
    });
  });
});
