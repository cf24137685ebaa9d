/**
 * POST /semantic-search (spec "POST /semantic-search", contract sections 2 and 5; docs/semantic-search.md).
 *
 * 1. The input is checked first (400 naming the parameter): nothing is charged on a 4xx.
 * 2. Hybrid retrieval, one hand-written statement (a search query): vector similarity over the active model's
 *    vectors (pgvector HNSW where the extension exists, exact cosine otherwise), trigram matches of names and
 *    places, and full-text matches of extracted and news text, fused by reciprocal rank fusion, plus boosts from
 *    the hints the query carries (query-hints.ts). The filters (`state`, `district_id`, `school_id`, a state named
 *    in the query) are applied inside each retrieval, so a filtered page is never short while matches exist.
 *    Gated text (pain points, bids, funding) is matched and shown only for records the caller unlocked.
 * 3. One credit is charged through the ledger, in one transaction under the organization's lock (402
 *    insufficient_credits with balance and required when none is available).
 * 4. The records are read by the catalogue's own loaders: gated fields, `_access` and the contacts' listing rule
 *    are the lists' (src/features/account/access, contact.service.ts LISTED), never a second copy.
 */
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { MONEY_TX } from "../../../db/transaction";
import { BadRequestError } from "../../../graphql/errors";
import type { Commit } from "../../../graphql/request-budget";
import type { Loaders } from "../../../graphql/loader-groups";
import { unlockedSql, type GatedRow } from "../../account/access/access.service";
import type { AccessSummary } from "../../account/access/access.type";
import type { Viewer } from "../../account/auth/viewer";
import { charge, creditSummary, InsufficientCreditsError, lockOrganization, requireAvailable } from "../../account/credits/credits.service";
import { SEMANTIC_SEARCH_COST } from "../../account/credits/pricing";
import { LISTED as CONTACT_LISTED, WITH_PARENT_SQL as CONTACT_WITH_PARENT } from "../../catalogue/contacts/contact.service";
import { checkState } from "../../kits/common/list-kit";
import { embeddingProvider, type EmbeddingProvider } from "./embeddings.provider";
import { parseQueryHints, type QueryHints } from "./query-hints";
import { GATED_SOURCES } from "./semantic-search.indexer";
import { SEMANTIC_SEARCH_LIMITS, SemanticSearchEntityType, type SemanticSearchInput } from "./semantic-search.inputs";
import type { SemanticMatch, SemanticSearchResult } from "./semantic-search.type";
import { vectorDistanceSql, vectorSearchSettings } from "./vector-index";

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
  return [...out].slice(0, 60);
}

export interface SearchRow {
  entity_id: string | null;
  score: number | null;
  matches: SemanticMatch[] | null;
  embedded: number;
  total: number;
}

