import v8 from "node:v8";

/**
 * Test files whose time is mostly the embedded database's own work (the first load of every file of data/): V8's
 * optimizing compiler pays for itself there (18% less CPU than on the baseline compiler alone).
 */
const WASM_TIER_UP_FILES = ["test/ingest/full-load.test.ts"];

/**
 * The tests run with WASM_TIER_UP=false (test/support/env.ts; inherited by the servers and commands they start):
 * a test file does a little of everything, and compiling PGlite's and Prisma's WebAssembly again with the optimizing
 * compiler cost more CPU than it saved (a bundle of two folders 46 -> 39 CPU-s, the unlock property test 37 -> 28).
 * The flag is per process, so each file sets it for itself before its database opens; the files above turn it off.
 */
export function chooseWasmTier(file: string | undefined): void {
  const tierUp = process.env.WASM_TIER_UP !== "false" || (file !== undefined && WASM_TIER_UP_FILES.includes(file));
  v8.setFlagsFromString(tierUp ? "--no-liftoff-only" : "--liftoff-only");
}
