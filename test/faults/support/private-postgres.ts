/**
 * A PostgreSQL server of the test's own, to stop and start under load (the shared server on 127.0.0.1:5432 serves the
 * other test files). Debian's server binaries (pg_config --bindir, else the newest /usr/lib/postgresql/<v>/bin), a
 * temporary data directory initialized with trust authentication, a free loopback port, fsync off. initdb and the
 * server refuse to run as root: as root, they run as the `postgres` user (runuser), which owns the directory.
 * `privatePostgres()` answers a reason instead when this machine cannot run one.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** `pg_ctl stop -m fast`: every session is ended, new connections are refused until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (immediately) and removes its directory. */
  destroy(): Promise<void>;
}

function binDir(): string | null {
  const candidates = fs.existsSync("/usr/lib/postgresql")
    ? fs
        .readdirSync("/usr/lib/postgresql")
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  return candidates.find((dir) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))) ?? null;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A started private server, or why there cannot be one here. */
export async function privatePostgres(): Promise<PrivatePostgres | { unavailable: string }> {
  const bin = binDir();
  if (!bin) return { unavailable: "no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/<version>/bin" };
  const root = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (root) {
    const found = await run("id", ["-u", "postgres"]).then(
      async (uid) => ({ uid: Number(uid.stdout.trim()), gid: Number((await run("id", ["-g", "postgres"])).stdout.trim()) }),
      () => undefined,
    );
    if (!found) return { unavailable: "running as root and there is no postgres user to run the server as" };
    owner = found;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-private-pg-"));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const data = path.join(dir, "data");
  const port = await freePort();
  // As root: the same command through runuser, as the postgres user.
  const pg = (tool: string, args: string[]) =>
    root ? run("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  try {
    await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { unavailable: `initdb failed: ${(error as Error).message.slice(0, 300)}` };
  }
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = async () =>
    void (await pg("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"]));
  const stop = async (mode: "fast" | "immediate" = "fast") => void (await pg("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "60", "stop"]));
  try {
    await start();
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { unavailable: `the server did not start: ${(error as Error).message.slice(0, 300)}` };
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => stop("fast"),
    start,
    async destroy() {
      await stop("immediate").catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