/** The retrieval statement. Hand-written: a search query fusing three retrievals in one statement (see the file's header). */
function searchSql(
  db: Db,
  organizationId: string,
  type: SemanticSearchEntityType,
  model: string,
  vector: number[],
  hints: QueryHints,
  filters: Filters,
  limit: number,
  mode: RetrievalMode,
): { sql: string; values: unknown[] } {
  const entity = ENTITY[type];
  const p = new SqlParams();
  const t = p.add(type);

  const { where: modelWhere } = vectorDistanceSql(db, model, vector.length, "");
  // Filters over the vectors' own columns (inside the vector scan) and over the entity.
  const onVectors = [modelWhere, `e.entity_type = ${t}`];
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
  // A function: each retrieval that reads text adds its own parameters (a mode without it leaves none unused).
  const gated = () => `(e.source_type <> ALL(${p.add([...GATED_SOURCES])}::text[]) OR EXISTS (SELECT 1 FROM unlocks gu
      WHERE gu.organization_id = ${p.add(organizationId)}::uuid AND gu.entity_type = e.entity_type AND gu.entity_id = e.entity_id
        AND ${unlockedSql("gu")}))`;
  // Candidates per retrieval: enough that the entity filters (the listing rule) after fusion leave a full page.
  const k = String(Math.min(Math.max(limit * 4, 100), 2_000)); // an integer of the code: inlined, used by some modes only
  const entityWhere = onEntity.length ? onEntity.join(" AND ") : "true";
  const lexical = mode === "vector" ? "" : hints.lexical;
  const tsq = orTsQuery(lexical);
  const places = (cands: string) => `(lower(${entity.city}) = ANY(${cands}::text[]) OR lower(${entity.county}) = ANY(${cands}::text[]))`;
  const lexName = lexical
    ? `SELECT ${entity.id} AS entity_id, greatest(word_similarity(${p.add(lexical)}, ${entity.name}),
              CASE WHEN ${places(p.add(cityCandidates(lexical)))} THEN 0.8 ELSE 0 END) AS sim
         FROM ${entity.from}
        WHERE (${p.add(lexical)} <% ${entity.name} OR ${places(p.add(cityCandidates(lexical)))})
          AND ${entityWhere}
        ORDER BY sim DESC, ${entity.id} LIMIT ${k}`
    : `SELECT NULL::uuid AS entity_id, 0::real AS sim WHERE false`;
  const lexText = tsq
    ? `SELECT e.entity_id, e.source_type, e.source_id, e.content, e.url,
              ts_rank(to_tsvector('english', e.content), to_tsquery('english', ${p.add(tsq)})) AS rank
         FROM embeddings e
        WHERE ${onVectors.join(" AND ")} AND e.source_type <> 'profile' AND ${gated()}
          AND to_tsvector('english', e.content) @@ to_tsquery('english', ${p.add(tsq)})
        ORDER BY rank DESC, e.id LIMIT ${k}`
    : `SELECT NULL::uuid AS entity_id, NULL AS source_type, NULL AS source_id, NULL AS content, NULL AS url, 0::real AS rank WHERE false`;
  const boosts: string[] = [];
  if (hints.locale) boosts.push(`CASE WHEN ${entity.locale} LIKE ${p.add(`${hints.locale}%`)} THEN ${HINT_BOOST} ELSE 0 END`);
  if (hints.size === "large") boosts.push(`CASE WHEN ${entity.students} >= ${entity.large} THEN ${HINT_BOOST} ELSE 0 END`);
  if (hints.size === "small") boosts.push(`CASE WHEN ${entity.students} < ${entity.small} THEN ${HINT_BOOST} ELSE 0 END`);
  if (hints.grade && entity.grade) boosts.push(`CASE WHEN ${entity.grade(hints.grade, p)} THEN ${HINT_BOOST} ELSE 0 END`);
  if (hints.highPoverty && entity.poverty) boosts.push(`CASE WHEN ${entity.poverty} THEN ${HINT_BOOST} ELSE 0 END`);
  const distance = () => vectorDistanceSql(db, model, vector.length, p.add(`{${vector.join(",")}}`)).distance;
  const vectorRetrieval = (d: string) => `SELECT e.entity_id, e.source_type, e.source_id, e.content, e.url, ${d} AS distance
        FROM embeddings e
       WHERE ${onVectors.join(" AND ")} AND ${gated()}
       ORDER BY ${d} LIMIT ${k}`;
  const vec =
    mode === "lexical"
      ? `SELECT NULL::uuid AS entity_id, NULL AS source_type, NULL AS source_id, NULL AS content, NULL AS url, 0::float8 AS distance WHERE false`
      : vectorRetrieval(distance());
  const sql = `WITH vec AS MATERIALIZED (${vec}),
    lex_name AS MATERIALIZED (${lexName}),
    lex_text AS MATERIALIZED (${lexText}),
    vr AS (SELECT entity_id, row_number() OVER (ORDER BY min(distance), entity_id) AS r FROM vec GROUP BY entity_id),
    nr AS (SELECT entity_id, sim, row_number() OVER (ORDER BY sim DESC, entity_id) AS r FROM lex_name),
    tr AS (SELECT entity_id, row_number() OVER (ORDER BY max(rank) DESC, entity_id) AS r FROM lex_text GROUP BY entity_id),
    cand AS (SELECT entity_id FROM vr UNION SELECT entity_id FROM nr UNION SELECT entity_id FROM tr),
    ranked AS MATERIALIZED (
      SELECT cand.entity_id,
             coalesce(${VECTOR_WEIGHT} / (${RRF_K} + vr.r), 0) + coalesce(1.0 / (${RRF_K} + nr.r), 0) + coalesce(1.0 / (${RRF_K} + tr.r), 0)
             + coalesce(nr.sim, 0) * ${HINT_BOOST} ${boosts.map((b) => `+ ${b}`).join(" ")} AS score
        FROM ${entity.from} JOIN cand ON cand.entity_id = ${entity.id}
        LEFT JOIN vr ON vr.entity_id = cand.entity_id LEFT JOIN nr ON nr.entity_id = cand.entity_id
        LEFT JOIN tr ON tr.entity_id = cand.entity_id
       WHERE ${entityWhere}
       ORDER BY score DESC, cand.entity_id LIMIT ${p.add(limit)}),
    coverage AS (
      -- A join on the profile's whole unique key (at most one per record and model): one pass, whatever the statistics say.
      SELECT count(e.entity_id)::int AS embedded, count(*)::int AS total
        FROM ${entity.from}
        LEFT JOIN embeddings e ON e.entity_type = ${t} AND e.entity_id = ${entity.id} AND e.source_type = 'profile'
         AND e.source_id = 'profile' AND ${modelWhere}
       WHERE ${entityWhere})
    SELECT ranked.entity_id, ranked.score::float8 AS score, coverage.embedded, coverage.total,
           (SELECT json_agg(json_build_object('content', m.content, 'source_type', m.source_type, 'url', m.url, 'source_id', m.source_id)
                            ORDER BY m.o)
              FROM (SELECT * FROM (
                      SELECT DISTINCT ON (source_type, source_id) * FROM (
                        SELECT v.content, v.source_type, v.source_id, v.url, v.distance AS o FROM vec v WHERE v.entity_id = ranked.entity_id
                        UNION ALL SELECT l.content, l.source_type, l.source_id, l.url, 2 - l.rank FROM lex_text l WHERE l.entity_id = ranked.entity_id
                        UNION ALL SELECT e.content, e.source_type, e.source_id, e.url, 3 FROM embeddings e
                         WHERE e.entity_type = ${t} AND e.entity_id = ranked.entity_id AND e.source_type = 'profile'
                           AND e.source_id = 'profile' AND ${modelWhere}) all_matches
                      ORDER BY source_type, source_id, o) best
                    ORDER BY o LIMIT ${MATCHES_PER_RECORD}) m) AS matches
      FROM coverage LEFT JOIN ranked ON true
     ORDER BY ranked.score DESC NULLS LAST, ranked.entity_id`;
  return { sql, values: p.values };
}

