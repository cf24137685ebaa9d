/**
 * POST /semantic-search (spec "POST /semantic-search", contract sections 2 and 5; docs/semantic-search.md).
 *
 * 1. The input is checked first (400 naming the parameter): nothing is charged on a 4xx.
 * 2. Hybrid retrieval, hand-written statements (search queries): trigram matches of names and places and
 *    full-text matches of extracted and news text in one (run while the query's vector is computed), then vector
 *    similarity over the active model's vectors (pgvector HNSW where the extension exists; otherwise the candidates
 *    of the in-process exact scan, vector-scan.ts, read by id) and the fusion of all three by reciprocal rank fusion,
 *    plus boosts from the hints the query carries (query-hints.ts), in another. The filters (`state`, `district_id`, `school_id`, a state named
 *    in the query) are applied inside each retrieval, so a filtered page is never short while matches exist.
 *    Gated text (pain points, bids, funding) is matched and shown only for records the caller unlocked.
 * 3. One credit is charged through the ledger, in one transaction under the organization's lock (402
 *    insufficient_credits with balance and required when none is available; no pre-check before the search).
 * 4. The records are read by the catalogue's own loaders: gated fields, `_access` and the contacts' listing rule
 *    are the lists' (src/features/account/access, contact.service.ts LISTED), never a second copy.
 */
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { logger } from "../../../logger";
import { SqlParams } from "../../../db/sql";
import { MONEY_TX } from "../../../db/transaction";
import { BadRequestError } from "../../../graphql/errors";
import type { Commit } from "../../../graphql/request-budget";
import type { Loaders } from "../../../graphql/loader-groups";
import { unlockedSql, type GatedRow } from "../../account/access/access.service";
import type { AccessSummary } from "../../account/access/access.type";
import type { Viewer } from "../../account/auth/viewer";
import { charge, lockOrganization, requireAvailable } from "../../account/credits/credits.service";
import { SEMANTIC_SEARCH_COST } from "../../account/credits/pricing";
import { LISTED as CONTACT_LISTED, WITH_PARENT_SQL as CONTACT_WITH_PARENT } from "../../catalogue/contacts/contact.service";
import { checkState } from "../../kits/common/list-kit";
import { embeddingProvider, type EmbeddingProvider } from "./embeddings.provider";
import { parseQueryHints, type QueryHints } from "./query-hints";
import { GATED_SOURCES, TEXT_SOURCES } from "./semantic-search.indexer";
import { SEMANTIC_SEARCH_LIMITS, SemanticSearchEntityType, type SemanticSearchInput } from "./semantic-search.inputs";
import type { SemanticMatch, SemanticSearchResult } from "./semantic-search.type";
import { hnswDistanceSql, vectorCandidates, vectorRowsSql, type VectorCandidates } from "./vector-index";
import { warmVectorScan } from "./vector-scan";

/** Reciprocal rank fusion's constant (Cormack et al. 2009): a rank r contributes 1 / (RRF_K + r). */
const RRF_K = 60;
/**
 * Weight of the vector retrieval in the fusion (names and passages weigh 1): the small offline model ranks many
 * similar profiles close together, so a record a name or passage match found must not drop behind them (tuned on
 * the dev split of bench/relevance: news queries' recall@10 fell below lexical at weight 1).
 */
const VECTOR_WEIGHT = 0.5;
/** A hint the record matches adds about half of a first rank in one retrieval. */
const HINT_BOOST = 0.008;
/** Passages shown per record. */
const MATCHES_PER_RECORD = 3;

/** Each entity type's table (alias `x`, or `c` with its parents for contacts) and the columns the search reads. */
interface EntitySql {
  from: string;
  id: string;
  state: string;
  district: string | null;
  school: string | null;
  /** The tables whose rows decide which records exist and are listed (their `last_updated_at` moves the coverage's fingerprint). */
  tables: string[];
  /** What names and places are matched against (trigram word similarity). */
  name: string;
  city: string;
  county: string;
  locale: string;
  students: string;
  large: number;
  small: number;
  listed: string | null;
  grade: ((band: string, p: SqlParams) => string) | null;
  poverty: string | null;
}

