/**
 * The exact vector search where pgvector is absent (PostgreSQL without the extension; docs/semantic-search.md,
 * "Vectors on both databases"): each process keeps the vectors of one model and entity type in memory and scans
 * them all, instead of computing cosines in SQL (1.4 s for 17,000 vectors; a few ms here).
 *
 * - Memory: every vector as int8 (scaled by its largest component) in the scan kernel's WebAssembly memory
 *   (int8-dot.ts: SIMD), and as int16 for the re-rank of the best candidates: 3 bytes a dimension, 154 MB for
 *   100,000 vectors of 512 dimensions, plus a few bytes of filter columns each.
 * - Exactness: the int8 scan keeps the best `RERANK_FACTOR` x k rows, the int16 re-rank orders them (its error,
 *   about 1e-5 of a cosine, is below the float32 rounding of the stored vectors' last digits at 512 dimensions,
 *   so the order equals the SQL cosine's except for ties); bench/semantic.ts measures recall@10 against SQL.
 * - Filters (`state`, `district_id`, `school_id`, the vectors' own columns) select the rows scanned, so a filtered
 *   page is never short while matches exist. Gated passages are kept apart: the scan returns the best k of the
 *   ungated and the best k of the gated ones, and the search statement drops gated ones the caller has not unlocked.
 * - Freshness across stateless processes: before each search one statement reads the rows written since the last
 *   read (`updated_at`, with an overlap that covers transactions committing out of timestamp order, minus the rows
 *   already read at their current time). An upsert keeps a row's id, so a changed vector replaces its row here.
 *   A deleted row stays here until the process restarts and is never served: the search statement joins the
 *   candidates to `embeddings` by id.
 */
import type { Db } from "../../../db/client";
import { createDotKernel, type DotKernel } from "./int8-dot";

/** Candidates the int8 scan hands to the int16 re-rank, per result wanted. */
const RERANK_FACTOR = 4;
/** Rows re-read after the newest one seen: an upsert commits within this of its `updated_at` (one statement). */
const OVERLAP_MS = 10_000;
/** Statements reading at once at the first load (slices of the ids: the database encodes while this process decodes). */
const LOAD_STREAMS = 3;

export interface ScanFilters {
  state: string | null;
  districtId: string | null;
  schoolId: string | null;
}

interface Row {
  id: string;
  v: Uint8Array;
  state: string | null;
  district_id: string | null;
  school_id: string | null;
  gated: boolean;
  ms: number;
}

/** Interned strings (states, district and school ids) as small integers; -1 is null. */
class Codes {
  private readonly codes = new Map<string, number>();
  code(value: string | null): number {
    if (value === null) return -1;
    let c = this.codes.get(value);
    if (c === undefined) this.codes.set(value, (c = this.codes.size));
    return c;
  }
  find(value: string): number {
    return this.codes.get(value) ?? -2; // matches no row
  }
}

/** Reads the float32 elements of `array_send(real[])` (1-dimensional, no nulls: 20 header bytes, then length and value each). */
function floatsOfArraySend(bytes: Uint8Array, dimension: number, into: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < dimension; i++) into[i] = view.getFloat32(20 + i * 8 + 4, false);
}

class Partition {
  readonly dim: number; // padded to a multiple of 16 (the kernel's step)
  count = 0;
  private capacity = 0;
  private readonly kernel: DotKernel = createDotKernel();
  private memoryBytes = 65_536;
  private ids: string[] = [];
  private readonly rowOf = new Map<string, number>();
  private inv8 = new Float32Array(0); // 1 / int8 scale of each row
  private fine = new Int16Array(0);
  private inv16 = new Float32Array(0);
  private state = new Int32Array(0);
  private district = new Int32Array(0);
  private school = new Int32Array(0);
  private gated = new Uint8Array(0);
  private readonly states = new Codes();
  private readonly districts = new Codes();
  private readonly schools = new Codes();
  /**
   * Every row with `updated_at` up to `watermark` (epoch ms) has been read; `recent` holds the rows read that are
   * newer, with their time (the next refresh skips them unless they changed).
   */
  watermark = 0;
  readonly recent = new Map<string, number>();
  private readonly scratch: Float32Array;

