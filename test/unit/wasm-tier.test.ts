/**
 * WASM_TIER_UP (src/config/env.ts, src/db/wasm-tier.ts): "false" keeps a process's WebAssembly on V8's baseline
 * compiler; the default lets hot functions move to the optimizing one (the check that the probe can tell the two).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { loadEnv } from "../../src/config/env";

const root = path.resolve(__dirname, "../..");
const probe = (value: string) =>
  execFileSync(process.execPath, ["--allow-natives-syntax", "scripts/run-ts.js", "test/unit/fixtures/wasm-tier-probe.ts", value], {
    cwd: root,
    encoding: "utf8",
  }).trim();

describe("WASM_TIER_UP", () => {
  it("defaults to true and refuses anything but true or false, naming the variable", () => {
    expect(loadEnv({}).WASM_TIER_UP).toBe("true");
    expect(() => loadEnv({ WASM_TIER_UP: "no" })).toThrow(/WASM_TIER_UP/);
  });

  it("false: a hot WebAssembly function stays on the baseline compiler; true: it is optimized", () => {
    expect(probe("false")).toBe("baseline");
    expect(probe("true")).toBe("optimized");
  });
});
