/**
 * The data of bench:load: `edmarket_load_seed` (smoke: `edmarket_load_seed_smoke`) on the bench's PostgreSQL, migrated
 * and loaded with the real demo data exactly as `edmarket seed demo` and an embedded first start load it (`seedDemo`:
 * every public file of data/, the three demo organizations, the demo layer; a smoke run only the district directory
 * and the four states' files), then profile vectors of the offline model
 * for semantic search: EMBED_SECONDS per entity type (districts, contacts, schools; the largest first), so the vector
 * retrieval has rows to scan. The worker's background embedding is off during the run: its CPU is not the workload.
 *
 * Kept between runs by the fingerprint of its inputs (bench/bench-database.ts `fingerprintedDatabase`); each run copies
 * it (`CREATE DATABASE ... TEMPLATE`), so a run's unlocks and charges never reach the next run. Loading takes about
 * 80 s plus the embedding on this machine (a smoke run's: about 15 s).
 */
import "reflect-metadata";
import path from "node:path";
import type { Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { packageRoot } from "../src/db/package-root";
import { INGEST_SOURCES, type IngestSource } from "../src/ingest";
import { seedDemo } from "../src/seed";
import { embeddingProvider } from "../src/features/research/semantic-search/embeddings.provider";
import { embedPending } from "../src/features/research/semantic-search/semantic-search.indexer";
import { filesUnder, fingerprintedDatabase } from "./bench-database";
import { SMOKE } from "./harness";

export const LOAD_SEED_DATABASE = SMOKE ? "edmarket_load_seed_smoke" : "edmarket_load_seed";
/**
 * The sources `seedDemo` loads: every one; a smoke run only the district directory and the four states' district and
 * school files (seconds instead of the whole demo load), enough for every route of the mix to answer.
 */
const SEED_SOURCES: readonly IngestSource[] | undefined = SMOKE ? ["nces-lea", "nces-school-search"] : undefined;
/** Seconds of embedding per entity type (profiles): about 80 texts a second on one core; a smoke run embeds a batch or two. */
const EMBED_SECONDS = SMOKE ? 0.25 : 40;
/** Texts per batch: a smoke run's small batches keep its fraction of a second from running long. */
const EMBED_BATCH = SMOKE ? 16 : 64;
const EMBEDDED_TYPES = ["district", "contact", "school"] as const;

/** The seed database, loaded unless `reuse` finds it with the same inputs. */
export function prepareLoadSeed(adminUrl: string, options: { reuse: boolean; log: (line: string) => void }) {
  const inputs = [
    ...Object.entries(INGEST_SOURCES)
      .filter(([name]) => !SEED_SOURCES || SEED_SOURCES.includes(name as IngestSource))
      .flatMap(([, source]) => source.files.map((f) => path.join(packageRoot, f))),
    ...filesUnder("prisma/migrations"),
    ...filesUnder("src/ingest"),
    ...filesUnder("src/seed"),
    path.join(packageRoot, "src/seed.ts"),
    path.join(packageRoot, "src/features/account/organizations/demo-organizations.ts"),
    ...filesUnder("src/features/research/semantic-search"),
    __filename,
  ];
  return fingerprintedDatabase(adminUrl, LOAD_SEED_DATABASE, inputs, (db) => load(db, options.log), options);
}

async function load(db: Db, log: (line: string) => void): Promise<void> {
  const t0 = Date.now();
  await migrate(db);
  await seedDemo(db, { sources: SEED_SOURCES, onFile: (s, index, total) => log(`seed ${index}/${total} ${s.file}`) });
  log(`demo data loaded (${Math.round((Date.now() - t0) / 1000)} s)`);
  const provider = embeddingProvider({ EMBEDDINGS_MODEL: "unused" });
  for (const type of EMBEDDED_TYPES) {
    const report = await embedPending(db, provider, {
      batchSize: EMBED_BATCH,
      deadline: Date.now() + EMBED_SECONDS * 1000,
      only: [type],
      sourceTypes: ["profile"],
    });
    log(`${type} profiles embedded: ${report.embedded}${report.more ? " (more left)" : ""}`);
  }
}
