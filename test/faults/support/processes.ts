/**
 * Real `edmarket` processes for the fault tests: the CLI from source (scripts/run-ts.js bin/cli.ts, as test/cli does),
 * spawned with an environment of the test's own, their stderr (the JSON log lines and the fault points' lines)
 * collected, and waited on by what they print: "listening" (its port), a fault point reached, their exit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(__dirname, "../../..");
const CLI = ["scripts/run-ts.js", "bin/cli.ts"];

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Proc {
  child: ChildProcess;
  /** Everything written on stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** The parsed JSON lines of stderr so far (other lines skipped). */
  lines(): Record<string, unknown>[];
  /** Resolves with the first stderr JSON line `match` accepts; rejects when the process exits first or after `ms`. */
  waitForLine(match: (line: Record<string, unknown>) => boolean, what: string, ms?: number): Promise<Record<string, unknown>>;
  /** Resolves once the process reached the armed fault point `name` (src/fault-points.ts). */
  waitForFaultPoint(name: string, ms?: number): Promise<void>;
  exited: Promise<Exit>;
  /** SIGKILL, and wait for the exit. */
  kill9(): Promise<Exit>;
}

/** Children still running when a test file ends are killed (afterAll calls it). */
const running = new Set<ChildProcess>();
export async function killAll(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      return gone;
    }),
  );
}

/** Spawns `edmarket <args>` with `env` (merged over this process's environment; an undefined value removes the variable). */
export function spawnCli(args: string[], env: Record<string, string | undefined>): Proc {
  const merged: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "info", ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name];
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: root, env: merged, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let out = "";
  let err = "";
  const listeners = new Set<() => void>();
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString();
    for (const listener of listeners) listener();
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
      for (const listener of listeners) listener();
    }),
  );
  const lines = () =>
    err.split("\n").flatMap((line) => {
      if (!line.startsWith("{")) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const waitForLine: Proc["waitForLine"] = (match, what, ms = 120_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`edmarket ${args.join(" ")}: no ${what} within ${ms} ms:\n${err.slice(-4000)}`)), ms);
      const check = () => {
        const found = lines().find(match);
        if (found) finish(undefined, found);
        else if (child.exitCode !== null || child.signalCode !== null)
          finish(
            new Error(`edmarket ${args.join(" ")} exited (${child.exitCode ?? child.signalCode}) before ${what}:\n${err.slice(-4000)}`),
          );
      };
      const finish = (error?: Error, line?: Record<string, unknown>) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolve(line!);
      };
      listeners.add(check);
      check();
    });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    lines,
    waitForLine,
    waitForFaultPoint: async (name, ms) => void (await waitForLine((l) => l.fault_point === name, `fault point ${name}`, ms)),
    exited,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      return exited;
    },
  };
}

export interface Server extends Proc {
  port: number;
  url: string;
}

/** `edmarket serve --role <role>`; resolves once it logged "listening", with its port. */
export async function serve(role: "api" | "worker" | "all", env: Record<string, string | undefined>): Promise<Server> {
  const proc = spawnCli(["serve", "--role", role], { PORT: "0", HOST: "127.0.0.1", ...env });
  const listening = await proc.waitForLine((l) => l.message === "listening", '"listening"');
  const port = listening.port as number;
  return Object.assign(proc, { port, url: `http://127.0.0.1:${port}` });
}
