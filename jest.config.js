/** @type {import('jest').Config} */
const fs = require("node:fs");
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, "utf8"));
const runOnce = require("./test/support/run-once.js");
const bundles = require("./test/support/bundles.js");
const bundled = bundles.enabled();
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // On PostgreSQL, the files DATABASE_URL changes nothing in are left to the embedded run (test/support/run-once.js).
  // A full run runs each folder's files as one jest file, its bundle.test.ts (test/support/bundles.js).
  testPathIgnorePatterns: [
    "/node_modules/",
    ...(process.env.DATABASE_URL ? [...runOnce.databaseFree, ...runOnce.embeddedOnly].map((p) => `<rootDir>/${p}`) : []),
    ...bundles.ignorePatterns({ bundled, postgres: Boolean(process.env.DATABASE_URL) }),
  ],
  setupFiles: ["<rootDir>/test/support/env.ts"],
  // Each module's code is compiled once per worker instead of once per file; module state stays per file.
  runtime: "<rootDir>/test/support/shared-scripts-runtime.js",
  // The files known to run long start first (a clean clone has no jest timings to order by).
  testSequencer: "<rootDir>/test/support/long-first-sequencer.js",
  // One migrated template database per run, copied per test file (test/support/templates.ts).
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  transform: { "^.+\\.(t|j|mj)s$": ["@swc/jest", { ...swcrc, swcrc: false }] },
  // pg-boss and its helpers ship ESM only; let swc turn them into CommonJS for jest.
  transformIgnorePatterns: ["/node_modules/(?!(pg-boss|serialize-error|non-error|cron-parser|p-map|p-limit|yocto-queue)/)"],
  clearMocks: true,
  // A guard against hangs, not a speed limit: CI runs both suites at once in three workers each on a 2-core
  // machine (a third of a core per file), and the long property tests (test/unlocks/unlock.property.test.ts) need room.
  testTimeout: 600000,
};