  constructor(readonly dimension: number) {
    this.dim = Math.ceil(dimension / 16) * 16;
    this.scratch = new Float32Array(this.dim);
  }

  private grow(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, Math.ceil(this.capacity * 1.5), 1_024);
    const grown = <T extends Float32Array | Int16Array | Int32Array | Uint8Array>(old: T, next: T): T => {
      next.set(old);
      return next;
    };
    this.inv8 = grown(this.inv8, new Float32Array(capacity));
    this.inv16 = grown(this.inv16, new Float32Array(capacity));
    this.state = grown(this.state, new Int32Array(capacity));
    this.district = grown(this.district, new Int32Array(capacity));
    this.school = grown(this.school, new Int32Array(capacity));
    this.gated = grown(this.gated, new Uint8Array(capacity));
    this.fine = grown(this.fine, new Int16Array(capacity * this.dim));
    this.capacity = capacity;
    // WebAssembly memory: the int8 matrix from 0, then the query, the row list and the scores (scratch, per search).
    const bytes = capacity * this.dim + this.dim + capacity * 8 + 64;
    if (bytes > this.memoryBytes) {
      this.kernel.memory.grow(Math.ceil((bytes - this.memoryBytes) / 65_536));
      this.memoryBytes = this.kernel.memory.buffer.byteLength;
    }
  }

  /** Adds or replaces one row (an upsert keeps the id). */
  put(row: Row): void {
    let r = this.rowOf.get(row.id);
    if (r === undefined) {
      this.grow(this.count + 1);
      r = this.count++;
      this.rowOf.set(row.id, r);
      this.ids[r] = row.id;
    }
    const v = this.scratch;
    v.fill(0);
    floatsOfArraySend(row.v, this.dimension, v);
    let max = 0;
    for (let i = 0; i < this.dimension; i++) max = Math.max(max, Math.abs(v[i]!));
    max ||= 1;
    const m8 = new Int8Array(this.kernel.memory.buffer, r * this.dim, this.dim);
    const s8 = 127 / max;
    const s16 = 32_767 / max;
    const base16 = r * this.dim;
    for (let i = 0; i < this.dim; i++) {
      m8[i] = Math.round(v[i]! * s8);
      this.fine[base16 + i] = Math.round(v[i]! * s16);
    }
    this.inv8[r] = 1 / s8;
    this.inv16[r] = 1 / s16;
    this.state[r] = this.states.code(row.state);
    this.district[r] = this.districts.code(row.district_id);
    this.school[r] = this.schools.code(row.school_id);
    this.gated[r] = row.gated ? 1 : 0;
    if (row.ms > this.watermark) this.recent.set(row.id, row.ms);
  }

  /** Moves the watermark to `nowMs - OVERLAP_MS` (the database's clock at the last read) and forgets rows before it. */
  advance(nowMs: number): void {
    this.watermark = Math.max(this.watermark, nowMs - OVERLAP_MS);
    for (const [id, ms] of this.recent) if (ms <= this.watermark) this.recent.delete(id);
  }

  /** The best `k` ungated and best `k` gated rows passing the filters: ids and cosine distances, nearest first. */
  search(query: readonly number[], filters: ScanFilters, k: number): { ids: string[]; distances: number[] } {
    const { dim } = this;
    const memory = this.kernel.memory.buffer;
    const qAt = this.capacity * dim;
    const rowsAt = qAt + dim;
    const outAt = rowsAt + this.capacity * 4;
    // The query: int8 for the scan, float for the re-rank.
    let max = 0;
    for (let i = 0; i < this.dimension; i++) max = Math.max(max, Math.abs(query[i]!));
    max ||= 1;
    const q8 = new Int8Array(memory, qAt, dim);
    q8.fill(0);
    for (let i = 0; i < this.dimension; i++) q8[i] = Math.round((query[i]! * 127) / max);
    // The rows to scan: the filters over the vectors' own columns.
    const rows = new Int32Array(memory, rowsAt, this.capacity);
    const state = filters.state !== null ? this.states.find(filters.state) : null;
    const district = filters.districtId !== null ? this.districts.find(filters.districtId) : null;
    const school = filters.schoolId !== null ? this.schools.find(filters.schoolId) : null;
    let n = 0;
    for (let r = 0; r < this.count; r++) {
      if (state !== null && this.state[r] !== state) continue;
      if (district !== null && this.district[r] !== district) continue;
      if (school !== null && this.school[r] !== school) continue;
      rows[n++] = r;
    }
    this.kernel.dot(qAt, 0, rowsAt, n, dim, outAt);
    const scores = new Int32Array(memory, outAt, n);
    const ids: string[] = [];
    const distances: number[] = [];
    for (const gated of [0, 1]) {
      const best = new TopK(k * RERANK_FACTOR);
      for (let i = 0; i < n; i++) {
        const r = rows[i]!;
        if (this.gated[r] === gated) best.offer(scores[i]! * this.inv8[r]!, r);
      }
      // Re-rank by the int16 copy: the order of the exact cosine.
      const reranked = best.rows().map((r) => {
        let dot = 0;
        const base = r * dim;
        for (let i = 0; i < this.dimension; i++) dot += this.fine[base + i]! * query[i]!;
        return { r, distance: 1 - dot * this.inv16[r]! };
      });
      reranked.sort((a, b) => a.distance - b.distance || a.r - b.r);
      for (const { r, distance } of reranked.slice(0, k)) {
        ids.push(this.ids[r]!);
        distances.push(distance);
      }
    }
    return { ids, distances };
  }
}

