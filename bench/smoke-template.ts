/**
 * A smoke run's embedded databases (BENCH_SMOKE=1: bench:unlock, bench:extract, bench:news-ingest, bench:semantic) start
 * from one migrated PGlite data directory instead of each running initdb, about 5 s of CPU apiece (the tests do the same:
 * test/support/templates.ts). The tar is built by the first smoke run that needs it and kept under
 * node_modules/.cache/bench-smoke, named by the migrations and the PGlite versions; the bench still runs its migrations on
 * it (nothing left to apply). Outside a smoke run there is no template: a real run's databases are created new.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createDb } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { SMOKE } from "./harness";

const cacheDir = path.join(packageRoot, "node_modules", ".cache", "bench-smoke");

function templateName(): string {
  const hash = crypto.createHash("sha256");
  for (const pkg of ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"])
    hash.update(fs.readFileSync(path.join(packageRoot, "node_modules", pkg, "package.json")));
  const migrations = path.join(packageRoot, "prisma/migrations");
  const files = fs
    .readdirSync(migrations, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(path.relative(packageRoot, file)).update(fs.readFileSync(file));
  hash.update(fs.readFileSync(path.join(packageRoot, "src/db/migrate.ts")));
  return `pglite-migrated-${hash.digest("hex").slice(0, 16)}.tar`;
}

/** In a smoke run, the migrated data directory to pass as `loadDataDir` to a new embedded database; otherwise undefined. */
export async function smokeEmbeddedTemplate(): Promise<Blob | undefined> {
  if (!SMOKE) return undefined;
  const file = path.join(cacheDir, templateName());
  if (!fs.existsSync(file)) {
    const db = await createDb({ dataDir: "memory://" });
    try {
      if (db.driver.kind !== "embedded") throw new Error("expected the embedded database");
      await migrate(db);
      // Written to the data files first, so a loaded copy starts without replaying the WAL.
      await db.driver.pglite.exec("CHECKPOINT");
      const tar = await db.driver.pglite.dumpDataDir("none");
      fs.mkdirSync(cacheDir, { recursive: true });
      // Written whole under a temporary name, then renamed: a concurrent smoke run never reads half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, Buffer.from(await tar.arrayBuffer()));
      fs.renameSync(temporary, file);
    } finally {
      await db.close();
    }
  }
  return new Blob([fs.readFileSync(file)]);
}
