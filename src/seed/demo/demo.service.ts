/**
 * The demo layer over the real catalogue (docs/demo-data.md). Real districts and schools come from the
 * ingestors; where no public data exists (extraction results, intelligence, contacts, news, timeline,
 * assessments, special-education finance, associations) this writes deterministic, clearly labelled demo rows
 * with data_source = 'demo'. Opportunities are not seeded: the opportunity agent writes them from the demo signals
 * (data_source demo too) and the real catalogue, as for any signal.
 *
 * One transaction: undo the previous demo layer (delete demo rows, reset demo-marked status columns
 * that fall outside the new subset), then rewrite it. Ids are name-based UUIDs and every date and timestamp
 * is a seeded offset from the reference day, the seeding day (UTC) unless `referenceDay` names one: open
 * bids stay open and expiring contracts stay within their window whenever the layer is seeded, and a
 * second run over the same catalogue on the same day (or with the same `referenceDay`) changes nothing.
 */
import type { Db, Queryable } from "../../db/client";
import { advisoryXactLock } from "../../db/locks";
import { buildAssessments, gradeNumber, hasTestedGrade, type AssessmentTarget } from "./assessment";
import { buildAssociations, buildChildcarePeople } from "./associations";
import { readColumnTypes } from "../../db/column-types";
import { type DemoRow, insertRows } from "./bulk";
import { DEMO_ERROR_PREFIX, DEMO_SOURCE, DEMO_SUMMARY_PREFIX, PREFERRED_STATES } from "./catalog";
import { buildContacts } from "./contacts";
import { completedUpdate, errorUpdate, type ExtractionUpdate, processingUpdate } from "./extraction";
import { buildSpecialEducationFinance, type RealFinanceYear } from "./finance";
import { buildIntelligence } from "./intelligence";
import { type CenterSeedRow, districtEntity, type DistrictSeedRow, schoolEntity, type SchoolSeedRow } from "./model";
import { buildNews, buildTimelineEvents } from "./news";
import { utcDay, withReferenceDay } from "./random";

export const DEFAULT_DEMO_SEED = 20261101;

/** Subset sizes: caps for the real catalogue, fractions so small catalogues keep pending rows too. */
export const DEMO_LIMITS = {
  completedDistricts: 120,
  completedDistrictShare: 0.5,
  errorDistricts: 8,
  processingDistricts: 8,
  completedSchools: 150,
  completedSchoolShare: 0.6,
  errorSchools: 4,
  assessmentDistricts: 60,
  assessmentSchools: 80,
  financeDistricts: 60,
  associationStates: 3,
  childcareCenters: 20,
} as const;

/** Every table the demo layer writes rows into, in the order they are written. */
export const DEMO_TABLES = [
  "vendors",
  "entity_vendors",
  "pain_points",
  "funding",
  "contracts",
  "bids",
  "contacts",
  "timeline_events",
  "articles",
  "signals",
  "assessment_summaries",
  "assessment_grade_rows",
  "assessment_state_rows",
  "special_education_finance",
  "associations",
  "association_people",
  "childcare_people",
] as const;
export type DemoTable = (typeof DEMO_TABLES)[number];

/** The district and school columns the demo layer may write (it owns no other column of those tables). */
export const DEMO_DISTRICT_COLUMNS = [
  "status",
  "ai_summary",
  "summary_generated_at",
  "content_extracted_at",
  "error_message",
  "strategic_priorities",
  "meeting_minutes_pdfs",
] as const;
export const DEMO_SCHOOL_COLUMNS = ["status", "ai_summary", "summary_generated_at", "content_extracted_at", "error_message"] as const;

export interface SeedDemoOptions {
  seed?: number;
  /** `YYYY-MM-DD` every demo date counts from; default: today's UTC date (the seeding day). */
  referenceDay?: string;
}

export interface ExtractionCounts {
  completed: number;
  error: number;
  processing: number;
  /** Demo-marked rows from an earlier run that fell outside the subset and went back to pending. */
  reset: number;
}

export interface DemoSummary {
  seed: number;
  /** The day every demo date was counted from. */
  referenceDay: string;
  districts: ExtractionCounts;
  schools: ExtractionCounts;
  /** Rows written per table in this run: the table's demo rows afterwards. */
  rows: Record<DemoTable, number>;
}

