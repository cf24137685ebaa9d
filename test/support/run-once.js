/**
 * Test files the PostgreSQL run leaves to the embedded run (jest.config.js), because DATABASE_URL changes nothing
 * in them: running them twice only cost CI time.
 * - databaseFree: they open no database at all (pure modules, files under data/, the CLI's argument rules);
 * - embeddedOnly: they test the embedded database itself and drop DATABASE_URL (test/db/data-dir-lock.test.ts).
 * createTestDb refuses to run in a databaseFree file (test/support/db.ts), so a file that starts needing the
 * run's database fails in the embedded run until it leaves this list.
 */
const databaseFree = [
  "test/unit/",
  "test/extraction/contacts-jsonld-depth.test.ts",
  "test/extraction/crawl-rules.test.ts",
  "test/extraction/address-guard.test.ts",
  "test/metrics/metric-query.parse.test.ts",
  "test/graphql/rest-serializers.test.ts",
  "test/ingest/reader.test.ts",
  "test/news/news-ingest-feeds.test.ts",
  "test/news/signals-provider.test.ts",
];
const embeddedOnly = [
  "test/db/data-dir-lock.test.ts",
  "test/db/db-pool.test.ts",
  "test/db/embedded-turns.test.ts",
  "test/faults/embedded-ingest-kill.test.ts",
];

/** Whether a file (path from the repository root) is in `list`; an entry ending in "/" names a folder. */
const listed = (list, file) => list.some((entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry));

module.exports = { databaseFree, embeddedOnly, listed };