const ENTITY: Record<SemanticSearchEntityType, EntitySql> = {
  district: {
    from: "districts x",
    id: "x.id",
    state: "x.state",
    district: null,
    school: null,
    tables: ["districts"],
    name: "x.name",
    city: "x.physical_city",
    county: "x.county",
    locale: "x.locale_type",
    students: "x.student_count",
    large: 10_000,
    small: 1_000,
    listed: null,
    grade: null,
    poverty: `(SELECT st.school_age_poverty_pct FROM district_annual_stats st WHERE st.district_id = x.id
                AND st.school_age_poverty_pct IS NOT NULL ORDER BY st.school_year_start DESC LIMIT 1) >= 20`,
  },
  school: {
    from: "schools x",
    id: "x.id",
    state: "x.state",
    district: "x.district_id",
    school: null,
    tables: ["schools"],
    name: "x.name",
    city: "x.physical_city",
    county: "x.county",
    locale: "x.locale_type",
    students: "x.student_count",
    large: 1_000,
    small: 300,
    listed: null,
    grade: (band, p) => `${p.add(band)} = ANY(x.grade_buckets)`,
    poverty: null,
  },
  contact: {
    // The listing rule's parents (ps, pd) plus the contact's district for size and place (cd).
    from: `${CONTACT_WITH_PARENT} LEFT JOIN districts cd ON cd.id = coalesce(c.district_id, ps.district_id)`,
    id: "c.id",
    state: "coalesce(c.state, ps.state, pd.state)",
    district: "coalesce(c.district_id, ps.district_id)",
    school: "c.school_id",
    tables: ["contacts", "schools", "districts"],
    // The person, the role and the employer: "San Diego Unified superintendent" names all three.
    name: "(c.name || ' ' || coalesce(c.title, '') || ' ' || coalesce(ps.name, '') || ' ' || coalesce(cd.name, ''))",
    city: "coalesce(ps.physical_city, cd.physical_city)",
    county: "coalesce(ps.county, cd.county)",
    locale: "coalesce(ps.locale_type, cd.locale_type)",
    students: "cd.student_count",
    large: 10_000,
    small: 1_000,
    listed: CONTACT_LISTED,
    grade: null,
    poverty: null,
  },
};

export interface Filters {
  state: string | null;
  districtId: string | null;
  schoolId: string | null;
}

/** Checks the input (400 naming the parameter), before anything is read or charged. */
function checkInput(input: SemanticSearchInput): { query: string; limit: number; filters: Filters } {
  const query = (input.query ?? "").trim();
  if (query.length < SEMANTIC_SEARCH_LIMITS.minQuery)
    throw new BadRequestError(`query must be at least ${SEMANTIC_SEARCH_LIMITS.minQuery} characters`);
  if (query.length > SEMANTIC_SEARCH_LIMITS.maxQuery)
    throw new BadRequestError(`query must be at most ${SEMANTIC_SEARCH_LIMITS.maxQuery} characters`);
  const limit = input.limit ?? SEMANTIC_SEARCH_LIMITS.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEMANTIC_SEARCH_LIMITS.maxLimit)
    throw new BadRequestError(`limit must be an integer from 1 to ${SEMANTIC_SEARCH_LIMITS.maxLimit}, got ${limit}`);
  const type = input.entityType;
  if (input.districtId != null && type === SemanticSearchEntityType.district)
    throw new BadRequestError("district_id filters schools and contacts, not districts");
  if (input.schoolId != null && type !== SemanticSearchEntityType.contact) throw new BadRequestError("school_id filters contacts only");
  const state = input.state != null ? checkState(input.state) : null;
  return { query, limit, filters: { state, districtId: input.districtId ?? null, schoolId: input.schoolId ?? null } };
}

/** Words of the query as an OR full-text query (any word may match; ts_rank orders by how many and how often). */
const orTsQuery = (query: string): string =>
  query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1)
    .slice(0, 30)
    .join(" | ");

