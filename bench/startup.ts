/**
 * Start-up time of `npm start` on the embedded database: first start (empty DATA_DIR: migrate + load the
 * demo dataset) and later starts (reuse). Runs the built CLI exactly as `npm start` does and times until
 * GET /readyz answers 200. Usage: npm run build && npm run bench:startup [-- --later 3]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { packageRoot } from "../src/db/package-root";

async function startOnce(dataDir: string, port: number): Promise<{ ms: number; keys: string }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [path.join(packageRoot, "bin/edmarket.js"), "serve", "--role", "all"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", DATABASE_URL: "" },
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

async function main(): Promise<void> {
  const laterRuns = Number(process.argv[process.argv.indexOf("--later") + 1]) || 3;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-startup-"));
  const port = 3900 + Math.floor(Math.random() * 50);
  try {
    const first = await startOnce(dataDir, port);
    const later: number[] = [];
    for (let i = 0; i < laterRuns; i += 1) later.push((await startOnce(dataDir, port)).ms);
    const counts = first.keys.includes("demo_keys") ? "printed" : "missing";
    console.log(
      JSON.stringify({ first_start_ms: first.ms, later_start_ms: later, demo_keys: counts, cpus: os.cpus().length, node: process.version }),
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