/** The `k` largest scores offered (a min-heap of size k). */
class TopK {
  private readonly score: Float64Array;
  private readonly row: Int32Array;
  private size = 0;
  constructor(private readonly k: number) {
    this.score = new Float64Array(k);
    this.row = new Int32Array(k);
  }
  offer(score: number, row: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.score[parent]! <= score) break;
        this.score[i] = this.score[parent]!;
        this.row[i] = this.row[parent]!;
        i = parent;
      }
      this.score[i] = score;
      this.row[i] = row;
      return;
    }
    if (score <= this.score[0]!) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.score[right]! < this.score[left]! ? right : left;
      if (this.score[child]! >= score) break;
      this.score[i] = this.score[child]!;
      this.row[i] = this.row[child]!;
      i = child;
    }
    this.score[i] = score;
    this.row[i] = row;
  }
  rows(): number[] {
    return Array.from(this.row.subarray(0, this.size));
  }
}

/** Per database, keyed by its driver: a request's Db is a wrapper with its own time budget (src/graphql/request-budget.ts). */
const partitions = new WeakMap<object, Map<string, Promise<Partition>>>();

type ReadRow = Omit<Row, "gated" | "v"> & { v: string; source_type: string; now_ms: number };

/** A row's columns; the vector as base64 of `array_send` (5.5 KB a 512-dimension row, against 8 KB as bytea hex or 6 KB as text to parse). */
const ROW_COLUMNS = `e.id, encode(array_send(e.vector), 'base64') AS v, e.state, e.district_id, e.school_id, e.source_type,
  (extract(epoch FROM e.updated_at) * 1000)::float8 AS ms`;
/** Returns one row with the database's clock (`now_ms`) and no id when nothing matched. */
const withClock = (select: string) =>
  `SELECT c.now_ms, r.* FROM (SELECT (extract(epoch FROM now()) * 1000)::float8 AS now_ms) c LEFT JOIN LATERAL (${select}) r ON true`;

const putAll = (p: Partition, rows: ReadRow[], gatedSources: readonly string[]) => {
  for (const row of rows)
    if (row.id !== null) p.put({ ...row, v: Buffer.from(row.v, "base64"), gated: gatedSources.includes(row.source_type) });
};

/** The first read of (model, entity type, dimension): 16 slices by the id's first hex digit, LOAD_STREAMS at a time. */
async function load(db: Db, p: Partition, model: string, entityType: string, gatedSources: readonly string[]): Promise<void> {
  const digits = "0123456789abcdef";
  let nowMs = Infinity;
  let next = 0;
  const stream = async () => {
    for (let i = next++; i < digits.length; i = next++) {
      const from = `${digits[i]}0000000-0000-0000-0000-000000000000`;
      const to = i + 1 < digits.length ? `${digits[i + 1]}0000000-0000-0000-0000-000000000000` : null;
      const rows = await db.query<ReadRow>(
        withClock(`SELECT ${ROW_COLUMNS} FROM embeddings e
          WHERE e.model = $1 AND e.entity_type = $2 AND e.dimension = $3 AND e.id >= $4::uuid ${to ? "AND e.id < $5::uuid" : ""}`),
        to ? [model, entityType, p.dimension, from, to] : [model, entityType, p.dimension, from],
      );
      // The earliest slice's clock: a row committed after some slice began has a later updated_at than it, less OVERLAP_MS.
      nowMs = Math.min(nowMs, rows[0]!.now_ms);
      putAll(p, rows, gatedSources);
    }
  };
  await Promise.all(Array.from({ length: LOAD_STREAMS }, stream));
  p.advance(nowMs);
}