/** Lower-cased runs of 1-3 words of the lexical query: candidates for a city or county name ("dallas county"). */
function cityCandidates(lexical: string): string[] {
  const words = lexical
    .toLowerCase()
    .split(/[^a-z.'-]+/)
    .filter(Boolean);
  const out = new Set<string>();
  for (let n = 1; n <= 3; n++) for (let i = 0; i + n <= words.length; i++) out.add(words.slice(i, i + n).join(" "));
  return [...out].filter((run) => run.length >= 3).slice(0, 60);
}

/** A regular expression matching exactly one of `runs`, whole (in any case with `~*`). */
function anyOfRegex(runs: readonly string[]): string {
  return `^(?:${runs.map((run) => run.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

/** A row of the search statement: one per record found (one without an id when none), coverage on each. */
interface StatementRow {
  entity_id: string | null;
  score: number | null;
  matches: SemanticMatch[] | null;
  /** Null when the statement skipped the counts (the cached figures are current). */
  embedded: number | null;
  total: number | null;
  fingerprint: string;
}

export interface SearchRow {
  entity_id: string | null;
  score: number | null;
  matches: SemanticMatch[] | null;
  embedded: number;
  total: number;
}

/**
 * `coverage` counts every record of the type (and filters): O(records) a search, 0.1-0.3 s at 100,000 on PGlite. So each
 * process keeps the last counts per (model, type, filters) with a fingerprint (the newest `updated_at` of the vectors and
 * `last_updated_at` of the records' tables, two index probes a search); the statement counts again only when it moved, or
 * after COVERAGE_TTL_MS (what the fingerprint misses: deletions, edits that leave last_updated_at alone).
 */
const COVERAGE_TTL_MS = 60_000;
const COVERAGE_KEYS = 1_000;
interface CachedCoverage {
  embedded: number;
  total: number;
  fingerprint: string;
  at: number;
}
/** Keyed by the database's driver: a request's Db is a wrapper with its own time budget (src/graphql/request-budget.ts). */
const coverageCache = new WeakMap<object, Map<string, CachedCoverage>>();

/** Candidates per retrieval: enough that the entity filters (the listing rule) after fusion leave a full page. */
const candidatesPerRetrieval = (limit: number): number => Math.min(Math.max(limit * 4, 100), 2_000);

/** The filters that apply to the vectors of `type` (a district's vectors carry its own id as district_id: not a filter). */
function vectorFilters(type: SemanticSearchEntityType, filters: Filters): Filters {
  const entity = ENTITY[type];
  return {
    state: filters.state,
    districtId: entity.district ? filters.districtId : null,
    schoolId: entity.school ? filters.schoolId : null,
  };
}

/** The filters of one statement: over the vectors' own columns (inside each retrieval of `embeddings`) and over the entity. */
function filterSql(
  p: SqlParams,
  type: SemanticSearchEntityType,
  model: string,
  dimension: number,
  filters: Filters,
): { modelWhere: string; vectorWhere: string; entityWhere: string } {
  const entity = ENTITY[type];
  const modelWhere = vectorRowsSql(model, type, dimension);
  const onVectors = [modelWhere];
  const onEntity: string[] = [];
  if (filters.state) {
    const s = p.add(filters.state);
    onVectors.push(`e.state = ${s}`);
    onEntity.push(`${entity.state} = ${s}`);
  }
  if (filters.districtId && entity.district) {
    const d = p.add(filters.districtId);
    onVectors.push(`e.district_id = ${d}::uuid`);
    onEntity.push(`${entity.district} = ${d}::uuid`);
  }
  if (filters.schoolId && entity.school) {
    const s = p.add(filters.schoolId);
    onVectors.push(`e.school_id = ${s}::uuid`);
    onEntity.push(`${entity.school} = ${s}::uuid`);
  }
  if (entity.listed) onEntity.push(entity.listed);
  return { modelWhere, vectorWhere: onVectors.join(" AND "), entityWhere: onEntity.length ? onEntity.join(" AND ") : "true" };
}

/** Gated passages (pain points, bids, funding) only of records the organization unlocked (`e`: the embeddings row). */
const gatedSql = (p: SqlParams, organizationId: string): string =>
  `(e.source_type <> ALL(${p.add([...GATED_SOURCES])}::text[]) OR EXISTS (SELECT 1 FROM unlocks gu
      WHERE gu.organization_id = ${p.add(organizationId)}::uuid AND gu.entity_type = e.entity_type AND gu.entity_id = e.entity_id
        AND ${unlockedSql("gu")}))`;

/** What the lexical retrievals found: names and places (record, similarity), passages by full text (row id, rank). */
export interface LexicalHits {
  names: { entityIds: string[]; sims: number[] };
  passages: { ids: string[]; ranks: number[] };
}

const NO_LEXICAL_HITS: LexicalHits = { names: { entityIds: [], sims: [] }, passages: { ids: [], ranks: [] } };

/**
 * The lexical retrievals' statement (hand-written: a search query). It needs no query vector, so it runs while the
 * vector is computed (rankEntities); the fusing statement reads its hits back as parameters. Null when the query
 * has nothing to match lexically.
 */
function lexicalSql(
  organizationId: string,
  type: SemanticSearchEntityType,
  model: string,
  dimension: number,
  lexical: string,
  filters: Filters,
  limit: number,
): { sql: string; values: unknown[] } | null {
  const tsq = orTsQuery(lexical);
  if (!lexical && !tsq) return null;
  const entity = ENTITY[type];
  const p = new SqlParams();
  const { vectorWhere, entityWhere } = filterSql(p, type, model, dimension, filters);
  const k = String(candidatesPerRetrieval(limit)); // an integer of the code: inlined
  // A record whose city or county is a 1-3 word run of the query ("dallas county"): a case-insensitive equality with
  // any run, as one anchored regular expression the trigram indexes serve (runs under 3 letters have no trigram: left
  // out). `ILIKE ANY(runs)` matched the same rows, but rechecked every candidate row against every run: a nine-word
  // query's 24 runs took 15 ms over the 1,530 rows its trigrams named at 100,000 districts.
  const runs = cityCandidates(lexical);
  const regex = runs.length ? p.add(anyOfRegex(runs)) : null;
  const places = regex ? `(${entity.city} ~* ${regex} OR ${entity.county} ~* ${regex})` : "false";
  // Two index-served matches (names by trigram word similarity, places by the expression), a record's best of both.
  const lexName = lexical
    ? `SELECT entity_id, max(sim) AS sim FROM (
         SELECT ${entity.id} AS entity_id, word_similarity(${p.add(lexical)}, ${entity.name}) AS sim
           FROM ${entity.from} WHERE ${p.add(lexical)} <% ${entity.name} AND ${entityWhere}
         UNION ALL
         SELECT ${entity.id}, 0.8::real FROM ${entity.from} WHERE ${places} AND ${entityWhere}) names
        GROUP BY entity_id ORDER BY sim DESC, entity_id LIMIT ${k}`
    : `SELECT NULL::uuid AS entity_id, 0::real AS sim WHERE false`;
  const lexText = tsq
    ? `SELECT e.id, e.entity_id, ts_rank(to_tsvector('english', e.content), to_tsquery('english', ${p.add(tsq)})) AS rank
         FROM embeddings e
        WHERE ${vectorWhere} AND e.source_type = ANY(${p.add([...TEXT_SOURCES])}::text[]) AND ${gatedSql(p, organizationId)}
          AND to_tsvector('english', e.content) @@ to_tsquery('english', ${p.add(tsq)})
        ORDER BY rank DESC, e.id LIMIT ${k}`
    : `SELECT NULL::uuid AS id, NULL::uuid AS entity_id, 0::real AS rank WHERE false`;
  // Each retrieval's hits as two arrays aggregated in one pass, so element i of both is one hit (the fusing
  // statement ranks them itself: their order here is free).
  const sql = `SELECT n.ids AS name_ids, n.sims AS name_sims, x.ids AS text_ids, x.ranks AS text_ranks
      FROM (SELECT coalesce(array_agg(entity_id), '{}') AS ids, coalesce(array_agg(sim), '{}') AS sims FROM (${lexName}) lex_name) n,
           (SELECT coalesce(array_agg(id), '{}') AS ids, coalesce(array_agg(rank), '{}') AS ranks FROM (${lexText}) lex_text) x`;
  return { sql, values: p.values };
}

async function lexicalHits(db: Db, statement: { sql: string; values: unknown[] } | null): Promise<LexicalHits> {
  if (!statement) return NO_LEXICAL_HITS;
  const [row] = await db.query<{ name_ids: string[]; name_sims: number[]; text_ids: string[]; text_ranks: number[] }>(
    statement.sql,
    statement.values,
  );
  return { names: { entityIds: row!.name_ids, sims: row!.name_sims }, passages: { ids: row!.text_ids, ranks: row!.text_ranks } };
}

/**
 * The fusing statement. Hand-written: a search query fusing three retrievals in one statement (see the file's
 * header); the lexical ones' hits come from lexicalSql, read back by id.
 */
function searchSql(
  organizationId: string,
  type: SemanticSearchEntityType,
  model: string,
  vector: number[],
  candidates: VectorCandidates | null,
  lexical: LexicalHits,
  hints: QueryHints,
  filters: Filters,
  limit: number,
  cached: CachedCoverage | null,
): { sql: string; values: unknown[] } {
  const entity = ENTITY[type];
  const p = new SqlParams();
  const t = p.add(type);
  const { modelWhere, vectorWhere, entityWhere } = filterSql(p, type, model, vector.length, filters);
  const gated = () => gatedSql(p, organizationId);
  const k = String(candidatesPerRetrieval(limit)); // an integer of the code: inlined, used by some modes only
  const lexName = `SELECT entity_id, sim FROM unnest(${p.add(lexical.names.entityIds)}::uuid[], ${p.add(lexical.names.sims)}::real[]) AS l(entity_id, sim)`;
  const lexText = `SELECT e.entity_id, e.source_type, e.source_id, e.content, e.url, l.rank
         FROM unnest(${p.add(lexical.passages.ids)}::uuid[], ${p.add(lexical.passages.ranks)}::real[]) AS l(id, rank)
         JOIN embeddings e ON e.id = l.id`;
  const boosts: string[] = [];
  if (hints.locale) boosts.push(`CASE WHEN ${entity.locale} LIKE ${p.add(`${hints.locale}%`)} THEN ${HINT_BOOST}::float8 ELSE 0 END`);
  if (hints.size === "large") boosts.push(`CASE WHEN ${entity.students} >= ${entity.large} THEN ${HINT_BOOST}::float8 ELSE 0 END`);
  if (hints.size === "small") boosts.push(`CASE WHEN ${entity.students} < ${entity.small} THEN ${HINT_BOOST}::float8 ELSE 0 END`);
  if (hints.grade && entity.grade) boosts.push(`CASE WHEN ${entity.grade(hints.grade, p)} THEN ${HINT_BOOST}::float8 ELSE 0 END`);
  if (hints.highPoverty && entity.poverty) boosts.push(`CASE WHEN ${entity.poverty} THEN ${HINT_BOOST}::float8 ELSE 0 END`);
  const passage = "e.entity_id, e.source_type, e.source_id, e.content, e.url";
  let vec: string;
  if (candidates === null)
    vec = `SELECT NULL::uuid AS entity_id, NULL AS source_type, NULL AS source_id, NULL AS content, NULL AS url, 0::float8 AS distance WHERE false`;
  else if (candidates.kind === "hnsw") {
    const d = hnswDistanceSql(vector.length, p.add(`{${vector.join(",")}}`));
    vec = `SELECT ${passage}, ${d} AS distance FROM embeddings e
       WHERE ${vectorWhere} AND ${gated()}
       ORDER BY ${d} LIMIT ${k}`;
  } else
    // The in-process scan's candidates (filtered by the same columns), read by id; the statement re-applies the filters and gating.
    vec = `SELECT ${passage}, c.distance FROM unnest(${p.add(candidates.ids)}::uuid[], ${p.add(candidates.distances)}::float8[]) AS c(id, distance)
        JOIN embeddings e ON e.id = c.id
       WHERE ${vectorWhere} AND ${gated()}
       ORDER BY c.distance, e.id LIMIT ${k}`;
  // Coverage: recomputed only when the fingerprint moved (or the cached figure is older than COVERAGE_TTL_MS).
  const coverageSql =
    entity.listed === null
      ? // Districts and schools: the filters are the vectors' own columns too, so two index counts, no join.
        `SELECT least((SELECT count(*) FROM embeddings e WHERE ${vectorWhere} AND e.source_type = 'profile'
                        AND e.source_id = 'profile'), count(*))::int AS embedded, count(*)::int AS total
           FROM ${entity.from} WHERE ${entityWhere}`
      : // Contacts: the listing rule decides which count, so a join on the profile's whole unique key.
        `SELECT count(e.entity_id)::int AS embedded, count(*)::int AS total
           FROM ${entity.from}
           LEFT JOIN embeddings e ON e.entity_type = ${t} AND e.entity_id = ${entity.id} AND e.source_type = 'profile'
            AND e.source_id = 'profile' AND ${modelWhere}
          WHERE ${entityWhere}`;
  const fingerprint = `concat_ws('/', (SELECT max(e.updated_at) FROM embeddings e WHERE ${modelWhere}),
      ${entity.tables.map((table) => `(SELECT max(last_updated_at) FROM ${table})`).join(", ")})`;
  const cachedFingerprint = cached ? p.add(cached.fingerprint) : null;
  const weight = (w: number) => `${w}::float8`;
  const sql = `WITH vec AS MATERIALIZED (${vec}),
    lex_name AS MATERIALIZED (${lexName}),
    lex_text AS MATERIALIZED (${lexText}),
    -- Reciprocal rank fusion: each retrieval's rank of the record (vectors and passages: its best passage).
    fused AS (
      SELECT entity_id, sum(w) AS rrf, max(sim) AS sim FROM (
        SELECT entity_id, ${weight(VECTOR_WEIGHT)} / (${RRF_K} + row_number() OVER (ORDER BY min(distance), entity_id)) AS w, 0::real AS sim
          FROM vec GROUP BY entity_id
        UNION ALL
        SELECT entity_id, ${weight(1)} / (${RRF_K} + row_number() OVER (ORDER BY sim DESC, entity_id)), sim FROM lex_name
        UNION ALL
        SELECT entity_id, ${weight(1)} / (${RRF_K} + row_number() OVER (ORDER BY max(rank) DESC, entity_id)), 0::real
          FROM lex_text GROUP BY entity_id) retrievals
      GROUP BY entity_id),
    ranked AS MATERIALIZED (
      SELECT f.entity_id, f.rrf + f.sim * ${HINT_BOOST}::float8 ${boosts.map((b) => `+ ${b}`).join(" ")} AS score
        FROM fused f JOIN ${entity.from} ON ${entity.id} = f.entity_id
       WHERE ${entityWhere}
       ORDER BY score DESC, f.entity_id LIMIT ${p.add(limit)}),
    -- The passages shown: each record's best MATCHES_PER_RECORD of its vector and text hits and its profile, one per source.
    passages AS (
      SELECT DISTINCT ON (entity_id, source_type, source_id) * FROM (
        SELECT v.entity_id, v.content, v.source_type, v.source_id, v.url, v.distance AS o FROM vec v JOIN ranked USING (entity_id)
        UNION ALL SELECT l.entity_id, l.content, l.source_type, l.source_id, l.url, 2 - l.rank FROM lex_text l JOIN ranked USING (entity_id)
        UNION ALL SELECT e.entity_id, e.content, e.source_type, e.source_id, e.url, 3 FROM ranked
          JOIN embeddings e ON e.entity_type = ${t} AND e.entity_id = ranked.entity_id AND e.source_type = 'profile'
           AND e.source_id = 'profile' AND ${modelWhere}) all_matches
      ORDER BY entity_id, source_type, source_id, o),
    matches AS (
      SELECT entity_id, json_agg(json_build_object('content', content, 'source_type', source_type, 'url', url, 'source_id', source_id)
                                 ORDER BY o) AS matches
        FROM (SELECT *, row_number() OVER (PARTITION BY entity_id ORDER BY o) AS n FROM passages) numbered
       WHERE n <= ${MATCHES_PER_RECORD} GROUP BY entity_id),
    fingerprint AS MATERIALIZED (SELECT ${fingerprint} AS fingerprint),
    -- Skipped (no row) while the fingerprint is the cached one's: a one-time filter above the counts.
    coverage AS MATERIALIZED (SELECT * FROM (${coverageSql}) counts
      ${cachedFingerprint ? `WHERE (SELECT fingerprint FROM fingerprint) IS DISTINCT FROM ${cachedFingerprint}` : ""})
    SELECT ranked.entity_id, ranked.score, matches.matches, coverage.embedded, coverage.total, fingerprint.fingerprint
      FROM fingerprint LEFT JOIN coverage ON true LEFT JOIN ranked ON true LEFT JOIN matches USING (entity_id)
     ORDER BY ranked.score DESC NULLS LAST, ranked.entity_id`;
  return { sql, values: p.values };
}

/** The dimension of each model's vectors as last embedded in this process (the lexical statement filters by it). */
const dimensions = new Map<string, number>();

/** Which retrievals are fused: all (the service), or one alone (bench/semantic.ts compares them). Hints apply in each. */
export type RetrievalMode = "hybrid" | "lexical" | "vector";

export interface RankRequest {
  query: string;
  entityType: SemanticSearchEntityType;
  filters: Filters;
  limit: number;
}

/** The ranked entity ids with their scores, matches and the coverage (on every row; one row without an id when none). */
export async function rankEntities(
  db: Db,
  organizationId: string,
  provider: EmbeddingProvider,
  request: RankRequest,
  mode: RetrievalMode = "hybrid",
): Promise<SearchRow[]> {
  const parsed = parseQueryHints(request.query);
  const hints = mode === "vector" ? { ...parsed, lexical: "" } : parsed;
  // A state named in the query narrows like the filter, unless the caller gave one.
  const filters = { ...request.filters, state: request.filters.state ?? hints.state };
  // The lexical retrievals need no vector: their statement runs while the provider computes it (the offline model
  // in its worker thread, a remote endpoint over the network). It filters by the vectors' dimension, known once a
  // vector of the model was seen; a first search of a process, or one whose dimension changed, reads them after.
  const embedding = provider.embed([request.query]);
  embedding.catch(() => undefined); // awaited below; not an unhandled rejection while the statement runs
  const lexical = (dimension: number) =>
    lexicalHits(db, lexicalSql(organizationId, request.entityType, provider.model, dimension, hints.lexical, filters, request.limit));
  const expected = dimensions.get(provider.model);
  const early = expected === undefined ? null : lexical(expected);
  early?.catch(() => undefined); // awaited below, or dropped when the dimension changed
  const [vector] = await embedding;
  dimensions.set(provider.model, vector!.length);
  // The vector retrieval before the lexical hits are awaited: on PostgreSQL the in-process scan computes while the
  // server runs the lexical statement (on embedded both take the one thread in the same order as before).
  const candidates =
    mode === "lexical"
      ? null
      : await vectorCandidates(db, {
          model: provider.model,
          entityType: request.entityType,
          vector: vector!,
          filters: vectorFilters(request.entityType, filters),
          k: candidatesPerRetrieval(request.limit),
          gatedSources: GATED_SOURCES,
        });
  const lexicalFound = early !== null && expected === vector!.length ? await early : await lexical(vector!.length);
  const cache = coverageCache.get(db.driver) ?? new Map<string, CachedCoverage>();
  coverageCache.set(db.driver, cache);
  const key = JSON.stringify([provider.model, request.entityType, filters.state, filters.districtId, filters.schoolId]);
  const hit = cache.get(key);
  const cached = hit && Date.now() - hit.at < COVERAGE_TTL_MS ? hit : null;
  const { sql, values } = searchSql(
    organizationId,
    request.entityType,
    provider.model,
    vector!,
    candidates,
    lexicalFound,
    hints,
    filters,
    request.limit,
    cached,
  );
  // Planned once on embedded (QueryOptions): planning this statement took longer than running it (2.6 ms a search).
  const rows = await db.query<StatementRow>(sql, values, { plan: "generic" });
  const first = rows[0]!;
  let coverage = cached;
  if (first.embedded !== null && first.total !== null) {
    coverage = { embedded: first.embedded, total: first.total, fingerprint: first.fingerprint, at: Date.now() };
    cache.delete(key);
    cache.set(key, coverage);
    if (cache.size > COVERAGE_KEYS) cache.delete(cache.keys().next().value!);
  }
  return rows.map((r) => ({
    entity_id: r.entity_id,
    score: r.score,
    matches: r.matches,
    embedded: coverage!.embedded,
    total: coverage!.total,
  }));
}

type SearchedRecord = GatedRow & { status?: string; enrichment_status?: string };

/** `_access_summary` over the results, from the records as served (their `_access`): contract section 4's counts. */
function accessSummary(records: readonly SearchedRecord[], type: SemanticSearchEntityType): AccessSummary {
  const summary: AccessSummary = {
    total_results: records.length,
    unlocked: 0,
    locked_processed: 0,
    locked_unprocessed: 0,
    unlock_all_cost: 0,
  };
  for (const r of records) {
    if (r._access.is_unlocked) {
      summary.unlocked++;
      continue;
    }
    // Processed: an unlock would be instant (districts and schools extracted, contacts enriched), as on the lists.
    const processed = type === SemanticSearchEntityType.contact ? r.enrichment_status === "completed" : r.status === "completed";
    if (processed) summary.locked_processed++;
    else summary.locked_unprocessed++;
    summary.unlock_all_cost += r._access.unlock_cost;
  }
  return summary;
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

export async function semanticSearch(
  db: Db,
  env: Env,
  viewer: Viewer,
  loaders: Loaders,
  input: SemanticSearchInput,
  commit: Commit = (work) => work(),
): Promise<SemanticSearchResult> {
  const { query, limit, filters } = checkInput(input);
  const type = input.entityType;
  const org = viewer.organizationId;
  // No credit pre-check (two statements a search): the charge's transaction below decides, and a caller without a
  // credit gets its 402 there, charged nothing, after a search that costs it nothing.
  const rows = await rankEntities(db, org, embeddingProvider(env), { query, entityType: type, filters, limit });
  const hits = rows.filter((r): r is SearchRow & { entity_id: string; score: number } => r.entity_id !== null);
  const ids = hits.map((r) => r.entity_id);
  const loaded = await (type === SemanticSearchEntityType.district
    ? loaders.districts.byId.loadMany(ids)
    : type === SemanticSearchEntityType.school
      ? loaders.schools.byId.loadMany(ids)
      : loaders.contacts.byId.loadMany(ids));
  const records = loaded.filter((r): r is NonNullable<typeof r> & SearchedRecord => r !== null && !(r instanceof Error));
  // The charge is the search's last statement, as a write the request answers with (request-budget.ts `Commit`): a
  // search that runs out of its time budget before it is charged costs nothing, and one charged is answered.
  await commit(() =>
    db.prisma.$transaction(async (tx) => {
      const balance = await lockOrganization(tx, org);
      await requireAvailable(tx, org, SEMANTIC_SEARCH_COST, balance);
      await charge(tx, org, SEMANTIC_SEARCH_COST, { note: `semantic search (${type})` });
    }, MONEY_TX),
  );
  const served = new Set(records.map((r) => r.id));
  const top = hits[0]?.score || 1;
  const relevance: Record<string, number> = {};
  const matches: Record<string, SemanticMatch[]> = {};
  for (const hit of hits)
    if (served.has(hit.entity_id)) {
      relevance[hit.entity_id] = round(hit.score / top);
      matches[hit.entity_id] = hit.matches ?? [];
    }
  const coverage = { embedded: rows[0]?.embedded ?? 0, total: rows[0]?.total ?? 0 };
  return {
    entity_type: type,
    districts: type === SemanticSearchEntityType.district ? (records as never) : null,
    schools: type === SemanticSearchEntityType.school ? (records as never) : null,
    contacts: type === SemanticSearchEntityType.contact ? (records as never) : null,
    relevance,
    matches,
    coverage,
    _access_summary: accessSummary(records, type),
  };
}

/**
 * Loads the in-process vectors (vector-scan.ts) at a process start, in the background: every search without
 * pgvector and every filtered search uses them, and the first would otherwise wait for the load (100,000 vectors:
 * seconds; 78 s on a loaded machine). A load cut by a shutdown is not an error.
 */
export function warmSemanticSearch(db: Db, env: Env): void {
  const started = Date.now();
  warmVectorScan(db, embeddingProvider(env).model, Object.values(SemanticSearchEntityType), GATED_SOURCES).then(
    (vectors) => {
      if (vectors) logger.info("semantic search vectors loaded", { vectors, load_ms: Date.now() - started });
    },
    (error: unknown) =>
      logger.debug("semantic search vectors not loaded", { error: error instanceof Error ? error.message : String(error) }),
  );
}
