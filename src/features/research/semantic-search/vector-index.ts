/**
 * Vector similarity on both databases (docs/semantic-search.md, "Vectors on both databases").
 *
 * `embeddings.vector` (REAL[]) is the canonical column everywhere. Debian's PostgreSQL 15 has no pgvector, and a
 * migration must apply on both databases, so no migration can name the `vector` type.
 * - Where the extension exists (always on embedded PGlite, which creates it at open: src/db/client.ts; on PostgreSQL
 *   when installed), this module creates a partial HNSW *expression* index over the real[] column cast to
 *   `vector(D)`, one per model, entity type and dimension, the first time such vectors are written. Nothing is added
 *   beside the column (no second copy to keep in step), the migrations stay plain SQL, and the schema test compares
 *   what the migrations create. The search's session settings (ef_search, iterative scans) are set when a session
 *   opens (src/db/vector-settings.ts).
 * - Without the extension, and for a search with a filter (state, district, school) everywhere, each process scans
 *   its own in-memory copy of the vectors, exactly (vector-scan.ts), and the search statement reads the candidates
 *   it found by id (vectorCandidates says why filtered searches do).
 */
import crypto from "node:crypto";
import type { Db } from "../../../db/client";
import { scanVectors, type ScanFilters } from "./vector-scan";

/**
 * HNSW build settings, with ef_search in src/db/vector-settings.ts: recall@10 against exact search 0.96 at 100,000
 * vectors (bench/semantic.ts; m 16 / ef_construction 64 gave 0.90 at ef_search 400, 0.64 at 100). The build takes
 * about 4 minutes of one core at 100,000 on PGlite, in the background embedding jobs (rows are indexed as written).
 */
export const HNSW_BUILD = { m: 32, efConstruction: 128 } as const;

/** Keyed by the database's driver (a request's Db is a wrapper of it). */
const created = new WeakMap<object, Set<string>>();

/** A model name or entity type as an SQL literal (configuration and code, never user input; quoted anyway). */
export const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

function checkDimension(dimension: number): number {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 16_000) throw new Error(`embeddings: bad dimension ${dimension}`);
  return dimension;
}

/** The rows of one model, entity type and dimension: the HNSW index's predicate, spelled the same so the planner uses it. */
export function vectorRowsSql(model: string, entityType: string, dimension: number, alias = "e."): string {
  return `${alias}model = ${literal(model)} AND ${alias}entity_type = ${literal(entityType)} AND ${alias}dimension = ${checkDimension(dimension)}`;
}

/** Creates the HNSW index of (model, entity type, dimension) where pgvector exists (idempotent; once per process and database). */
export async function ensureVectorIndex(db: Db, model: string, entityType: string, dimension: number): Promise<void> {
  if (!db.hasVector) return;
  const key = `${model}/${entityType}/${dimension}`;
  const done = created.get(db.driver) ?? new Set<string>();
  created.set(db.driver, done);
  if (done.has(key)) return;
  // The build settings are part of the name: changed settings build a new index, and the one they replace is dropped.
  const built = `${key}/m${HNSW_BUILD.m}/efc${HNSW_BUILD.efConstruction}`;
  const name = `embeddings_hnsw_${crypto.createHash("sha256").update(built).digest("hex").slice(0, 12)}`;
  const d = checkDimension(dimension);
  await db.exec(
    `CREATE INDEX IF NOT EXISTS ${name} ON embeddings USING hnsw ((vector::vector(${d})) vector_cosine_ops)
       WITH (m = ${HNSW_BUILD.m}, ef_construction = ${HNSW_BUILD.efConstruction})
       WHERE ${vectorRowsSql(model, entityType, d, "")}`,
  );
  const stale = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index me
       JOIN pg_index x ON x.indrelid = me.indrelid AND x.indexrelid <> me.indexrelid
       JOIN pg_class c ON c.oid = x.indexrelid
      WHERE me.indexrelid = $1::regclass AND c.relname LIKE 'embeddings\\_hnsw\\_%'
        AND pg_get_expr(x.indpred, x.indrelid) = pg_get_expr(me.indpred, me.indrelid)`,
    [name],
  );
  for (const { name: old } of stale) await db.exec(`DROP INDEX IF EXISTS ${old}`);
  done.add(key);
}

/** SQL of the cosine distance of `e.vector` to the query vector (a `real[]` parameter `param`), for the HNSW index. */
export function hnswDistanceSql(dimension: number, param: string): string {
  const d = checkDimension(dimension);
  return `((e.vector::vector(${d})) <=> ${param}::real[]::vector(${d}))`;
}

/**
 * How the search statement finds the nearest vectors: by the HNSW index (`ORDER BY` the distance), or from the
 * candidates the in-process scan found (ids with their distances, read by id).
 */
export type VectorCandidates = { kind: "hnsw" } | { kind: "scan"; ids: string[]; distances: number[] };

export interface VectorQuery {
  model: string;
  entityType: string;
  vector: readonly number[];
  filters: ScanFilters;
  /** Rows wanted after the statement's own filters (gating). */
  k: number;
  gatedSources: readonly string[];
}

/**
 * The candidates of one search: HNSW (no statement) where pgvector exists and nothing filters the vectors;
 * otherwise the in-process exact scan (its refresh statement). A filter keeps a few percent of the rows (a state:
 * 0.3-11%), and HNSW applies it after the graph walk, so its iterative scan walked 20-100 times the rows wanted
 * (70-300 ms at 100,000 vectors on PGlite), where the exact scan of the filtered rows takes a few ms
 * (bench/semantic.ts; the usual choice of filtered vector search: brute force below a selectivity).
 */
export async function vectorCandidates(db: Db, query: VectorQuery): Promise<VectorCandidates> {
  const { state, districtId, schoolId } = query.filters;
  if (db.hasVector && state === null && districtId === null && schoolId === null) return { kind: "hnsw" };
  const { ids, distances } = await scanVectors(db, query.model, query.entityType, query.vector, query.filters, query.k, query.gatedSources);
  return { kind: "scan", ids, distances };
}
