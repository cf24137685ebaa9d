import v8 from "node:v8";

/**
 * WASM_TIER_UP=false (src/config/env.ts): this process's WebAssembly stays on V8's baseline compiler. The flag is
 * process-wide and read as functions compile, so it is set before the database (and Prisma's query compiler) loads.
 * Takes the parsed configuration or, in a bench that opens its database itself, process.env.
 */
export function applyWasmTier(env: { WASM_TIER_UP?: string }): void {
  if (env.WASM_TIER_UP === "false") v8.setFlagsFromString("--liftoff-only");
}
