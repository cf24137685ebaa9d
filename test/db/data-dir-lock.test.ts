/**
 * One process at a time on an embedded DATA_DIR: real `edmarket serve` processes on one directory, a
 * stale lock left by a dead process, and a port already in use. The lock is an embedded-only concept,
 * so the child processes always run embedded (DATABASE_URL removed from their environment).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../src/db/client";
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE } from "../../src/db/data-dir-lock";
import { createTestDataDir } from "../support/db";

const root = path.resolve(__dirname, "../..");
// The CLI from source (as test/cli does), so the test exercises this tree, not a possibly stale dist/.
const CLI = ["scripts/run-ts.js", "bin/cli.ts"];

interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

describe("DATA_DIR lock", () => {
  let dataDir: string;
  const children: ChildProcess[] = [];

  const childEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_ON_EMPTY: "false",
      LOG_LEVEL: "info",
      ...extra,
    };
    delete env.DATABASE_URL;
    return env;
  };

  const start = (args: string[], env: NodeJS.ProcessEnv) => {
    const child = spawn("node", [...CLI, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const out = { stdout: "", stderr: "" };
    child.stdout!.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()));
    const exited = new Promise<Exited>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, ...out })));
    return { child, out, exited };
  };

  /** Runs a CLI command to its end; kills it (and fails) if it has not ended within `ms`. */
  const runToExit = async (args: string[], env: NodeJS.ProcessEnv, ms: number): Promise<Exited> => {
    const { child, exited } = start(args, env);
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    const result = await exited;
    clearTimeout(timer);
    if (result.signal === "SIGKILL") throw new Error(`edmarket ${args.join(" ")} did not exit within ${ms} ms:\n${result.stderr}`);
    return result;
  };

  /** Starts `serve` and resolves once it logs "listening", with the port it listens on. */
  const serve = async (env: NodeJS.ProcessEnv) => {
    const started = start(["serve"], env);
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${started.out.stderr}`)), 60_000);
      const onData = () => {
        for (const line of started.out.stderr.split("\n")) {
          if (!line.includes('"listening"')) continue;
          clearTimeout(timer);
          started.child.stderr!.off("data", onData);
          resolve(JSON.parse(line).port as number);
          return;
        }
      };
      started.child.stderr!.on("data", onData);
      void started.exited.then((r) => reject(new Error(`serve exited (${r.code}) before listening:\n${r.stderr}`)));
    });
    return { ...started, port };
  };

  const lockFile = () => path.join(dataDir, LOCK_FILE);

  beforeAll(async () => {
    // A migrated copy of the run's template, so the serve processes below start quickly and log nothing before their
    // outcome; `db migrate` in a child process then finds nothing to apply and must leave no lock behind.
    dataDir = await createTestDataDir("edm-lock-");
    const migrated = await runToExit(["db", "migrate"], childEnv(), 60_000);
    expect(migrated.code).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses a second serve on the same DATA_DIR, naming the directory and the holder, and the directory still opens afterwards", async () => {
    const first = await serve(childEnv());

    const t0 = Date.now();
    const second = await runToExit(["serve"], childEnv(), 20_000);
    expect(second.code).toBe(1);
    const lines = second.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(second.stderr).not.toContain("    at ");
    const error = JSON.parse(lines[0]);
    expect(error.error).toBe("data_dir_locked");
    expect(error.message).toContain(`DATA_DIR ${dataDir} is in use by process ${first.child.pid} (edmarket serve, started `);
    expect(Date.now() - t0).toBeLessThan(20_000);
    const holder = JSON.parse(fs.readFileSync(lockFile(), "utf8"));
    expect(holder).toMatchObject({ pid: first.child.pid, hostname: os.hostname(), command: "edmarket serve" });

    // The first process is untouched: still serving, still holding the lock.
    const health = await fetch(`http://127.0.0.1:${first.port}/healthz`);
    expect(health.status).toBe(200);
    expect(JSON.parse(fs.readFileSync(lockFile(), "utf8")).pid).toBe(first.child.pid);

    // An admin command is refused the same way (any second process would corrupt the directory).
    const admin = await runToExit(["db", "migrate"], childEnv(), 30_000);
    expect(admin.code).toBe(1);
    expect(JSON.parse(admin.stderr.trim()).error).toBe("data_dir_locked");

    first.child.kill("SIGTERM");
    const stopped = await first.exited;
    expect(stopped.code).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);

    // Unharmed: a third process opens, migrates and queries it.
    const migrated = await runToExit(["db", "migrate"], childEnv(), 60_000);
    expect(migrated.stderr).toBe("");
    expect(migrated.code).toBe(0);
    expect(JSON.parse(migrated.stdout)).toEqual({ applied: [], already_applied: expect.any(Number) });
  });

  it("takes over a stale lock left by a process that no longer runs", async () => {
    const dead = spawn("node", ["-e", "0"]);
    const deadPid = dead.pid!;
    await new Promise((resolve) => dead.on("exit", resolve));
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ pid: deadPid, hostname: os.hostname(), started_at: "2020-01-01T00:00:00.000Z", command: "edmarket serve" }),
    );

    const db = await createDb({ dataDir });
    try {
      const holder = JSON.parse(fs.readFileSync(lockFile(), "utf8"));
      expect(holder.pid).toBe(process.pid);
      expect(holder.started_at).not.toBe("2020-01-01T00:00:00.000Z");
      const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organizations`);
      expect(n).toBe(0);
      // Held by this process now: a second open here is refused as well.
      await expect(acquireDataDirLock(dataDir)).rejects.toThrow(`is in use by process ${process.pid}`);
    } finally {
      await db.close();
    }
    expect(fs.existsSync(lockFile())).toBe(false);

    // An unreadable lock file (torn write, disk trouble) is taken over too.
    fs.writeFileSync(lockFile(), "{ not json");
    fs.utimesSync(lockFile(), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const lock = await acquireDataDirLock(dataDir);
    expect(JSON.parse(fs.readFileSync(lockFile(), "utf8")).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lockFile())).toBe(false);

    // A live holder on this host is respected.
    const alive = { pid: process.ppid, hostname: os.hostname(), started_at: "2026-01-01T00:00:00.000Z", command: "edmarket serve" };
    fs.writeFileSync(lockFile(), JSON.stringify(alive));
    await expect(acquireDataDirLock(dataDir)).rejects.toThrow(DataDirLockedError);
    expect(JSON.parse(fs.readFileSync(lockFile(), "utf8"))).toEqual(alive);
    fs.rmSync(lockFile());
  });

  it("reports a port in use as one line, without a stack trace, and releases the lock", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const result = await runToExit(["serve"], childEnv({ PORT: String(port) }), 60_000);
      expect(result.code).toBe(1);
      expect(result.stderr).not.toContain("    at ");
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toEqual({
        error: "port_in_use",
        message: `port ${port} on 127.0.0.1 is already in use (EADDRINUSE); stop the other process or set PORT`,
      });
      expect(fs.existsSync(lockFile())).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
