/**
 * Foreign keys resolved from memory: each run loads the keys it needs with one query up front, so no
 * ingestor issues a SELECT per row.
 */
import type { Queryable } from "../db/client";
import { districtKey, looksLikeSchoolDistrict, normalizeName, slug } from "./names";
import type { OperatorKind } from "./names";
import { type Row, Upserter } from "./upsert";
import type { TableCounts } from "./types";

/**
 * Every row of `columns` from `from`, as arrays in that order, in one JSON value: a whole table's keys (tens of
 * thousands of rows) read as one row. On the embedded database each result row costs its own protocol message and
 * object (19,500 districts: 62 ms as rows, 20 ms as one JSON value; loaded by every file of an ingest).
 */
export async function readTuples<T extends unknown[]>(q: Queryable, columns: readonly string[], from: string): Promise<T[]> {
  // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
  const [row] = await q.query<{ tuples: string }>(
    `SELECT coalesce(json_agg(json_build_array(${columns.join(", ")})), '[]')::text AS tuples FROM ${from}`,
  );
  return JSON.parse(row!.tuples) as T[];
}

/** districts.fed_id (LEAID) -> districts.id */
export async function loadDistrictIds(q: Queryable): Promise<Map<string, string>> {
  return new Map(await readTuples<[string, string]>(q, ["fed_id", "id"], "districts"));
}

const GENERIC_DISTRICT_SUFFIX =
  /\b(public schools?|school district|school corporation|community schools?|consolidated schools|unified school district|independent school district|board of education|school board|schools|school system|district)( number \d+[a-z]?| \d+[a-z]?)?$/;
const GENERIC_DISTRICT_PREFIX = /^(board of education of|school district of|school board of|schools of)\s+/;
const PLACE_SUFFIX = /\s+(county|parish|city|town|township|borough|area|village)$/;

/**
 * Ever shorter keys for one district name: as written, without the generic "public schools" /
 * "board of education" words, and without a trailing "county" / "city" ("Jackson County School
 * District" -> "jackson county" -> "jackson", which is how Florida's directory names it).
 */
function districtKeys(name: string): string[] {
  const full = districtKey(name);
  const base = full.replace(GENERIC_DISTRICT_PREFIX, "").replace(GENERIC_DISTRICT_SUFFIX, "").trim();
  const place = base.replace(PLACE_SUFFIX, "").trim();
  return [full, base, place];
}

/**
 * Names under which an organization calls a school district that the CCD directory spells otherwise
 * (state + districtKey of the name -> LEAID). Small on purpose, one line per checked case
 * (docs/early-childhood.md "Matching recipients to school districts").
 */
export const DISTRICT_ALIASES: Readonly<Record<string, string>> = {
  // The NYC DOE is the CCD supervisory union "NYC CHANCELLOR'S OFFICE"; its 32 "NEW YORK CITY GEOGRAPHIC
  // DISTRICT #n" are community school districts under it.
  "NY|new york city department of education": "3620580",
  "NY|nyc department of education": "3620580",
  "NY|new york city public schools": "3620580",
};

/** Finds the school district an organization name denotes, within one state ("Worcester Public Schools" -> Worcester). */
export class DistrictMatcher {
  private constructor(
    private readonly levels: Map<string, string | null>[],
    private readonly aliases: Map<string, string>,
  ) {}

  static async load(q: Queryable): Promise<DistrictMatcher> {
    const rows = (await readTuples<[string, string, string, string]>(q, ["id", "name", "state", "fed_id"], "districts")).map(
      ([id, name, state, fed_id]) => ({ id, name, state, fed_id }),
    );
    const byFedId = new Map(rows.map((r) => [r.fed_id, r]));
    const aliases = new Map<string, string>();
    for (const [key, fedId] of Object.entries(DISTRICT_ALIASES)) {
      const district = byFedId.get(fedId);
      // An alias counts only while its LEAID is loaded and in the alias's state.
      if (district && key.startsWith(`${district.state}|`)) aliases.set(key, district.id);
    }
    const levels = [new Map<string, string | null>(), new Map<string, string | null>(), new Map<string, string | null>()];
    for (const row of rows) {
      districtKeys(row.name).forEach((key, level) => {
        if (!key) return;
        const map = levels[level]!;
        const k = `${row.state}|${key}`;
        // A key shared by two districts is ambiguous: it matches neither.
        map.set(k, map.has(k) && map.get(k) !== row.id ? null : row.id);
      });
    }
    return new DistrictMatcher(levels, aliases);
  }

  /**
   * The district's id, or null when the name names no single district of that state. Shortened keys
   * are tried only for names that say they are a school district, so "Lincoln Learning Center" never
   * matches Lincoln Public Schools.
   */
  match(name: string, state: string): string | null {
    const keys = districtKeys(name);
    const alias = this.aliases.get(`${state}|${keys[0]}`);
    if (alias) return alias;
    const direct = this.levels[0]!.get(`${state}|${keys[0]}`);
    if (direct) return direct;
    if (!looksLikeSchoolDistrict(name)) return null;
    for (let level = 1; level < keys.length; level += 1) {
      const key = keys[level];
      if (!key) continue;
      const hit = this.levels[level]!.get(`${state}|${key}`);
      if (hit !== undefined) return hit;
    }
    return null;
  }
}