/** Runs the statement; where pgvector exists, in a transaction that sets its iterative scan (SET LOCAL). */
async function runSearch(db: Db, sql: string, values: unknown[]): Promise<SearchRow[]> {
  const settings = vectorSearchSettings(db);
  if (!settings.length) return db.query<SearchRow>(sql, values);
  return db.transaction(async (tx) => {
    for (const statement of settings) await tx.exec(statement);
    return tx.query<SearchRow>(sql, values);
  });
}

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
  const hints = parseQueryHints(request.query);
  // A state named in the query narrows like the filter, unless the caller gave one.
  const filters = { ...request.filters, state: request.filters.state ?? hints.state };
  const [vector] = await provider.embed([request.query]);
  const { sql, values } = searchSql(db, organizationId, request.entityType, provider.model, vector!, hints, filters, request.limit, mode);
  return runSearch(db, sql, values);
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
  // A caller without a credit is told so before the search does any work (the charge below decides for good).
  const before = await creditSummary(db.prisma, org);
  if (before.available < SEMANTIC_SEARCH_COST) throw new InsufficientCreditsError(before.available, SEMANTIC_SEARCH_COST);
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
      await lockOrganization(tx, org);
      await requireAvailable(tx, org, SEMANTIC_SEARCH_COST);
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
