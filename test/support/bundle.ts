/**
 * The body of a folder's `bundle.test.ts` (test/support/bundles.js says why): each member file in a describe block of
 * its own, named by its path, so its hooks, app and database stay its own and `-t <path>` selects it. On PostgreSQL
 * the members run-once.js leaves to the embedded run are left out, as jest.config.js leaves out such files.
 */
import path from "node:path";
import { CURRENT_MEMBER } from "./bundle-member";
import { enableEmbeddedPool } from "./db-pool";

const bundles = require("./bundles.js") as {
  members(folder: string): string[];
  embeddedRunOnly(file: string): boolean;
  relative(file: string): string;
};

export function bundle(folder: string): void {
  const root = path.resolve(__dirname, "../..");
  // The members' embedded databases are reused, reset to the template between them (db-pool.ts).
  if (!process.env.DATABASE_URL) enableEmbeddedPool();
  for (const file of bundles.members(bundles.relative(folder))) {
    if (process.env.DATABASE_URL && bundles.embeddedRunOnly(file)) continue;
    describe(file, () => {
      beforeAll(() => {
        (globalThis as Record<symbol, unknown>)[CURRENT_MEMBER] = file;
      });
      require(path.join(root, file));
    });
  }
}