export interface OperatorCandidate {
  name: string;
  state: string;
  kind: OperatorKind;
  chainKey?: string | null;
  dataSource: string;
}

export interface KnownOperator {
  id: string;
  ein: string | null;
  chainKey: string | null;
  dataSource: string;
  kind: string;
}

/**
 * Operators known by normalized name + state (the identity shared by Head Start recipients, licensees
 * and IRS names) and by EIN. New name-identified operators get the slug name-state-hash(name|state), so
 * re-inserting the same organization hits the same row.
 */
export class OperatorRegistry {
  private readonly byName = new Map<string, KnownOperator>();
  private readonly byEin = new Map<string, KnownOperator>();

  static async load(q: Queryable): Promise<OperatorRegistry> {
    const registry = new OperatorRegistry();
    // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
    const rows = await q.query<{
      id: string;
      normalized_name: string;
      state: string | null;
      ein: string | null;
      chain_key: string | null;
      data_source: string;
      kind: string;
    }>(
      `SELECT id, normalized_name, state, ein, chain_key, data_source, kind FROM operators WHERE merged_into_id IS NULL ORDER BY created_at, id`,
    );
    for (const row of rows) {
      registry.remember(row.normalized_name, row.state, {
        id: row.id,
        ein: row.ein,
        chainKey: row.chain_key,
        dataSource: row.data_source,
        kind: row.kind,
      });
    }
    return registry;
  }

  static key(normalized: string, state: string | null): string {
    return `${normalized}|${state ?? ""}`;
  }

  remember(normalized: string, state: string | null, operator: KnownOperator): void {
    const key = OperatorRegistry.key(normalized, state);
    if (!this.byName.has(key)) this.byName.set(key, operator);
    if (operator.ein && !this.byEin.has(operator.ein)) this.byEin.set(operator.ein, operator);
  }

  find(name: string, state: string | null): KnownOperator | undefined {
    return this.byName.get(OperatorRegistry.key(normalizeName(name), state));
  }

  findByEin(ein: string): KnownOperator | undefined {
    return this.byEin.get(ein);
  }

  claimEin(operator: KnownOperator, ein: string): void {
    operator.ein = ein;
    this.byEin.set(ein, operator);
  }

  /**
   * Ids of the candidates' operators, inserting the ones not known yet in one statement. Existing
   * operators are linked as they are: a source never renames an organization another source created.
   */
  async ensure(
    q: Queryable,
    upserter: Upserter,
    candidates: readonly OperatorCandidate[],
  ): Promise<{ ids: Map<string, string>; counts: TableCounts }> {
    const ids = new Map<string, string>();
    const fresh = new Map<string, Row>();
    for (const candidate of candidates) {
      const normalized = normalizeName(candidate.name);
      const key = OperatorRegistry.key(normalized, candidate.state);
      const known = this.byName.get(key);
      if (known) {
        ids.set(key, known.id);
        continue;
      }
      if (fresh.has(key)) continue;
      fresh.set(key, {
        slug: slug(candidate.name, candidate.state, `operator:${key}`),
        name: candidate.name,
        normalized_name: normalized,
        kind: candidate.kind,
        state: candidate.state,
        chain_key: candidate.chainKey ?? null,
        data_source: candidate.dataSource,
      });
    }
    const counts: TableCounts = { inserted: 0, updated: 0, unchanged: candidates.length ? ids.size : 0 };
    if (fresh.size) {
      const rows = [...fresh.values()];
      const result = await upserter.write<{ id: string; slug: string }>(OPERATOR_INSERT, rows);
      const bySlug = new Map(result.rows.map((r) => [r.slug, r.id]));
      const missing = rows.filter((r) => !bySlug.has(r.slug as string)).map((r) => r.slug as string);
      if (missing.length) {
        // Same slug already taken by an operator this registry did not index (e.g. a merged one): link to it.
        // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
        for (const r of await q.query<{ id: string; slug: string }>(`SELECT id, slug FROM operators WHERE slug = ANY($1::text[])`, [
          missing,
        ])) {
          bySlug.set(r.slug, r.id);
        }
      }
      for (const [key, row] of fresh) {
        const id = bySlug.get(row.slug as string)!;
        ids.set(key, id);
        const [normalized, state] = key.split("|");
        this.remember(normalized!, state || null, {
          id,
          ein: null,
          chainKey: (row.chain_key as string | null) ?? null,
          dataSource: row.data_source as string,
          kind: row.kind as string,
        });
      }
      counts.inserted += result.inserted;
      counts.unchanged += fresh.size - result.inserted;
    }
    return { ids, counts };
  }
}

const OPERATOR_INSERT = {
  table: "operators",
  key: ["slug"],
  insert: ["slug", "name", "normalized_name", "kind", "state", "chain_key", "data_source"],
  update: [],
  returning: ["id", "slug"],
} as const;