/** Serialises concurrent seeders (several processes starting on one PostgreSQL); released at commit. A fixed key: older releases take it too. */
const DEMO_SEED_LOCK = 20261101;

export async function seedDemoLayer(db: Db, options: SeedDemoOptions = {}): Promise<DemoSummary> {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  if (!Number.isSafeInteger(seed)) throw new TypeError(`seedDemoLayer: seed must be an integer, got ${seed}`);
  const day = options.referenceDay ?? utcDay(new Date());
  // Validates the day before any write (a bad one is a TypeError, nothing written).
  withReferenceDay(day, () => null);
  // Inside the transaction only `q` is used: embedded PGlite has one connection and would deadlock on `db`.
  return db.transaction(async (q) => {
    // On the seed's transaction `q` (bench/startup.ts first start).
    await advisoryXactLock(q, DEMO_SEED_LOCK);
    const types = await readColumnTypes(q, DEMO_TABLES);
    const selection = await selectSubset(q);
    await deleteDemoRows(q);

    const districts = selection.completedDistricts.map(districtEntity);
    const schools = selection.completedSchools.map(schoolEntity);
    const entities = [...districts, ...schools];
    // Hand-written: bulk demo seed on `q`. Entities whose leader a state directory names (src/ingest/sources/state-directory.ts).
    const leads = await q.query<{ id: string }>(
      `SELECT DISTINCT coalesce(c.school_id, c.district_id) AS id FROM contacts c
        WHERE c.source = 'state_directory' AND c.former_at IS NULL AND (c.school_id IS NOT NULL OR c.is_district_contact)
          AND coalesce(c.school_id, c.district_id) = ANY($1::uuid[])`,
      [entities.map((e) => e.id)],
    );
    const realLeads = new Set(leads.map((r) => r.id));

    // Every builder below counts its dates from the reference day; synchronous, so nothing interleaves.
    const { rowsByTable, districtUpdates, schoolUpdates } = withReferenceDay(day, () => {
      const intelligence = buildIntelligence(seed, entities);
      const contacts = buildContacts(seed, entities, realLeads);
      const news = buildNews(seed, entities);
      const assessmentTargets: AssessmentTarget[] = [
        ...districts
          .filter((d) => selection.assessmentDistrictIds.has(d.id))
          .slice(0, DEMO_LIMITS.assessmentDistricts)
          .map((entity) => ({ entity, low: -1, high: 12 })),
        ...schools
          .filter((s) => selection.assessmentSchoolIds.has(s.id))
          .map((entity) => ({ entity, ...schoolGradeSpan(selection.schoolGrades.get(entity.id)) }))
          .filter((target) => hasTestedGrade(target.low, target.high))
          .slice(0, DEMO_LIMITS.assessmentSchools),
      ];
      const associationStates = [...new Set(districts.map((d) => d.state))].slice(0, DEMO_LIMITS.associationStates);
      const cityByState = new Map(
        associationStates.map((state) => [state, districts.find((d) => d.state === state && d.city)?.city ?? null]),
      );
      const associations = buildAssociations(seed, associationStates, cityByState);

      const rowsByTable: Record<DemoTable, DemoRow[]> = {
        vendors: intelligence.vendors,
        entity_vendors: intelligence.entity_vendors,
        pain_points: intelligence.pain_points,
        funding: intelligence.funding,
        contracts: intelligence.contracts,
        bids: intelligence.bids,
        contacts: contacts.contacts,
        timeline_events: buildTimelineEvents(seed, entities),
        articles: news.articles,
        signals: news.signals,
        ...buildAssessments(seed, assessmentTargets),
        special_education_finance: buildSpecialEducationFinance(
          seed,
          districts.filter((d) => selection.financeDistrictIds.has(d.id)).slice(0, DEMO_LIMITS.financeDistricts),
          selection.realF33,
        ),
        ...associations,
        childcare_people: buildChildcarePeople(seed, selection.childcareCenters),
      };

      const districtUpdates = [
        ...districts.map((d) => completedUpdate(seed, d, intelligence.vendorNamesByEntity.get(d.id) ?? [])),
        ...selection.errorDistricts.map((row, i) => errorUpdate(districtEntity(row, i))),
        ...selection.processingDistricts.map((row, i) => processingUpdate(districtEntity(row, i))),
      ];
      const schoolUpdates = [
        ...schools.map((s) => completedUpdate(seed, s, intelligence.vendorNamesByEntity.get(s.id) ?? [])),
        ...selection.errorSchools.map((row, i) => errorUpdate(schoolEntity(row, i))),
      ];
      return { rowsByTable, districtUpdates, schoolUpdates };
    });
    const districtsReset = await applyExtraction(q, "districts", districtUpdates);
    const schoolsReset = await applyExtraction(q, "schools", schoolUpdates);

    const written = {} as Record<DemoTable, number>;
    for (const table of DEMO_TABLES) written[table] = await insertRows(q, types, table, rowsByTable[table]);

    return {
      seed,
      referenceDay: day,
      districts: {
        completed: districts.length,
        error: selection.errorDistricts.length,
        processing: selection.processingDistricts.length,
        reset: districtsReset,
      },
      schools: { completed: schools.length, error: selection.errorSchools.length, processing: 0, reset: schoolsReset },
      rows: written,
    };
  });
}

