/**
 * What is embedded, and the background work that embeds it (docs/semantic-search.md, "What is embedded").
 *
 * Sources, in the order the background job works through them (districts and contacts first: they are few and
 * most searched; then schools; then the extracted and news text):
 * - `profile` of every district, school and contact: name, place, type, grades, size, poverty and spending in
 *   words, a school's district, a contact's title and employer;
 * - `timeline_event` (public events the extraction and ingest found: board meetings, bids posted, ...),
 *   `article` (news articles, with every district their signals resolved to or whose site published them);
 * - gated extracted intelligence: `pain_point`, `bid`, `funding` (matched and shown only for records the caller
 *   unlocked: GATED_SOURCES).
 *
 * A source row is embedded when its entity has no vector of the active model, or (profiles) the entity changed
 * since (`last_updated_at` after the vector's `updated_at`) and its text's hash differs. Reads and writes are
 * hand-written: bulk (a batch of candidates in one statement, a batch of vectors in one upsert).
 */
import crypto from "node:crypto";
import type { Db } from "../../../db/client";
import { STATES } from "../news/analysis/geo";
import type { EmbeddingProvider } from "./embeddings.provider";
import { ensureVectorIndex } from "./vector-index";

export type SearchEntityType = "district" | "school" | "contact";

/** Sources whose text is gated intelligence: matched and shown only for records the caller's organization unlocked. */
export const GATED_SOURCES = ["pain_point", "bid", "funding"] as const;

interface SourceRow {
  entity_id: string;
  source_id: string;
  url: string | null;
  state: string | null;
  district_id: string | null;
  school_id: string | null;
  existing_sha: string | null;
  /** Profiles: the entity's last_updated_at (a vector is current once its updated_at reaches it). */
  entity_updated_at?: string | null;
  [field: string]: unknown;
}

interface Source {
  entityType: SearchEntityType;
  sourceType: string;
  /** Rows to embed (at most `$2`) of model `$1`; hand-written: a bulk read. */
  sql: string;
  text(row: SourceRow): string;
}

const stateName = (code: unknown): string => (typeof code === "string" ? (STATES[code]?.name ?? code) : "");
const words = (...parts: unknown[]): string =>
  parts
    .filter((p) => p !== null && p !== undefined && p !== "")
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();

function sizeWords(students: unknown, kind: string): string {
  const n = Number(students);
  if (!students || !Number.isFinite(n)) return "";
  const size = n >= 50_000 ? "very large" : n >= 10_000 ? "large" : n >= 2_500 ? "mid-sized" : n >= 500 ? "small" : "very small";
  return `A ${size} ${kind} with ${Math.round(n).toLocaleString("en-US")} students.`;
}

function povertyWords(pct: unknown, what: string): string {
  const p = Number(pct);
  if (pct === null || pct === undefined || !Number.isFinite(p)) return "";
  const level = p >= 25 ? "high poverty" : p >= 15 ? "moderate poverty" : "low poverty";
  return `${level[0]!.toUpperCase()}${level.slice(1)}: ${p.toFixed(0)}% ${what}.`;
}

function spendingWords(perStudent: unknown): string {
  const n = Number(perStudent);
  if (!perStudent || !Number.isFinite(n)) return "";
  const level = n >= 20_000 ? "high" : n >= 12_000 ? "average" : "low";
  return `Spends $${Math.round(n).toLocaleString("en-US")} per student (${level} spending).`;
}

const grades = (low: unknown, high: unknown): string => (low || high ? `Grades ${low ?? "?"} to ${high ?? "?"}.` : "");
const locale = (value: unknown): string => (typeof value === "string" && value ? `${value.replace(":", ",").toLowerCase()} area` : "");

/** The profile's existing vector (`e`) of model $1 and whether the entity changed since. */
const profileJoin = (type: SearchEntityType, alias: string) =>
  `LEFT JOIN embeddings e ON e.entity_type = '${type}' AND e.entity_id = ${alias}.id AND e.source_type = 'profile'
     AND e.source_id = 'profile' AND e.model = $1
   WHERE (e.id IS NULL OR e.updated_at < ${alias}.last_updated_at)`;

/** Rows of a chunk source (`x`) with no vector of model $1 yet. */
const chunkMissing = (type: string, sourceType: string, entity: string, sourceId: string) =>
  `NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.entity_type = ${type} AND e.entity_id = ${entity}
     AND e.source_type = '${sourceType}' AND e.source_id = ${sourceId} AND e.model = $1)`;

