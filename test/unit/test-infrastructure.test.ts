/**
 * The suite's own machinery (jest.config.js): the runtime sharing compiled code between a worker's files
 * (test/support/shared-scripts-runtime.js) must not share module state, the sequencer's list of long files
 * (test/support/long-first-sequencer.js) must name files that exist, and the folder bundles (test/support/bundles.js)
 * must leave no test file out of a full run.
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

describe("the folder bundles", () => {
  const bundles = require("../support/bundles.js") as {
    BUNDLE: string;
    bundleFolders(): string[];
    members(folder: string): string[];
    ignorePatterns(options: { bundled: boolean; postgres: boolean }): string[];
  };
  const testFiles = (dir: string): string[] =>
    fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? testFiles(`${dir}/${e.name}`) : e.name.endsWith(".test.ts") ? [`${dir}/${e.name}`] : []));

  it("run every test file once in a full run: each bundled file by its folder's bundle, every other file on its own", () => {
    const all = testFiles("test");
    const ignored = bundles
      .ignorePatterns({ bundled: true, postgres: false })
      .map((pattern) => new RegExp(pattern.replace("<rootDir>", root)));
    const runOnItsOwn = all.filter((file) => !ignored.some((re) => re.test(path.join(root, file))));
    const viaBundles = runOnItsOwn
      .filter((file) => file.endsWith(`/${bundles.BUNDLE}`))
      .flatMap((file) => bundles.members(path.dirname(file)));
    const covered = [...runOnItsOwn.filter((file) => !file.endsWith(`/${bundles.BUNDLE}`)), ...viaBundles].sort();
    expect(covered).toEqual(all.filter((file) => !file.endsWith(`/${bundles.BUNDLE}`)).sort());
    // A bundle runs at least two files (one file alone gains nothing from it).
    for (const folder of bundles.bundleFolders()) expect(bundles.members(folder).length).toBeGreaterThanOrEqual(2);
  });
});
