/**
 * Folder bundles: a full run (`npm test`, CI) runs the test files of a folder as one jest file, its `bundle.test.ts`
 * (test/support/bundle.ts), instead of one jest file each.
 *
 * Each jest file pays for a fresh context: the service's ~1,400 modules run their bodies again, and their code starts
 * cold (its inline caches and optimized code belong to that file's module instances). Eight small files run as one
 * took 45 CPU-s against 55 as eight (in-band, three runs each): about 1.4 CPU-s per file, some 240 file runs per CI.
 * A member still has its own describe block, hooks, app and database: only the modules and their warm code are shared.
 *
 * The files of folders without a bundle of their own (a folder of one file) run in test/bundle.test.ts. Not bundled (a
 * jest file of their own): the long files (long-first-sequencer.js, started first and spread over the workers) and
 * the files in STANDALONE. A command line naming a test file (`npm test -- test/x/y.test.ts`), or
 * EDMARKET_TEST_BUNDLES=0, runs every file on its own, as before.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { databaseFree, embeddedOnly, listed } = require("./run-once.js");

const ROOT = path.resolve(__dirname, "../..");
const BUNDLE = "bundle.test.ts";
/** Files that check per-file jest machinery (module registries of their own file). */
const STANDALONE = ["test/unit/test-infrastructure.test.ts"];

const relative = (file) => path.relative(ROOT, file).split(path.sep).join("/");

/** A folder's test files (paths from the repository root) that a bundle may run: not the long or standalone ones. */
function bundleable(dir) {
  // Required here: the sequencer requires this module too.
  const { LONG_FIRST } = require("./long-first-sequencer.js");
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".test.ts") && name !== BUNDLE)
    .map((name) => relative(path.join(dir, name)))
    .filter((file) => !LONG_FIRST.includes(file) && !STANDALONE.includes(file));
}

/**
 * The test files a folder's bundle runs (paths from the repository root), in name order. The bundle of test/ itself
 * runs the files of the folders that have no bundle of their own (a folder of one such file).
 */
function members(folder) {
  const dir = path.resolve(ROOT, folder);
  if (relative(dir) !== "test") return bundleable(dir).sort();
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !fs.existsSync(path.join(dir, entry.name, BUNDLE)))
    .flatMap((entry) => bundleable(path.join(dir, entry.name)))
    .sort();
}

/** test/ and the folders under it holding a bundle file. */
function bundleFolders() {
  const test = path.join(ROOT, "test");
  return [
    ...(fs.existsSync(path.join(test, BUNDLE)) ? ["test"] : []),
    ...fs
      .readdirSync(test, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(test, entry.name, BUNDLE)))
      .map((entry) => `test/${entry.name}`),
  ];
}

/** Whether a member is left to the embedded run when DATABASE_URL is set (run-once.js). */
const embeddedRunOnly = (file) => listed(databaseFree, file) || listed(embeddedOnly, file);

/** Bundles are used unless turned off or the command line names a test file. */
function enabled(argv = process.argv) {
  if (process.env.EDMARKET_TEST_BUNDLES === "0") return false;
  return !argv.slice(2).some((arg) => !arg.startsWith("-") && /\.test\.ts$/.test(arg) && !arg.endsWith(BUNDLE));
}

/** jest testPathIgnorePatterns: the bundled members (bundles on), or the bundle files (off). */
function ignorePatterns({ bundled, postgres }) {
  const folders = bundleFolders();
  if (!bundled) return folders.map((folder) => `<rootDir>/${folder}/${BUNDLE}$`);
  const patterns = [];
  for (const folder of folders) {
    const files = members(folder);
    for (const file of files) patterns.push(`<rootDir>/${file}$`);
    // A bundle with nothing to run on PostgreSQL would be an empty test file (a failure): leave it to the embedded run.
    if (postgres && files.every(embeddedRunOnly)) patterns.push(`<rootDir>/${folder}/${BUNDLE}$`);
  }
  return patterns;
}

module.exports = { ROOT, BUNDLE, STANDALONE, members, bundleFolders, embeddedRunOnly, enabled, ignorePatterns, relative };