/** Intelligence rows of districts and schools (`x`): the owner, its state and district. */
const ownerColumns = `coalesce(x.school_id, x.district_id) AS entity_id, CASE WHEN x.school_id IS NULL THEN 'district' ELSE 'school' END AS owner_type,
   coalesce(s.state, d.state) AS state, coalesce(x.district_id, s.district_id) AS district_id, x.school_id`;
const ownerJoins = `LEFT JOIN schools s ON s.id = x.school_id LEFT JOIN districts d ON d.id = coalesce(x.district_id, s.district_id)`;

function gatedSource(
  table: string,
  sourceType: string,
  type: SearchEntityType,
  url: string,
  text: (r: SourceRow) => string,
  columns: string,
): Source {
  const owner = type === "school" ? "x.school_id" : "x.district_id";
  return {
    entityType: type,
    sourceType,
    sql: `SELECT ${ownerColumns}, x.id::text AS source_id, ${url} AS url, ${columns}, NULL AS existing_sha
        FROM ${table} x ${ownerJoins}
       WHERE ${owner} IS NOT NULL ${type === "district" ? "AND x.school_id IS NULL" : ""}
         AND ${chunkMissing(`'${type}'`, sourceType, owner, "x.id::text")}
       ORDER BY x.created_at DESC, x.id LIMIT $2`,
    text,
  };
}

