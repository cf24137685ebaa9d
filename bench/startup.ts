/**
 * Start-up time of `npm start`: first start (empty database: migrate + load the demo dataset) and later
 * starts (reuse). Runs the built CLI exactly as `npm start` does and times until GET /readyz answers 200.
 * Embedded (an empty DATA_DIR) by default; `--postgres <server url>` uses a new database on that server
 * (dropped afterwards). Usage: npm run build && npm run bench:startup [-- --later 3] [-- --postgres postgres://postgres@127.0.0.1:5432/postgres]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { packageRoot } from "../src/db/package-root";
import { SMOKE } from "./harness";

/** A smoke run (BENCH_SMOKE=1) starts an empty embedded database without the demo load: seconds, not a measurement. */
const SMOKE_ENV = SMOKE ? { SEED_ON_EMPTY: "false" } : {};

async function startOnce(dataDir: string, port: number, databaseUrl: string): Promise<{ ms: number; keys: string }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [path.join(packageRoot, "bin/edmarket.js"), "serve", "--role", "all"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", DATABASE_URL: databaseUrl, ...SMOKE_ENV },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return { ms: Date.now() - t0, keys: stdout.trim() };
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const laterRuns = Number(option("--later")) || (SMOKE ? 1 : 3);
  const server = option("--postgres");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-startup-"));
  const port = 3900 + Math.floor(Math.random() * 50);
  const database = `edm_startup_${process.pid}`;
  let databaseUrl = "";
  if (server) {
    await admin(server, `CREATE DATABASE ${database}`);
    const url = new URL(server);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  try {
    // PostgreSQL is never seeded by `serve` (only an empty embedded database is): its first start is
    // `edmarket seed demo` (the same load) followed by `serve`.
    const seedMs = server ? await seedOnce(dataDir, databaseUrl) : 0;
    const first = await startOnce(dataDir, port, databaseUrl);
    first.ms += seedMs;
    if (server) first.keys = "demo_keys";
    const later: number[] = [];
    for (let i = 0; i < laterRuns; i += 1) later.push((await startOnce(dataDir, port, databaseUrl)).ms);
    const counts = SMOKE ? "not loaded (smoke run)" : first.keys.includes("demo_keys") ? "printed" : "missing";
    console.log(
      JSON.stringify({
        database: server ? "postgresql" : "embedded",
        first_start_ms: first.ms,
        later_start_ms: later,
        demo_keys: counts,
        cpus: os.cpus().length,
        node: process.version,
      }),
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (server) await admin(server, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

async function seedOnce(dataDir: string, databaseUrl: string): Promise<number> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [path.join(packageRoot, "bin/edmarket.js"), "seed", "demo"], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: databaseUrl },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const code = await new Promise((r) => child.once("exit", r));
  if (code !== 0) throw new Error(`seed demo exited with ${String(code)}`);
  return Date.now() - t0;
}

async function admin(server: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

void main();
