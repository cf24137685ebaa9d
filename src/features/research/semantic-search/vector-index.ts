/**
 * Vector similarity on both databases (docs/semantic-search.md, "Vectors on both databases").
 *
 * `embeddings.vector` (REAL[]) is the canonical column everywhere. Debian's PostgreSQL 15 has no pgvector, and a
 * migration must apply on both databases, so no migration can name the `vector` type. Where the extension exists
 * (always on embedded PGlite, which creates it at open: src/db/client.ts; on PostgreSQL when installed), this module
 * creates a partial HNSW *expression* index over the real[] column cast to `vector(D)`, one per model and dimension,
 * the first time that model's vectors are written or searched. Nothing is added beside the column (no second copy
 * to keep in step), the migrations stay plain SQL, and the schema test compares what the migrations create.
 * Without the extension the search computes the exact cosine in SQL over the real[] vectors, after the filters.
 */
import crypto from "node:crypto";
import type { Db } from "../../../db/client";

/** HNSW build and search settings (bench/semantic.ts measures recall against exact search at these). */
export const HNSW = { m: 16, efConstruction: 64, efSearch: 100 } as const;

const created = new WeakMap<Db, Set<string>>();

/** A model name as an SQL literal (configuration, never user input; quoted anyway). */
export const modelLiteral = (model: string): string => `'${model.replace(/'/g, "''")}'`;

function checkDimension(dimension: number): number {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 16_000) throw new Error(`embeddings: bad dimension ${dimension}`);
  return dimension;
}

/** Creates the model's HNSW index where pgvector exists (idempotent; once per process and database). */
export async function ensureVectorIndex(db: Db, model: string, dimension: number): Promise<void> {
  if (!db.hasVector) return;
  const key = `${model}/${dimension}`;
  const done = created.get(db) ?? new Set<string>();
  created.set(db, done);
  if (done.has(key)) return;
  const name = `embeddings_hnsw_${crypto.createHash("sha256").update(key).digest("hex").slice(0, 12)}`;
  const d = checkDimension(dimension);
  await db.exec(
    `CREATE INDEX IF NOT EXISTS ${name} ON embeddings USING hnsw ((vector::vector(${d})) vector_cosine_ops)
       WITH (m = ${HNSW.m}, ef_construction = ${HNSW.efConstruction})
       WHERE model = ${modelLiteral(model)} AND dimension = ${d}`,
  );
  done.add(key);
}

/**
 * SQL for the cosine distance of `e.vector` to the query vector (a `real[]` parameter `param`), and the condition
 * that selects the model's vectors (the HNSW index's predicate, spelled the same so the planner uses it).
 */
export function vectorDistanceSql(db: Db, model: string, dimension: number, param: string): { distance: string; where: string } {
  const d = checkDimension(dimension);
  const where = `e.model = ${modelLiteral(model)} AND e.dimension = ${d}`;
  if (db.hasVector) return { distance: `((e.vector::vector(${d})) <=> ${param}::real[]::vector(${d}))`, where };
  // Exact: the vectors are unit length, so the cosine is their dot product.
  return { distance: `(1 - (SELECT sum(a * b) FROM unnest(e.vector, ${param}::real[]) AS dot(a, b)))`, where };
}

/** Statements run before a vector search in its transaction: pgvector 0.8 iterative scans keep a filtered page full. */
export const vectorSearchSettings = (db: Db): string[] =>
  db.hasVector ? [`SET LOCAL hnsw.ef_search = ${HNSW.efSearch}`, `SET LOCAL hnsw.iterative_scan = relaxed_order`] : [];