export const SOURCES: readonly Source[] = [
  {
    entityType: "district",
    sourceType: "profile",
    sql: `SELECT x.id AS entity_id, 'profile' AS source_id, x.website_url AS url, x.state, x.id AS district_id, NULL::uuid AS school_id,
             x.name, x.physical_city, x.county, x.locale_type, x.grade_low, x.grade_high, x.student_count, x.school_count,
             x.district_type, x.expenditures_per_student,
             (SELECT st.school_age_poverty_pct FROM district_annual_stats st
               WHERE st.district_id = x.id AND st.school_age_poverty_pct IS NOT NULL
               ORDER BY st.school_year_start DESC LIMIT 1) AS poverty_pct,
             e.content_sha256 AS existing_sha, x.last_updated_at::text AS entity_updated_at
        FROM districts x ${profileJoin("district", "x")}
       ORDER BY x.student_count DESC NULLS LAST, x.id LIMIT $2`,
    text: (r) =>
      words(
        `${r.name}: a school district in ${words(r.physical_city)}${r.county ? `, ${r.county}` : ""}, ${stateName(r.state)}.`,
        r.locale_type ? `A ${locale(r.locale_type)} district.` : "",
        r.district_type ? `${r.district_type}.` : "",
        grades(r.grade_low, r.grade_high),
        sizeWords(r.student_count, "district"),
        r.school_count ? `${r.school_count} schools.` : "",
        povertyWords(r.poverty_pct, "of school-age children in poverty"),
        spendingWords(r.expenditures_per_student),
      ),
  },
  {
    entityType: "contact",
    sourceType: "profile",
    sql: `SELECT x.id AS entity_id, 'profile' AS source_id, x.source_url AS url, coalesce(x.state, ps.state, pd.state) AS state,
             coalesce(x.district_id, ps.district_id) AS district_id, x.school_id,
             x.name, x.title, ps.name AS school_name, pd.name AS district_name, pd.student_count AS district_students,
             coalesce(ps.physical_city, pd.physical_city) AS city, e.content_sha256 AS existing_sha, x.last_updated_at::text AS entity_updated_at
        FROM contacts x
        LEFT JOIN schools ps ON ps.id = x.school_id
        LEFT JOIN districts pd ON pd.id = coalesce(x.district_id, ps.district_id)
        ${profileJoin("contact", "x")} AND coalesce(x.school_id, x.district_id) IS NOT NULL
       ORDER BY x.id LIMIT $2`,
    text: (r) =>
      words(
        `${r.name}${r.title ? `, ${r.title}` : ""} at ${r.school_name ? `${r.school_name} (${r.district_name ?? "a school"})` : (r.district_name ?? "a district")},`,
        `${words(r.city)} ${stateName(r.state)}.`,
        sizeWords(r.district_students, "district"),
      ),
  },
  {
    entityType: "school",
    sourceType: "profile",
    sql: `SELECT x.id AS entity_id, 'profile' AS source_id, x.website_url AS url, x.state, x.district_id, x.id AS school_id,
             x.name, x.physical_city, x.county, x.locale_type, x.grade_low, x.grade_high, x.student_count, x.school_type,
             d.name AS district_name,
             (SELECT round(100.0 * st.free_or_reduced_price_lunch_eligible / nullif(st.total_enrollment, 0)) FROM school_annual_stats st
               WHERE st.school_id = x.id AND st.free_or_reduced_price_lunch_eligible IS NOT NULL
               ORDER BY st.school_year_start DESC LIMIT 1) AS poverty_pct,
             e.content_sha256 AS existing_sha, x.last_updated_at::text AS entity_updated_at
        FROM schools x LEFT JOIN districts d ON d.id = x.district_id ${profileJoin("school", "x")}
       ORDER BY x.student_count DESC NULLS LAST, x.id LIMIT $2`,
    text: (r) =>
      words(
        `${r.name}: a ${r.school_type ? `${String(r.school_type).toLowerCase()} ` : ""}school in ${words(r.physical_city)}${r.county ? `, ${r.county}` : ""}, ${stateName(r.state)}.`,
        r.district_name ? `Part of ${r.district_name}.` : "",
        r.locale_type ? `A ${locale(r.locale_type)} school.` : "",
        grades(r.grade_low, r.grade_high),
        sizeWords(r.student_count, "school"),
        povertyWords(r.poverty_pct, "of students eligible for free or reduced-price lunch"),
      ),
  },
  ...(["district", "school"] as const).map((type): Source => ({
    entityType: type,
    sourceType: "timeline_event",
    sql: `SELECT x.entity_id, x.id::text AS source_id, x.source_url AS url,
               coalesce(s.state, d.state) AS state, coalesce(d.id, s.district_id) AS district_id, s.id AS school_id,
               x.title, x.description, x.event_date::text AS event_date, NULL AS existing_sha
          FROM timeline_events x
          LEFT JOIN schools s ON x.entity_type = 'school' AND s.id = x.entity_id
          LEFT JOIN districts d ON x.entity_type = 'district' AND d.id = x.entity_id
         WHERE x.entity_type = '${type}' AND ${chunkMissing(`'${type}'`, "timeline_event", "x.entity_id", "x.id::text")}
         ORDER BY x.event_date DESC, x.id LIMIT $2`,
    text: (r) => words(r.title, r.description ? `: ${r.description}` : "", `(${r.event_date})`),
  })),
  {
    entityType: "district",
    sourceType: "article",
    sql: `SELECT x.district_id AS entity_id, a.id::text AS source_id, a.url, d.state, x.district_id, NULL::uuid AS school_id,
             a.title, a.description, left(a.text, 1200) AS text, NULL AS existing_sha
        FROM (SELECT DISTINCT article_id, district_id FROM signals WHERE district_id IS NOT NULL
              UNION SELECT id, origin_district_id FROM articles WHERE origin_district_id IS NOT NULL) x
        JOIN articles a ON a.id = x.article_id JOIN districts d ON d.id = x.district_id
       WHERE ${chunkMissing("'district'", "article", "x.district_id", "a.id::text")}
       ORDER BY a.published_at DESC NULLS LAST, a.id LIMIT $2`,
    text: (r) => words(r.title, ".", r.description, r.text),
  },
  ...(["district", "school"] as const).flatMap((type) => [
    gatedSource(
      "pain_points",
      "pain_point",
      type,
      "x.source_url",
      (r) => words(`${r.category} problem:`, r.description),
      "x.category, x.description",
    ),
    gatedSource("bids", "bid", type, "coalesce(x.url, x.source_url)", (r) => words(`Bid (${r.status}):`, r.title), "x.title, x.status"),
    gatedSource(
      "funding",
      "funding",
      type,
      "x.source_url",
      (r) =>
        words(
          `Funding from ${r.source}`,
          r.amount ? `of $${Math.round(Number(r.amount)).toLocaleString("en-US")}` : "",
          r.description ? `: ${r.description}` : "",
        ),
      "x.source, x.amount, x.description",
    ),
  ]),
];

/** The source types of passages (every one but profiles): what full text matches, by the (model, type, source) index. */
export const TEXT_SOURCES: readonly string[] = [...new Set(SOURCES.map((s) => s.sourceType))].filter((t) => t !== "profile");

const sha256 = (text: string): string => crypto.createHash("sha256").update(text).digest("hex");

