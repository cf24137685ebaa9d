/**
 * `npm run bench:smoke` (CI): every `bench:*` script of package.json once with BENCH_SMOKE=1, so none
 * rots unnoticed. A smoke run is tiny data and a second or two of load, and writes no results (no
 * results file, no README block; bench/harness.ts `SMOKE`): it proves the bench runs, it measures nothing.
 *
 * A `bench:*` script without an entry in SMOKE_RUNS fails this run (and test/unit/bench-smoke.test.ts)
 * before anything starts: a new bench gets a smoke mode and an entry here. Benches needing PostgreSQL use
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); the service ones run the
 * build in dist/ (`npm run build` first).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..");

/** Each bench script and the arguments its smoke run adds (its own BENCH_SMOKE defaults do the rest). */
export const SMOKE_RUNS: Record<string, string[]> = {
  "bench:startup": [],
  "bench:districts": [],
  "bench:graphql": [],
  "bench:unlock": [],
  "bench:extract": [],
  "bench:fairness": [],
  "bench:signals": ["--limit", "10"],
  "bench:news-ingest": [],
  "bench:signals-api": [],
  "bench:export": [],
  "bench:semantic": [],
  "bench:load": [],
  "bench:fuzz": [],
};

const packageScripts = (): Record<string, string> =>
  (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** The bench scripts of package.json (bench:smoke, this runner, aside). */
export function benchScripts(): string[] {
  return Object.keys(packageScripts()).filter((name) => name.startsWith("bench:") && name !== "bench:smoke");
}

/** Bench scripts without a smoke entry (an error), and entries naming no script (skipped: a bench not merged yet). */
export function smokeGaps(): { missing: string[]; unknown: string[] } {
  const scripts = benchScripts();
  return {
    missing: scripts.filter((name) => !(name in SMOKE_RUNS)),
    unknown: Object.keys(SMOKE_RUNS).filter((name) => !scripts.includes(name)),
  };
}

function main(): void {
  const { missing, unknown } = smokeGaps();
  if (missing.length) {
    process.stderr.write(`[smoke] no smoke entry in bench/smoke.ts for ${missing.join(", ")}\n`);
    process.exit(1);
  }
  if (unknown.length) process.stderr.write(`[smoke] skipped, no such package.json script: ${unknown.join(", ")}\n`);
  const timings: string[] = [];
  const scripts = packageScripts();
  for (const script of benchScripts()) {
    const started = Date.now();
    process.stderr.write(`[smoke] ${script}\n`);
    // The script's own command line, run by the shell as `npm run` runs it (its arguments appended, node_modules/.bin
    // first on the PATH), without starting npm itself thirteen times: a quarter of a CPU-second each.
    const run = spawnSync("sh", ["-c", `${scripts[script]} "$@"`, script, ...SMOKE_RUNS[script]], {
      cwd: root,
      env: {
        ...process.env,
        BENCH_SMOKE: "1",
        // Seconds-long processes: V8's optimizing compiler would cost more than it saves (src/config/env.ts).
        WASM_TIER_UP: "false",
        PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      },
      stdio: ["ignore", "ignore", "inherit"],
      timeout: 5 * 60_000,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (run.status !== 0) {
      process.stderr.write(`[smoke] ${script} FAILED (exit ${run.status ?? run.signal}) after ${seconds} s\n`);
      process.exit(1);
    }
    timings.push(`${script} ${seconds} s`);
  }
  process.stderr.write(`[smoke] every bench ran: ${timings.join(", ")}\n`);
}

// Imported by the unit test for SMOKE_RUNS; run as the entry point by `npm run bench:smoke`.
if (process.argv[1] === __filename) main();
