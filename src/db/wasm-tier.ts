import v8 from "node:v8";
import type { Env } from "../config/env";

/**
 * WASM_TIER_UP=false (src/config/env.ts): this process's WebAssembly stays on V8's baseline compiler. The flag is
 * process-wide and read as functions compile, so it is set before the database (and Prisma's query compiler) loads.
 */
export function applyWasmTier(env: Pick<Env, "WASM_TIER_UP">): void {
  if (env.WASM_TIER_UP === "false") v8.setFlagsFromString("--liftoff-only");
}
