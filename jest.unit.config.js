/**
 * The unit tier: pure modules only (no database, no server, no files under data/), in seconds.
 * `npm run test:unit` runs it; `npm test` runs these files too, with everything else.
 * New unit tests go under test/unit/; the other paths are pure tests kept beside their feature.
 * @type {import('jest').Config}
 */
const base = require("./jest.config.js");
module.exports = {
  ...base,
  testMatch: [
    "<rootDir>/test/unit/**/*.test.ts",
    "<rootDir>/test/metrics/metric-query.parse.test.ts",
    "<rootDir>/test/graphql/rest-serializers.test.ts",
    "<rootDir>/test/ingest/reader.test.ts",
  ],
  testTimeout: 5000,
  // No database in this tier: no template to build.
  globalSetup: undefined,
  globalTeardown: undefined,
};