// ---------------------------------------------------------------- choosing the subset

interface Selection {
  completedDistricts: DistrictSeedRow[];
  errorDistricts: DistrictSeedRow[];
  processingDistricts: DistrictSeedRow[];
  completedSchools: SchoolSeedRow[];
  errorSchools: SchoolSeedRow[];
  schoolGrades: Map<string, { grade_low: string | null; grade_high: string | null }>;
  /** Subset entities where no real (non-demo) rows of that kind exist: demo rows never sit beside real ones. */
  assessmentDistrictIds: Set<string>;
  assessmentSchoolIds: Set<string>;
  financeDistrictIds: Set<string>;
  /** Each subset district's real F-33 years with total revenue, expenditures and enrollment (ascending): demo finance is derived from them. */
  realF33: Map<string, RealFinanceYear[]>;
  childcareCenters: CenterSeedRow[];
}

const DEMO_MARKED = `(left(ai_summary, ${DEMO_SUMMARY_PREFIX.length}) = $1 OR left(error_message, ${DEMO_ERROR_PREFIX.length}) = $2)`;
/** No sign that the real pipeline ever touched the row (no job, no crawl, no fetched content). */
const UNTOUCHED = `(ai_summary IS NULL AND error_message IS NULL AND last_analysis_job_id IS NULL AND website_mapped_at IS NULL AND content_fetched_at IS NULL)`;
/**
 * Rows the demo layer may claim: demo-marked by an earlier run, or pending/processing and untouched by
 * the real pipeline. The condition never depends on what this run writes (processing is included
 * because the demo itself writes it), so the second run chooses the same rows as the first.
 */
const CLAIMABLE = `(${DEMO_MARKED} OR (status IN ('pending', 'processing') AND ${UNTOUCHED}))`;
/** Earlier demo output in districts: marked rows, and processing rows with no pipeline trace (the demo's own). */
const DEMO_WRITTEN_DISTRICTS = `(${DEMO_MARKED} OR (status = 'processing' AND ${UNTOUCHED}))`;
/** The demo never sets schools to processing, so only marked schools are its own. */
const DEMO_WRITTEN_SCHOOLS = DEMO_MARKED;

