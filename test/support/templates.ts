/**
 * One migrated database per test run, copied for every test file (test/support/db.ts) instead of migrating
 * each file's database anew. Built once by jest's globalSetup (test/support/global-setup.ts), removed by its
 * globalTeardown; the workers learn where it is from the environment variables below.
 *
 * - PostgreSQL: a template database; each file's database is `CREATE DATABASE ... TEMPLATE` of it, a file copy
 *   on the server.
 * - Embedded: PGlite holds one database per instance (no CREATE DATABASE to connect to), and most of a new
 *   instance's boot is initdb. The template is a dumped data directory (a tar file), migrated and unmigrated;
 *   each file boots its own instance from it (`loadDataDir`), which skips initdb and the migrations.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { createDb } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";

/** The PostgreSQL template database's name (on the DATABASE_URL server). */
export const PG_TEMPLATE_ENV = "EDM_TEST_PG_TEMPLATE";
/** The directory holding the embedded templates, `migrated.tar` and `unmigrated.tar`. */
export const PGLITE_TEMPLATE_ENV = "EDM_TEST_PGLITE_TEMPLATE";

export type EmbeddedTemplate = "migrated" | "unmigrated";

/** Builds the template for this run's database kind and names it in process.env (inherited by the workers). */
export async function buildTemplates(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `edm_template_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
    await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
    const db = await createDb({ databaseUrl: databaseUrl(serverUrl, name), poolSize: 1 });
    try {
      await migrate(db);
    } finally {
      // A template must have no connection open while it is copied.
      await db.close();
    }
    process.env[PG_TEMPLATE_ENV] = name;
  } else {
    removeOrphanedTemplates();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${TEMPLATE_DIR_PREFIX}${process.pid}-`));
    // Every file's copy unpacks the whole dump, WAL included: 1 MB WAL segments instead of 16 (a 16 MB segment was
    // half the dump), and a small max_wal_size while migrating, so the last checkpoint keeps few segments for reuse.
    const db = await createDb({
      dataDir: "memory://",
      initdbArgs: ["--wal-segsize=1"],
      settings: { min_wal_size: "2MB", max_wal_size: "4MB" },
    });
    try {
      const pglite = db.driver.kind === "embedded" ? db.driver.pglite : undefined;
      if (!pglite) throw new Error("expected the embedded database");
      // Every boot of a copy zeroes its shared buffers (128 MB by default, about 100 ms of CPU in each file's setup);
      // a test file's database is a few MB. One statement each: ALTER SYSTEM refuses a transaction block.
      await pglite.exec("ALTER SYSTEM SET shared_buffers = '16MB'");
      // PGlite's own database is `postgres`; template0 and template1 (a third of the dump, 15 of 44 MB) are only
      // sources for CREATE DATABASE, which PGlite cannot run. Every file's copy unpacks the dump, so it leaves them out.
      for (const name of ["template0", "template1"]) {
        await pglite.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
        await pglite.exec(`DROP DATABASE ${name}`); // one statement: DROP DATABASE refuses a transaction block
      }
      // Written to the data files first, so a loaded copy starts without replaying the WAL.
      const dump = async (file: EmbeddedTemplate) => {
        await pglite.exec("CHECKPOINT");
        const tar = await pglite.dumpDataDir("none");
        fs.writeFileSync(path.join(dir, `${file}.tar`), Buffer.from(await tar.arrayBuffer()));
      };
      await dump("unmigrated");
      await migrate(db);
      await dump("migrated");
    } finally {
      await db.close();
    }
    process.env[PGLITE_TEMPLATE_ENV] = dir;
  }
}

const TEMPLATE_DIR_PREFIX = "edm-pglite-template-";

/** A run killed before its globalTeardown (a timeout, Ctrl-C) leaves its 80 MB directory: the next run removes it. */
function removeOrphanedTemplates(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = name.startsWith(TEMPLATE_DIR_PREFIX) ? Number(/^(\d+)-/.exec(name.slice(TEMPLATE_DIR_PREFIX.length))?.[1]) : NaN;
    if (pid > 0 && !isAlive(pid)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function dropTemplates(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  const name = process.env[PG_TEMPLATE_ENV];
  if (serverUrl && name) await withAdmin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  const dir = process.env[PGLITE_TEMPLATE_ENV];
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

/** This run's embedded template as a Blob for `loadDataDir`, or undefined when no globalSetup built one. */
export function embeddedTemplate(kind: EmbeddedTemplate): Blob | undefined {
  const dir = process.env[PGLITE_TEMPLATE_ENV];
  return dir ? new FileBytes(fs.readFileSync(path.join(dir, `${kind}.tar`))) : undefined;
}

/**
 * The bytes read, as the Blob `loadDataDir` takes; PGlite reads it only through arrayBuffer(). A Node Blob made of
 * them would copy them in and out again through a stream in 64 KiB chunks (about 100 ms of CPU per file).
 */
class FileBytes extends Blob {
  constructor(private readonly content: Buffer) {
    super([]);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.content;
    // A file read whole owns its buffer: no copy then.
    return Promise.resolve(
      byteOffset === 0 && byteLength === buffer.byteLength
        ? (buffer as ArrayBuffer)
        : (buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer),
    );
  }
}

export function databaseUrl(serverUrl: string, name: string): string {
  const parsed = new URL(serverUrl);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function withAdmin(serverUrl: string, fn: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}