/** Writes a batch of vectors in one statement (hand-written: a bulk upsert; Prisma's createMany cannot upsert). */
async function upsertVectors(
  db: Db,
  model: string,
  source: Source,
  rows: SourceRow[],
  texts: string[],
  vectors: number[][],
): Promise<void> {
  const dimension = vectors[0]?.length ?? 0;
  await db.query(
    `INSERT INTO embeddings (entity_type, entity_id, source_type, source_id, content, url, model, vector, dimension, content_sha256,
                             state, district_id, school_id, updated_at)
     SELECT $1, t.entity_id, $2, t.source_id, t.content, t.url, $3, t.vector::real[], $4, t.sha, t.state, t.district_id, t.school_id,
            greatest(now(), t.entity_updated_at)
       FROM unnest($5::uuid[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::uuid[], $13::uuid[],
                   $14::timestamptz[])
         AS t(entity_id, source_id, content, url, vector, sha, state, district_id, school_id, entity_updated_at)
     ON CONFLICT (entity_type, entity_id, source_type, source_id, model) DO UPDATE
        SET content = excluded.content, url = excluded.url, vector = excluded.vector, dimension = excluded.dimension,
            content_sha256 = excluded.content_sha256, state = excluded.state, district_id = excluded.district_id,
            school_id = excluded.school_id, updated_at = excluded.updated_at`,
    [
      source.entityType,
      source.sourceType,
      model,
      dimension,
      rows.map((r) => r.entity_id),
      rows.map((r) => r.source_id),
      texts,
      rows.map((r) => r.url),
      vectors.map((v) => `{${v.join(",")}}`),
      texts.map(sha256),
      rows.map((r) => r.state),
      rows.map((r) => r.district_id),
      rows.map((r) => r.school_id),
      rows.map((r) => r.entity_updated_at ?? null),
    ],
  );
}

/** Marks unchanged profiles as current (their entity was touched, their text is the same); never earlier than the entity's time, so a clock ahead cannot loop. */
async function touchVectors(db: Db, model: string, source: Source, rows: SourceRow[]): Promise<void> {
  await db.query(
    `UPDATE embeddings e SET updated_at = greatest(now(), t.entity_updated_at)
       FROM unnest($4::uuid[], $5::timestamptz[]) AS t(entity_id, entity_updated_at)
      WHERE e.entity_type = $1 AND e.source_type = $2 AND e.model = $3 AND e.entity_id = t.entity_id AND e.source_id = 'profile'`,
    [source.entityType, source.sourceType, model, rows.map((r) => r.entity_id), rows.map((r) => r.entity_updated_at ?? null)],
  );
}

export interface EmbedReport {
  embedded: number;
  unchanged: number;
  /** Whether work is left (the batch limit or the time budget stopped it). */
  more: boolean;
}

/**
 * Embeds what is missing or stale, source by source in SOURCES order, in batches of `batchSize`, until nothing is
 * left or `deadline` (epoch ms) passes. `only` and `sourceTypes` restrict it to some entity and source types (tests and
 * the bench embed what they need).
 * Between batches it yields to the event loop, so requests of the same process are answered meanwhile.
 */
export async function embedPending(
  db: Db,
  provider: EmbeddingProvider,
  options: { batchSize: number; deadline?: number; only?: readonly SearchEntityType[]; sourceTypes?: readonly string[] },
): Promise<EmbedReport> {
  const report: EmbedReport = { embedded: 0, unchanged: 0, more: false };
  for (const source of SOURCES) {
    if (options.only && !options.only.includes(source.entityType)) continue;
    if (options.sourceTypes && !options.sourceTypes.includes(source.sourceType)) continue;
    for (;;) {
      if (options.deadline !== undefined && Date.now() > options.deadline) return { ...report, more: true };
      const rows = await db.query<SourceRow>(source.sql, [provider.model, options.batchSize]);
      if (!rows.length) break;
      const texts = rows.map((row) => source.text(row));
      const changed = rows.map((row, i) => row.existing_sha !== sha256(texts[i]!));
      const fresh = rows.filter((_, i) => changed[i]);
      const same = rows.filter((_, i) => !changed[i]);
      if (same.length) await touchVectors(db, provider.model, source, same);
      if (fresh.length) {
        const freshTexts = texts.filter((_, i) => changed[i]);
        const vectors = await provider.embed(freshTexts);
        await ensureVectorIndex(db, provider.model, source.entityType, vectors[0]!.length);
        await upsertVectors(db, provider.model, source, fresh, freshTexts, vectors);
      }
      report.embedded += fresh.length;
      report.unchanged += same.length;
      await new Promise((resolve) => setImmediate(resolve));
      if (rows.length < options.batchSize) break;
    }
  }
  return report;
}
