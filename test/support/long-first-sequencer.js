/**
 * jest's test order, with the files known to run long started first (jest.config.js `testSequencer`).
 *
 * jest orders a run by each file's duration in its cache, and by file size when it has none, as on CI's clean clone:
 * there the 4 KB fuzz test (30-45 CPU-s) started last in both suites and ran alone at the end, one core of
 * two idle. These files (the longest in CPU or in wall time, measured in CI, in that order) start first, each a jest
 * file of its own; then the folder bundles (test/support/bundles.js), the largest first; every other file keeps
 * jest's order. A file missing here runs in its folder's bundle in a full run.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const LONG_FIRST = [
  "test/ingest/full-load.test.ts",
  "test/unlocks/unlock.property.test.ts",
  "test/hostile/fuzz.test.ts",
  "test/faults/process-kill.test.ts",
  "test/ingest/national-multiyear.test.ts",
  "test/faults/embedded-ingest-kill.test.ts",
  "test/lists/list-contract.test.ts",
  "test/isolation/isolation.test.ts",
  "test/cli/admin-cli.test.ts",
  "test/news/news-ingest-cli.test.ts",
  "test/ingest/state-directories.test.ts",
  "test/mcp/mcp-stdio.test.ts",
  "test/unlocks/multiprocess.test.ts",
];

class LongFirstSequencer extends Sequencer {
  sort(tests) {
    const bundles = require("./bundles.js");
    const rank = (test) => {
      const index = LONG_FIRST.findIndex((file) => test.path.endsWith(`/${file}`));
      return index === -1 ? LONG_FIRST.length : index;
    };
    // Folder bundles (bundles.js) next, the largest first: their own file is a few lines, so jest's order by size
    // would start them last, and a bundle of a dozen files started last runs alone at the end.
    const memberBytes = (test) =>
      path.basename(test.path) === bundles.BUNDLE
        ? bundles.members(path.dirname(test.path)).reduce((sum, file) => sum + fs.statSync(path.join(bundles.ROOT, file)).size, 0)
        : 0;
    const order = new Map(super.sort(tests).map((test, index) => [test, { index, bytes: memberBytes(test) }]));
    return [...order.keys()].sort(
      (a, b) => rank(a) - rank(b) || order.get(b).bytes - order.get(a).bytes || order.get(a).index - order.get(b).index,
    );
  }
}

module.exports = LongFirstSequencer;
module.exports.LONG_FIRST = LONG_FIRST;