async function selectSubset(q: Queryable): Promise<Selection> {
  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start).
  const [{ total }] = (await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM districts`)) as [{ total: number }];
  const completedCount = Math.min(DEMO_LIMITS.completedDistricts, Math.floor(total * DEMO_LIMITS.completedDistrictShare));
  const sideCount = total >= 4 ? Math.max(1, Math.floor(total / 10)) : 0;
  const errorCount = Math.min(DEMO_LIMITS.errorDistricts, sideCount);
  const processingCount = Math.min(DEMO_LIMITS.processingDistricts, sideCount);

  // Round-robin over states: the largest district of each preferred state, then the second largest...
  // then the other states the same way. Closed districts come last; where the directory has no enrollment
  // (NE, IN, TN) the school count stands in for size; fed_id breaks ties.
  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start): window ranking.
  const ranked = await q.query<DistrictSeedRow>(
    `SELECT id, fed_id, name, state, physical_city, student_count, school_count, phone
       FROM (SELECT d.*, row_number() OVER (PARTITION BY state ORDER BY operational_status IS NOT DISTINCT FROM 'Closed',
                                            student_count DESC NULLS LAST, school_count DESC NULLS LAST, fed_id) AS state_rank,
                    array_position($3::text[], state) AS preferred_rank
               FROM districts d
              WHERE ${CLAIMABLE}) ranked
      ORDER BY (preferred_rank IS NULL), state_rank, preferred_rank, state, fed_id
      LIMIT $4`,
    [DEMO_SUMMARY_PREFIX, DEMO_ERROR_PREFIX, PREFERRED_STATES, completedCount + errorCount + processingCount],
  );
  const completedDistricts = ranked.slice(0, completedCount);
  const errorDistricts = ranked.slice(completedCount, completedCount + errorCount);
  const processingDistricts = ranked.slice(completedCount + errorCount);
  const districtIds = completedDistricts.map((d) => d.id);

  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start).
  const [{ inside }] = (await q.query<{ inside: number }>(
    `SELECT count(*)::int AS inside FROM schools WHERE district_id = ANY($1::uuid[])`,
    [districtIds],
  )) as [{ inside: number }];
  const completedSchoolCount = Math.min(DEMO_LIMITS.completedSchools, Math.ceil(inside * DEMO_LIMITS.completedSchoolShare));
  const errorSchoolCount = Math.min(DEMO_LIMITS.errorSchools, Math.floor(inside / 10));
  // Round-robin over the subset's districts, largest school first.
  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start): window ranking.
  const schools = await q.query<SchoolSeedRow>(
    `SELECT id, fed_id, name, state, district_id, physical_city, student_count, grade_low, grade_high, phone
       FROM (SELECT s.*, row_number() OVER (PARTITION BY district_id ORDER BY student_count DESC NULLS LAST, fed_id) AS district_rank
               FROM schools s
              WHERE district_id = ANY($3::uuid[]) AND ${CLAIMABLE}) ranked
      ORDER BY district_rank, array_position($3::uuid[], district_id), fed_id
      LIMIT $4`,
    [DEMO_SUMMARY_PREFIX, DEMO_ERROR_PREFIX, districtIds, completedSchoolCount + errorSchoolCount],
  );
  const completedSchools = schools.slice(0, completedSchoolCount);

  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start).
  const realIds = async (sql: string, ids: string[]): Promise<Set<string>> =>
    new Set((await q.query<{ id: string }>(sql, [ids, DEMO_SOURCE])).map((row) => row.id));
  // Assessment state rows are read by state and year whatever their source, so demo assessments go
  // only to states without any real assessment rows: demo and real figures never share a state.
  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start).
  const realAssessmentStates = new Set(
    (
      await q.query<{ state: string }>(
        `SELECT state FROM assessment_state_rows WHERE data_source <> $1
         UNION SELECT state FROM assessment_grade_rows WHERE data_source <> $1
         UNION SELECT state FROM assessment_summaries WHERE data_source <> $1`,
        [DEMO_SOURCE],
      )
    ).map((row) => row.state),
  );
  const realFinance = await realIds(
    `SELECT DISTINCT district_id AS id FROM special_education_finance WHERE district_id = ANY($1::uuid[]) AND data_source <> $2`,
    districtIds,
  );
  // The real F-33 totals served beside demo finance (annual_statistics): demo amounts are shares of them, and a
  // district or fiscal year without them gets no demo finance. Hand-written: on the seed's transaction `q`.
  const realF33 = new Map<string, RealFinanceYear[]>();
  for (const row of await q.query<RealFinanceYear & { district_id: string }>(
    `SELECT district_id, finance_fiscal_year AS fiscal_year, total_revenue, total_expenditures, federal_revenue, total_enrollment
       FROM district_annual_stats
      WHERE district_id = ANY($1::uuid[]) AND finance_fiscal_year IS NOT NULL
        AND total_revenue > 0 AND total_expenditures > 0 AND total_enrollment > 0
      ORDER BY district_id, finance_fiscal_year`,
    [districtIds],
  )) {
    const { district_id, ...year } = row;
    realF33.set(district_id, [...(realF33.get(district_id) ?? []), year]);
  }

  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start).
  const childcareCenters = await q.query<CenterSeedRow>(
    `SELECT id, source_key, name, state FROM childcare_centers c
      WHERE NOT EXISTS (SELECT 1 FROM childcare_people p WHERE p.center_id = c.id AND p.data_source <> $2)
      ORDER BY (license_status = 'active') DESC, array_position($1::text[], state) NULLS LAST, capacity DESC NULLS LAST, source_key
      LIMIT ${DEMO_LIMITS.childcareCenters}`,
    [PREFERRED_STATES, DEMO_SOURCE],
  );

  return {
    completedDistricts,
    errorDistricts,
    processingDistricts,
    completedSchools,
    errorSchools: schools.slice(completedSchoolCount),
    schoolGrades: new Map(completedSchools.map((s) => [s.id, { grade_low: s.grade_low, grade_high: s.grade_high }])),
    assessmentDistrictIds: new Set(completedDistricts.filter((d) => !realAssessmentStates.has(d.state)).map((d) => d.id)),
    assessmentSchoolIds: new Set(completedSchools.filter((s) => !realAssessmentStates.has(s.state)).map((s) => s.id)),
    financeDistrictIds: new Set(districtIds.filter((id) => !realFinance.has(id) && realF33.has(id))),
    realF33,
    childcareCenters,
  };
}

/** Grade span for assessments; a school without grades is treated as K-5. Spans with no tested grade yield no rows. */
function schoolGradeSpan(grades: { grade_low: string | null; grade_high: string | null } | undefined): { low: number; high: number } {
  const low = gradeNumber(grades?.grade_low ?? null) ?? 0;
  const high = gradeNumber(grades?.grade_high ?? null) ?? Math.max(low, 5);
  return { low, high: Math.max(low, high) };
}

// ---------------------------------------------------------------- writing

async function deleteDemoRows(q: Queryable): Promise<void> {
  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start).
  await q.exec(DEMO_TABLES.map((table) => `DELETE FROM "${table}" WHERE data_source = '${DEMO_SOURCE}'`).join(";\n"));
}

/**
 * Returns earlier demo output outside the new subset to pending, then writes the demo extraction
 * columns of the subset. Returns how many rows were reset.
 */
async function applyExtraction(q: Queryable, table: "districts" | "schools", updates: readonly ExtractionUpdate[]): Promise<number> {
  const isDistrict = table === "districts";
  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start).
  const reset = await q.query<{ id: string }>(
    `UPDATE ${table}
        SET status = 'pending', ai_summary = NULL, summary_generated_at = NULL, content_extracted_at = NULL, error_message = NULL
            ${isDistrict ? ", strategic_priorities = NULL, meeting_minutes_pdfs = NULL" : ""}
      WHERE ${isDistrict ? DEMO_WRITTEN_DISTRICTS : DEMO_WRITTEN_SCHOOLS} AND NOT (id = ANY($3::uuid[]))
      RETURNING id`,
    [DEMO_SUMMARY_PREFIX, DEMO_ERROR_PREFIX, updates.map((update) => update.id)],
  );
  if (updates.length === 0) return reset.length;
  const payload = updates.map((update) => ({
    id: update.id,
    status: update.status,
    ai_summary: update.ai_summary,
    summary_generated_at: update.summary_generated_at,
    content_extracted_at: update.content_extracted_at,
    error_message: update.error_message,
    strategic_priorities: update.strategic_priorities ?? null,
    meeting_minutes_pdfs: update.meeting_minutes_pdfs ?? null,
  }));
  // Hand-written: bulk demo seed on the seed's transaction `q` (bench/startup.ts first start): one UPDATE for the subset.
  await q.query(
    `UPDATE ${table} t
        SET status = v.status, ai_summary = v.ai_summary, summary_generated_at = v.summary_generated_at,
            content_extracted_at = v.content_extracted_at, error_message = v.error_message
            ${isDistrict ? ", strategic_priorities = v.strategic_priorities, meeting_minutes_pdfs = v.meeting_minutes_pdfs" : ""}
       FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, status text, ai_summary text, summary_generated_at timestamptz,
            content_extracted_at timestamptz, error_message text, strategic_priorities jsonb, meeting_minutes_pdfs jsonb)
      WHERE t.id = v.id`,
    [JSON.stringify(payload)],
  );
  return reset.length;
}

export type { DemoEntity } from "./model";
