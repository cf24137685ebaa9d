/**
 * The vector retrieval of semantic search (issue 24, docs/semantic-search.md "Vectors on both databases") on a real
 * database: filters applied inside the search, so a filtered page is full while matches exist (pgvector's iterative
 * HNSW scan where the extension exists; the in-process scan otherwise), the in-process scan's agreement with the exact
 * cosine and its freshness across writes (it runs on any database, so both runs test it), and one search's statements.
 */
import { normalize, type EmbeddingProvider } from "../../src/features/research/semantic-search/embeddings.provider";
import { GATED_SOURCES } from "../../src/features/research/semantic-search/semantic-search.indexer";
import { SemanticSearchEntityType } from "../../src/features/research/semantic-search/semantic-search.inputs";
import { rankEntities } from "../../src/features/research/semantic-search/semantic-search.service";
import { ensureVectorIndex, vectorRowsSql } from "../../src/features/research/semantic-search/vector-index";
import { scanVectors, warmVectorScan } from "../../src/features/research/semantic-search/vector-scan";
import { createTestDb, type TestDb } from "../support/db";
import { countStatements } from "../support/statements";

const MODEL = "test-vectors-24";
const D = 24; // not a multiple of 16: the scan pads its rows
const NOBODY = "00000000-0000-4000-8000-000000000000";
const NO_FILTERS = { state: null, districtId: null, schoolId: null };

/** Seeded pseudo-random numbers in [-0.5, 0.5). */
function noise(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (Math.imul(a, 1_103_515_245) + 12_345) >>> 0;
    return a / 2 ** 32 - 0.5;
  };
}

const QUERY = normalize(Array.from({ length: D }, (_, i) => (i % 3) - 1 + 0.1 * i));
/** Near the query (`sign` 1) or opposite it (-1), with some noise. */
function around(seed: number, sign: 1 | -1, spread: number): number[] {
  const r = noise(seed);
  return normalize(QUERY.map((x) => sign * x + spread * r()));
}
const cosine = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const literal = (v: readonly number[]) => `{${v.join(",")}}`;