/** Reads the rows written since the partition's watermark that it has not read at their current time. */
async function refresh(db: Db, p: Partition, model: string, entityType: string, gatedSources: readonly string[]): Promise<void> {
  const known = [...p.recent];
  const rows = await db.query<ReadRow>(
    withClock(`SELECT ${ROW_COLUMNS} FROM embeddings e
      WHERE e.model = $1 AND e.entity_type = $2 AND e.dimension = $3 AND e.updated_at > to_timestamp($4::float8 / 1000)
        AND NOT EXISTS (SELECT 1 FROM unnest($5::uuid[], $6::float8[]) k(id, ms)
                         WHERE k.id = e.id AND k.ms = (extract(epoch FROM e.updated_at) * 1000)::float8)`),
    [model, entityType, p.dimension, p.watermark, known.map(([id]) => id), known.map(([, ms]) => ms)],
  );
  putAll(p, rows, gatedSources);
  p.advance(rows[0]!.now_ms);
}

/** The loaded vectors of (model, entity type, dimension), loading them on first use; `first` when this call started the load. */
function partition(
  db: Db,
  model: string,
  entityType: string,
  dimension: number,
  gatedSources: readonly string[],
): { loading: Promise<Partition>; first: boolean } {
  const byKey = partitions.get(db.driver) ?? new Map<string, Promise<Partition>>();
  partitions.set(db.driver, byKey);
  const key = `${model}\u0000${entityType}\u0000${dimension}`;
  let loading = byKey.get(key);
  if (loading) return { loading, first: false };
  loading = (async () => {
    const p = new Partition(dimension);
    // Not bounded by the first caller's request budget: the load outlives it, and later searches wait for it.
    await load(db.unbounded, p, model, entityType, gatedSources);
    return p;
  })();
  byKey.set(key, loading);
  loading.catch(() => byKey.delete(key));
  return { loading, first: true };
}

/**
 * The nearest rows of (model, entity type) to `query` passing `filters`: the best `k` ungated and the best `k`
 * gated ones, with their cosine distances. One statement (the refresh) per call once loaded.
 */
export async function scanVectors(
  db: Db,
  model: string,
  entityType: string,
  query: readonly number[],
  filters: ScanFilters,
  k: number,
  gatedSources: readonly string[],
): Promise<{ ids: string[]; distances: number[] }> {
  const { loading, first } = partition(db, model, entityType, query.length, gatedSources);
  const p = await loading;
  if (!first) await refresh(db, p, model, entityType, gatedSources);
  return p.search(query, filters, k);
}

/**
 * Loads the vectors of `model` of each entity type that has some, at a process start, so that no search waits for
 * the first load (100,000 vectors: seconds of this process and the database). Returns the vectors loaded.
 */
export async function warmVectorScan(
  db: Db,
  model: string,
  entityTypes: readonly string[],
  gatedSources: readonly string[],
): Promise<number> {
  let loaded = 0;
  for (const entityType of entityTypes) {
    const [row] = await db.query<{ dimension: number }>(
      `SELECT dimension FROM embeddings WHERE model = $1 AND entity_type = $2 AND dimension > 0 LIMIT 1`,
      [model, entityType],
    );
    if (row) loaded += (await partition(db, model, entityType, row.dimension, gatedSources).loading).count;
  }
  return loaded;
}

/** Memory held by the in-process vectors of `db` (bench/semantic.ts reports it). */
export async function scanMemoryBytes(db: Db): Promise<number> {
  let bytes = 0;
  for (const p of (await Promise.all(partitions.get(db.driver)?.values() ?? [])) as Partition[]) bytes += p.count * p.dim * 3;
  return bytes;
}
