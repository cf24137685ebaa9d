/**
 * The suite's own machinery (jest.config.js): the runtime sharing compiled code between a worker's files
 * (test/support/shared-scripts-runtime.js) must not share module state, and the sequencer's list of long files
 * (test/support/long-first-sequencer.js) must name files that exist.
 */
import fs from "node:fs";
import path from "node:path";

const root = path.join(__dirname, "..", "..");

describe("the shared-scripts runtime", () => {
  it("runs a module's body anew in each registry, from code compiled once", () => {
    // Set by the runtime jest.config.js names, on each file's global.
    const shared = (globalThis as Record<symbol, { compiled(): number } | undefined>)[Symbol.for("edmarket.sharedScripts")];
    expect(shared).toBeDefined();
    const loads: Array<{ loads: number }> = [];
    jest.isolateModules(() => loads.push(require("./fixtures/module-state").state));
    const compiled = shared!.compiled();
    jest.isolateModules(() => loads.push(require("./fixtures/module-state").state));
    // The second registry ran the module's body again, on its own object, from the code compiled for the first.
    expect(loads.map((s) => s.loads)).toEqual([1, 1]);
    expect(loads[0]).not.toBe(loads[1]);
    expect(shared!.compiled()).toBe(compiled);
  });
});

describe("the long-first sequencer", () => {
  it("names only files that exist, each once", () => {
    const { LONG_FIRST } = require("../support/long-first-sequencer.js") as { LONG_FIRST: string[] };
    expect(LONG_FIRST.filter((file) => !fs.existsSync(path.join(root, file)))).toEqual([]);
    expect(new Set(LONG_FIRST).size).toBe(LONG_FIRST.length);
  });
});
