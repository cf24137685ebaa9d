/**
 * Foreign keys resolved from memory: each run loads the keys it needs with one query up front, so no
 * ingestor issues a SELECT per row.
 */
import type { Queryable } from "../db/client";
import { districtKey, looksLikeSchoolDistrict, normalizeName, slug } from "./names";
import type { OperatorKind } from "./names";
import { type Row, Upserter } from "./upsert";
import type { TableCounts } from "./types";

/** districts.fed_id (LEAID) -> districts.id */
export async function loadDistrictIds(q: Queryable): Promise<Map<string, string>> {
  const rows = await q.query<{ id: string; fed_id: string }>(`SELECT id, fed_id FROM districts`);
  return new Map(rows.map((r) => [r.fed_id, r.id]));
}

const GENERIC_DISTRICT_WORDS =
  /\b(public schools?|school district|school corporation|community schools?|city schools|county schools|local schools|consolidated schools|area schools|unified school district|independent school district|board of education|school board|schools|district)( number \d+[a-z]?| \d+[a-z]?)?$/;

/** Finds the school district an organization name denotes, within one state ("Worcester Public Schools" -> Worcester). */
export class DistrictMatcher {
  private constructor(
    private readonly exact: Map<string, string | null>,
    private readonly stripped: Map<string, string | null>,
  ) {}

  static async load(q: Queryable): Promise<DistrictMatcher> {
    const rows = await q.query<{ id: string; name: string; state: string }>(`SELECT id, name, state FROM districts`);
    const exact = new Map<string, string | null>();
    const stripped = new Map<string, string | null>();
    // A key shared by two districts is ambiguous: it matches neither.
    const put = (map: Map<string, string | null>, key: string, id: string) => map.set(key, map.has(key) && map.get(key) !== id ? null : id);
    for (const row of rows) {
      const key = districtKey(row.name);
      put(exact, `${row.state}|${key}`, row.id);
      const base = key.replace(GENERIC_DISTRICT_WORDS, "").trim();
      if (base && base !== key) put(stripped, `${row.state}|${base}`, row.id);
      else if (base) put(stripped, `${row.state}|${base}`, row.id);
    }
    return new DistrictMatcher(exact, stripped);
  }

  /** The district's id, or null when the name names no single district of that state. */
  match(name: string, state: string): string | null {
    const key = districtKey(name);
    const direct = this.exact.get(`${state}|${key}`);
    if (direct) return direct;
    if (!looksLikeSchoolDistrict(name)) return null;
    const base = key.replace(GENERIC_DISTRICT_WORDS, "").trim();
    return (base && this.stripped.get(`${state}|${base}`)) || null;
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
    const rows = await q.query<{ id: string; normalized_name: string; state: string | null; ein: string | null; chain_key: string | null; data_source: string }>(
      `SELECT id, normalized_name, state, ein, chain_key, data_source FROM operators WHERE merged_into_id IS NULL ORDER BY created_at, id`,
    );
    for (const row of rows) {
      registry.remember(row.normalized_name, row.state, { id: row.id, ein: row.ein, chainKey: row.chain_key, dataSource: row.data_source });
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
  async ensure(q: Queryable, upserter: Upserter, candidates: readonly OperatorCandidate[]): Promise<{ ids: Map<string, string>; counts: TableCounts }> {
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
        for (const r of await q.query<{ id: string; slug: string }>(`SELECT id, slug FROM operators WHERE slug = ANY($1::text[])`, [missing])) {
          bySlug.set(r.slug, r.id);
        }
      }
      for (const [key, row] of fresh) {
        const id = bySlug.get(row.slug as string)!;
        ids.set(key, id);
        const [normalized, state] = key.split("|");
        this.remember(normalized!, state || null, { id, ein: null, chainKey: (row.chain_key as string | null) ?? null, dataSource: row.data_source as string });
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
