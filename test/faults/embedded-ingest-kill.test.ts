/**
 * The embedded database killed mid-ingest (issue 26, faults; docs/operations.md "Faults"): an embedded DATA_DIR holds
 * the national district directory (loaded in this process), then the `edmarket ingest` process loading the ELSI 2021-22 file (a year of
 * statistics for about 19,500 districts) is killed with SIGKILL inside that file's transaction, after every row was
 * written and before the commit (the `ingest.file` pause point, src/fault-points.ts). The directory reopens (the dead
 * process's lock taken over, PGlite's recovery run), and the same command run again loads the file: every table then
 * holds what a clean run of the same two files holds, row for row in number, and ingest_runs records each file once.
 * A subset of data/ keeps the test short; the first start's seed runs the same runIngest per file.
 * Embedded only (test/support/run-once.js): it tests the embedded data directory itself.
 */
import fs from "node:fs";
import path from "node:path";
import { createDb, type Db } from "../../src/db/client";
import { runIngest } from "../../src/ingest";
import { openTestDataDir } from "../support/db";
import { embeddedTemplate } from "../support/templates";
import { killAll, spawnCli, type Exit } from "./support/processes";

const root = path.resolve(__dirname, "../..");
const FILES = [
  ["nces-lea", "data/nces_ccd_lea_directory/ccd_lea_029_2324_w_0a_050824.csv.gz"],
  ["nces-elsi-lea", "data/nces_elsi_lea_multiyear/elsi_lea_2021_2022.csv.gz"],
] as const;

/**
 * Rows of every application table, and each ingest run's file. Aside: the migration ledger, and server_secrets, which
 * every CLI command's start writes (the extraction id key, src/cli/main.ts), not the ingest.
 */
async function contents(db: Db): Promise<{ rows: Record<string, number>; runs: unknown[] }> {
  const tables = await db.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('_prisma_migrations', 'server_secrets') ORDER BY tablename`,
  );
  const counts = await db.query<{ t: string; n: number }>(
    tables.map((t, i) => `SELECT $${i + 1}::text AS t, count(*)::int AS n FROM "${t.tablename}"`).join(" UNION ALL "),
    tables.map((t) => t.tablename),
  );
  const runs = await db.query(`SELECT source, file, file_sha256 FROM ingest_runs ORDER BY source, file`);
  return { rows: Object.fromEntries(counts.map((c) => [c.t, c.n])), runs };
}

describe("embedded database killed mid-ingest", () => {
  let dataDir: string;
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: undefined, SEED_ON_EMPTY: "false" });
  const ingest = async (source: string, file: string, extra: Record<string, string> = {}) => {
    const proc = spawnCli(["ingest", source, file], { ...env(), ...extra });
    return { proc, exited: proc.exited };
  };
  const completed = async (source: string, file: string): Promise<Exit & { stdout: string; stderr: string }> => {
    const { proc, exited } = await ingest(source, file);
    const exit = await exited;
    return { ...exit, stdout: proc.stdout(), stderr: proc.stderr() };
  };

  beforeAll(async () => {
    const opened = await openTestDataDir("edm-faults-ingest-");
    dataDir = opened.dataDir;
    try {
      await runIngest(opened.db, FILES[0][0], path.join(root, FILES[0][1]));
    } finally {
      await opened.db.close();
    }
  });
  afterAll(async () => {
    await killAll();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("reopens after SIGKILL inside a file's transaction, and the ingest run again equals a clean run", async () => {
    const second = FILES[1];
    const doomed = await ingest(...second, { EDMARKET_FAULT_PAUSE_AT: "ingest.file" });
    await doomed.proc.waitForFaultPoint("ingest.file", 300_000);
    expect(await doomed.proc.kill9()).toEqual({ code: null, signal: "SIGKILL" });

    const again = await completed(...second);
    expect(again.code).toBe(0);
    // All it may say is that the dead process's lock was taken over (the line may be lost when the CLI exits).
    const said = again.stderr.split("\n").filter(Boolean);
    expect(said.filter((l) => !/"message":"taking over a stale data directory lock"/.test(l))).toEqual([]);
    expect(JSON.parse(again.stdout)).toMatchObject({ source: second[0], file: second[1] });

    // What the directory holds now, against the same files loaded without a kill.
    const reopened = await createDb({ dataDir });
    let faulted: Awaited<ReturnType<typeof contents>>;
    try {
      faulted = await contents(reopened);
    } finally {
      await reopened.close();
    }
    const clean = await createDb({ dataDir: "memory://", loadDataDir: embeddedTemplate("migrated") });
    try {
      for (const [source, file] of FILES) await runIngest(clean, source, path.join(root, file));
      expect(faulted).toEqual(await contents(clean));
    } finally {
      await clean.close();
    }
    expect(faulted.rows.districts).toBeGreaterThan(0);
    expect(faulted.runs).toHaveLength(FILES.length);
  }, 600_000);
});
