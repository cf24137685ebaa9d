/**
 * The order jest's workers take the test files in: the long ones first, so that no worker starts a minute-long file
 * while the others run out of work. Jest orders by the durations in its cache, which a clean clone (CI) does not
 * have, and then by file size: that put test/hostile/fuzz.test.ts (48-65 s) last in both suites, one busy worker for
 * the run's last minute. The files that took 30 s or more in CI (2026-11-27, at 20c9820), longest first, go ahead of
 * the others; the rest keep jest's order.
 */
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const LONG_FIRST = [
  "test/ingest/full-load.test.ts",
  "test/unlocks/unlock.property.test.ts",
  "test/ingest/national-multiyear.test.ts",
  "test/faults/process-kill.test.ts",
  "test/cli/admin-cli.test.ts",
  "test/isolation/isolation.test.ts",
  "test/hostile/fuzz.test.ts",
  "test/news/news-ingest-cli.test.ts",
  "test/lists/list-contract.test.ts",
  "test/metrics/metric-query.plans.test.ts",
  "test/ingest/state-directories.test.ts",
  "test/mcp/mcp-stdio.test.ts",
  "test/unlocks/multiprocess.test.ts",
  "test/hostile/issue13.test.ts",
  "test/faults/embedded-ingest-kill.test.ts",
  "test/db/data-dir-lock.test.ts",
  "test/idempotency/idempotency.test.ts",
];

class LongFirst extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const rank = (test) => {
      const i = LONG_FIRST.indexOf(path.relative(test.context.config.rootDir, test.path).split(path.sep).join("/"));
      return i === -1 ? LONG_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the files outside the list keep jest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongFirst;
