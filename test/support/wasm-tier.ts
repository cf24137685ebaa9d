import v8 from "node:v8";

/**
 * The tests set WASM_TIER_UP=false (test/support/env.ts) for the servers and commands they start: a process living
 * seconds spends more CPU compiling PGlite's and Prisma's WebAssembly again with V8's optimizing compiler than that
 * saves (in CI: admin-cli.test.ts 58 -> 34 CPU-s, news-ingest-cli.test.ts 47 -> 27, process-kill.test.ts 44 -> 31).
 * A jest worker lives the whole run and its optimized code serves every later file (on the baseline compiler alone the
 * ingest files took 10-25% more CPU), so a file's own database keeps V8's default, also after an in-process server
 * (src/db/open.ts) applied the variable in an earlier file of the same worker.
 */
export function keepWorkerWasmTiering(): void {
  v8.setFlagsFromString("--no-liftoff-only");
}