describe("vector retrieval", () => {
  let db: TestDb;
  /** Embedding row id -> vector, as stored. */
  const vectors = new Map<string, number[]>();
  const far: string[] = []; // the Iowa districts: every one of them ranks below every Nebraska one
  const farRows = new Set<string>(); // their embedding rows
  const provider: EmbeddingProvider = { model: MODEL, embed: async (texts) => texts.map(() => QUERY) };
  const search = (state: string | null, limit: number) =>
    rankEntities(
      db,
      NOBODY,
      provider,
      { query: "districts", entityType: SemanticSearchEntityType.district, filters: { ...NO_FILTERS, state }, limit },
      "vector",
    );

  beforeAll(async () => {
    db = await createTestDb();
    // 300 Nebraska districts near the query, 12 Iowa ones opposite it.
    const rows = Array.from({ length: 312 }, (_, i) => ({ i, state: i < 300 ? "NE" : "IA" }));
    const ids = await db.query<{ id: string }>(
      `INSERT INTO districts (fed_id, name, state, data_source, status)
       SELECT 'V' || t.i, 'Vector District ' || t.i, t.state, 'test', 'completed' FROM unnest($1::int[], $2::text[]) WITH ORDINALITY t(i, state, o)
        ORDER BY t.o RETURNING id`,
      [rows.map((r) => r.i), rows.map((r) => r.state)],
    );
    const values = rows.map((r) => (r.state === "NE" ? around(r.i, 1, 0.6) : around(r.i, -1, 0.6)));
    const inserted = await db.query<{ id: string; entity_id: string }>(
      `INSERT INTO embeddings (entity_type, entity_id, source_type, source_id, content, model, vector, dimension, state, district_id)
       SELECT 'district', t.id, 'profile', 'profile', 'profile', $1, t.v::real[], $2, t.state, t.id
         FROM unnest($3::uuid[], $4::text[], $5::text[]) AS t(id, v, state) RETURNING id, entity_id`,
      [MODEL, D, ids.map((r) => r.id), values.map(literal), rows.map((r) => r.state)],
    );
    const index = new Map(ids.map((r, i) => [r.id, i]));
    for (const e of inserted) {
      const i = index.get(e.entity_id)!;
      vectors.set(e.id, values[i]!);
      if (rows[i]!.state === "IA") {
        far.push(e.entity_id);
        farRows.add(e.id);
      }
    }
    await ensureVectorIndex(db, MODEL, "district", D);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("the in-process vectors loaded at a process start: every type that has some, and the first search only refreshes", async () => {
    expect(await warmVectorScan(db, MODEL, ["district", "school", "contact"], GATED_SOURCES)).toBe(312);
    expect(await countStatements(db, () => search("IA", 10))).toBe(2);
  });

  it("an index built with other HNSW settings is replaced by one with the current settings", async () => {
    if (!db.hasVector) return; // no HNSW without pgvector (the PostgreSQL 15 of CI)
    const indexes = async () =>
      (
        await db.query<{ name: string; def: string }>(
          `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE tablename = 'embeddings'`,
        )
      )
        .filter((i) => i.def.includes("'school'::text"))
        .map((i) => i.name);
    await db.exec(
      `CREATE INDEX embeddings_hnsw_stale ON embeddings USING hnsw ((vector::vector(${D})) vector_cosine_ops) WITH (m = 8, ef_construction = 16)
        WHERE ${vectorRowsSql(MODEL, "school", D, "")}`,
    );
    expect(await indexes()).toEqual(["embeddings_hnsw_stale"]);
    await ensureVectorIndex(db, MODEL, "school", D);
    const now = await indexes();
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe("embeddings_hnsw_stale");
  });

  it("fills a filtered page with every match, even those that rank last unfiltered", async () => {
    const unfiltered = await search(null, 10);
    expect(unfiltered.map((r) => r.entity_id).filter((id) => far.includes(id!))).toEqual([]);
    const iowa = await search("IA", 10);
    expect(iowa).toHaveLength(10);
    for (const r of iowa) expect(far).toContain(r.entity_id);
    const all = await search("IA", 50);
    expect(all.map((r) => r.entity_id).sort()).toEqual([...far].sort());
    expect(all[0]!.total).toBe(12);
  });

  it("the in-process scan returns the exact nearest rows, nearest first, filtered", async () => {
    for (const state of [null, "IA"]) {
      const { ids, distances } = await scanVectors(db, MODEL, "district", QUERY, { ...NO_FILTERS, state }, 10, GATED_SOURCES);
      const want = [...vectors.entries()]
        .filter(([id]) => state === null || farRows.has(id))
        .map(([id, v]) => ({ id, distance: 1 - cosine(v, QUERY) }))
        .sort((a, b) => a.distance - b.distance)
        .slice(0, 10);
      expect(ids).toEqual(want.map((w) => w.id));
      distances.forEach((d, i) => expect(d).toBeCloseTo(want[i]!.distance, 4));
    }
  });

  it("the in-process scan sees rows written and changed after it loaded", async () => {
    await scanVectors(db, MODEL, "district", QUERY, NO_FILTERS, 10, GATED_SOURCES);
    // A new Iowa district whose vector is the query itself: first from the next search on.
    const [district] = await db.query<{ id: string }>(
      `INSERT INTO districts (fed_id, name, state, data_source, status) VALUES ('V-new', 'Newest District', 'IA', 'test', 'completed') RETURNING id`,
    );
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO embeddings (entity_type, entity_id, source_type, source_id, content, model, vector, dimension, state, district_id)
       VALUES ('district', $1, 'profile', 'profile', 'profile', $2, $3::real[], $4, 'IA', $1) RETURNING id`,
      [district!.id, MODEL, literal(QUERY), D],
    );
    const afterInsert = await scanVectors(db, MODEL, "district", QUERY, NO_FILTERS, 10, GATED_SOURCES);
    expect(afterInsert.ids[0]).toBe(row!.id);
    expect(afterInsert.distances[0]).toBeCloseTo(0, 4);
    // The same row re-embedded far away (an upsert keeps the id): it leaves the top.
    await db.query(`UPDATE embeddings SET vector = $2::real[], updated_at = now() WHERE id = $1`, [row!.id, literal(around(1, -1, 0))]);
    const afterUpdate = await scanVectors(db, MODEL, "district", QUERY, NO_FILTERS, 10, GATED_SOURCES);
    expect(afterUpdate.ids).not.toContain(row!.id);
    const iowa = await scanVectors(db, MODEL, "district", QUERY, { ...NO_FILTERS, state: "IA" }, 20, GATED_SOURCES);
    expect(iowa.ids[iowa.ids.length - 1]).toBe(row!.id);
    expect(iowa.distances[iowa.ids.length - 1]).toBeCloseTo(2, 4);
    await db.query(`DELETE FROM embeddings WHERE id = $1`, [row!.id]);
    await db.query(`DELETE FROM districts WHERE id = $1`, [district!.id]);
  });

  it("a search is one statement with pgvector and no filter; two otherwise (the in-process vectors' refresh, then the search)", async () => {
    await search(null, 10);
    await search("IA", 10);
    expect(await countStatements(db, () => search(null, 10))).toBe(db.hasVector ? 1 : 2);
    // A filter takes the exact in-process scan on every database (vector-index.ts vectorCandidates).
    expect(await countStatements(db, () => search("IA", 10))).toBe(2);
  });
});
