/**
 * The benchmark's reference: a bare node:http server whose `GET /districts?limit=N&offset=M` (also
 * `order_by`, `order_ascending`) runs ONE SQL statement that builds the whole response body of our
 * `GET /api/v1/districts` in PostgreSQL (json_build_object / json_agg / subqueries), for one
 * organization (BENCH_ORG_ID), and writes the text out as it is. No framework, no JSON work in Node.
 *
 * It computes everything the service computes: gated fields and _access from the organization's
 * unlock, history gating from its plan and follows, latest / latest_finance / trend, breakdown shapes,
 * caveats, assessment, special-education finance and intelligence blocks (null when locked), bid
 * filings of the organization. Usage: DATABASE_URL=... BENCH_ORG_ID=... PORT=... node scripts/run-ts.js bench/sql-server.ts
 */
import http from "node:http";
import path from "node:path";
import { Pool } from "pg";
import { DEMO_SUMMARY_PREFIX } from "../src/features/kits/common/data-source";

const STATISTICS_CAVEAT =
  "Each entry holds what the federal sources report for that school year. Sources publish on different " +
  "schedules (directory, membership, staff, SAIPE poverty, F-33 finance), so the latest entry can lack " +
  "fields a prior year has; latest_finance is the latest entry with finance data. Suppressed or missing " +
  "values are null, with the reason in the matching *_status field where one exists.";
const FINANCE_CAVEAT =
  "Special-education finance combines F-33 finance with IDEA child counts for the same fiscal year; " +
  "per-student figures divide by the IDEA child count. Null where a source lacks the year.";
const UNLOCK_COST = 6;
const MAX_LIMIT = 200;
const ORDER_COLUMNS = new Set([
  "name",
  "state",
  "student_count",
  "school_count",
  "revenue_per_student",
  "expenditures_per_student",
  "student_teacher_ratio",
  "total_staff",
  "created_at",
  "last_updated_at",
]);

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);
/** timestamptz as the API writes it: ISO 8601 UTC with milliseconds. */
const iso = (expr: string): string => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const DISTRICT_PLAIN = words(`id fed_id name state website_url student_count school_count grade_span locale_type total_revenue
  revenue_per_student total_expenditures expenditures_per_student instructional_expenditures instructional_expenditures_percent
  support_services_expenditures student_teacher_ratio total_staff physical_address physical_city physical_state physical_zip
  mailing_address mailing_city mailing_state mailing_zip phone county state_district_id district_type teachers_fte
  fed_data_year latitude longitude status last_analysis_job_id data_source error_message retry_count notes`);
const DISTRICT_TIMES = words("website_mapped_at content_fetched_at content_extracted_at crawled_at last_updated_at created_at");

const STAT_COLUMNS = words(`school_year_start total_enrollment operational_school_count total_population school_age_population
  school_age_children_in_poverty finance_fiscal_year total_staff_fte teachers_fte school_counselors_fte school_psychologists_fte
  student_support_staff_fte instructional_aides_fte district_administrators_fte school_administrators_fte total_revenue
  local_revenue state_revenue federal_revenue property_tax_revenue title_i_revenue state_special_education_revenue
  total_expenditures current_expenditures instruction_expenditures support_services_expenditures student_support_expenditures
  instructional_staff_support_expenditures general_administration_expenditures school_administration_expenditures
  operations_maintenance_expenditures student_transportation_expenditures capital_outlay_expenditures
  interest_on_debt_expenditures total_salaries instructional_salaries special_education_teacher_salaries employee_benefits
  long_term_debt_outstanding utilities_energy_expenditures technology_supplies_services_expenditures
  technology_equipment_expenditures student_teacher_ratio counselors_per_1000_students psychologists_per_1000_students
  school_age_poverty_pct revenue_per_student current_expenditures_per_student federal_revenue_share_pct enrollment_status
  fed_directory_version fed_membership_version fed_staff_version saipe_version f33_version source_urls`);
const SPED_COLUMNS = words(`fiscal_year school_year_start total_enrollment idea_child_count idea_part_b_revenue
  total_federal_revenue total_revenue total_expenditures special_ed_current_expenditures special_ed_instructional_expenditures
  special_ed_student_support_expenditures special_ed_instructional_staff_support_expenditures
  special_ed_transportation_expenditures idea_revenue_per_sped_student special_ed_current_expenditures_per_sped_student
  sped_enrollment_pct idea_revenue_share_of_total_revenue_pct idea_child_count_status idea_part_b_revenue_flag f33_version
  child_count_version source_f33_url source_child_count_url data_source`);
const RESULT_COLUMNS = words(`source_id state school_year grade subject student_group_type student_group student_group_id
  enrolled_count tested_count tested_with_scores_count proficiency_count proficiency_pct participation_rate mean_scale_score
  data_quality suppression_code`);
const RESULT_ORDER = (a: string) =>
  `${a}.subject, ${a}.grade, ${a}.student_group_type NULLS FIRST, ${a}.student_group NULLS FIRST, ${a}.source_id, ${a}.id`;
const METRIC_NUMBERS = words("proficiency_pct tested_count participation_rate state_proficiency_pct vs_state_pp");
const COVERAGE_TEXT = words(`source_id source_name publication_status published_at canonical_artifact_uri
  canonical_artifact_format manifest_uri`);
const BREAKDOWN_KEYS = words("enrollment_grade enrollment_race_sex staff_category idea_disability");

const columns = (alias: string, names: string[]) => names.map((c) => `${alias}.${c}`).join(", ");
/** A JSON object (null when the jsonb value is missing or JSON null) with exactly the keys GraphQL selects. */
const jsonObject = (value: string, build: string) => `CASE WHEN jsonb_typeof(${value}) = 'object' THEN ${build} END`;
const assessmentMetric = (value: string) =>
  jsonObject(value, `json_build_object(${METRIC_NUMBERS.map((k) => `'${k}', ${value}->'${k}'`).join(", ")}, 'basis', ${value}->>'basis')`);
/** `series` is a json[] in ascending order: the whole series, or only its latest item when history is gated. */
const gated = (series: string, historyOpen: string) =>
  `CASE WHEN ${historyOpen} OR cardinality(${series}) <= 1 THEN array_to_json(${series}) ELSE json_build_array(${series}[cardinality(${series})]) END`;
const historyBlock = (series: string, historyOpen: string) =>
  `'trend', ${gated(series, historyOpen)}, 'history_gated', NOT ${historyOpen}, 'history_years_available', cardinality(${series})`;

export function districtsSql(orderBy: string, ascending: boolean): string {
  const direction = ascending ? "ASC" : "DESC";
  return `
WITH viewer AS (
  SELECT o.id, o.plan <> 'free' AS paid FROM organizations o WHERE o.id = $1
),
ranked AS (
  -- Sort narrow (id, sort key) tuples, then read the page's rows in full: sorting whole rows costs more.
  SELECT d.id FROM districts d ORDER BY d.${orderBy} ${direction} NULLS LAST, d.id ASC LIMIT $2 OFFSET $3
),
page AS (
  SELECT d.*, u.state AS unlock_state, u.unlocked_at AS unlock_at, u.credits_spent AS unlock_credits,
         (SELECT v.paid FROM viewer v) OR EXISTS (
           SELECT 1 FROM follows f WHERE f.organization_id = $1 AND f.entity_type = 'district' AND f.entity_id = d.id
              AND f.unfollowed_at IS NULL) AS history_open
    FROM ranked JOIN districts d ON d.id = ranked.id
    LEFT JOIN unlocks u ON u.organization_id = $1 AND u.entity_type = 'district' AND u.entity_id = d.id
),
records AS (
  SELECT p.${orderBy} AS sort_key, p.id AS sort_id, to_json(r) AS record
  FROM page p
  CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(to_json(e) ORDER BY e.school_year_start), '{}') AS entries,
           (array_agg(to_json(e) ORDER BY e.school_year_start DESC) FILTER (
              WHERE e.finance_fiscal_year IS NOT NULL OR e.total_revenue IS NOT NULL
                 OR e.total_expenditures IS NOT NULL OR e.current_expenditures IS NOT NULL))[1] AS latest_finance
      FROM (SELECT ${columns("s", STAT_COLUMNS)}, ${iso("s.loaded_at")} AS loaded_at
              FROM district_annual_stats s WHERE s.district_id = p.id) e
  ) stats
  CROSS JOIN LATERAL (
    SELECT ${BREAKDOWN_KEYS.map((k) => `coalesce(array_agg(y.year ORDER BY y.school_year_start) FILTER (WHERE y.breakdown_key = '${k}'), '{}') AS ${k}`).join(",\n           ")}
      FROM (SELECT b.breakdown_key, b.school_year_start,
                   json_build_object('school_year_start', b.school_year_start,
                                     'source_version', (array_agg(b.source_version ORDER BY b.category, b.subgroup))[1],
                                     'source_url', (array_agg(b.source_url ORDER BY b.category, b.subgroup))[1],
                                     'rows', json_agg(json_build_object('category', b.category, 'subgroup', b.subgroup,
                                                                        'value', b.value, 'value_status', b.value_status)
                                                      ORDER BY b.category, b.subgroup)) AS year
              FROM district_stat_breakdowns b WHERE b.district_id = p.id
             GROUP BY b.breakdown_key, b.school_year_start) y
  ) breakdowns
  CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(to_json(e) ORDER BY e.fiscal_year), '{}') AS entries,
           CASE WHEN bool_or(e.data_source = 'demo') THEN 'demo' ELSE (array_agg(e.data_source ORDER BY e.fiscal_year DESC))[1] END AS data_source
      FROM (SELECT ${columns("f", SPED_COLUMNS)}, ${iso("f.loaded_at")} AS loaded_at
              FROM special_education_finance f WHERE f.district_id = p.id) e
  ) sped
  LEFT JOIN LATERAL (
    SELECT max(g.school_year) AS school_year FROM assessment_grade_rows g WHERE g.district_id = p.id
  ) grade_year ON true
  CROSS JOIN LATERAL (SELECT
    ${DISTRICT_PLAIN.map((c) => `p.${c}`).join(", ")},
    ${DISTRICT_TIMES.map((c) => `${iso(`p.${c}`)} AS ${c}`).join(", ")},
    CASE WHEN p.unlock_state = 'unlocked' THEN p.meeting_minutes_pdfs END AS meeting_minutes_pdfs,
    CASE WHEN p.unlock_state = 'unlocked' THEN p.strategic_priorities END AS strategic_priorities,
    CASE WHEN p.unlock_state = 'unlocked' AND p.strategic_priorities IS NOT NULL AND jsonb_typeof(p.strategic_priorities) <> 'null'
         THEN CASE WHEN left(p.ai_summary, ${DEMO_SUMMARY_PREFIX.length}) = '${DEMO_SUMMARY_PREFIX.replace(/'/g, "''")}' THEN 'demo' ELSE 'extraction' END
    END AS strategic_priorities_data_source,
    CASE WHEN p.unlock_state = 'unlocked' THEN p.ai_summary END AS ai_summary,
    CASE WHEN p.unlock_state = 'unlocked' THEN ${iso("p.summary_generated_at")} END AS summary_generated_at,
    json_build_object(
      'is_unlocked', p.unlock_state IS NOT DISTINCT FROM 'unlocked',
      'is_unlocking', p.unlock_state IS NOT DISTINCT FROM 'unlock_pending',
      'unlocked_at', CASE WHEN p.unlock_state = 'unlocked' THEN ${iso("p.unlock_at")} END,
      'credits_spent', coalesce(p.unlock_credits, 0),
      'unlock_cost', ${UNLOCK_COST}) AS _access,
    NULL::json AS metric_values,
    json_build_object(
      'latest', stats.entries[cardinality(stats.entries)],
      'latest_finance', stats.latest_finance,
      ${historyBlock("stats.entries", "p.history_open")},
      'caveat', '${STATISTICS_CAVEAT}',
      'latest_breakdowns', json_build_object(${BREAKDOWN_KEYS.map((k) => `'${k}', breakdowns.${k}[cardinality(breakdowns.${k})]`).join(", ")}),
      'breakdowns', json_build_object(${BREAKDOWN_KEYS.map(
        (k) => `'${k}', json_build_object(${historyBlock(`breakdowns.${k}`, "p.history_open")})`,
      ).join(", ")})) AS annual_statistics,
    json_build_object(
      'data_source', sped.data_source,
      'latest', sped.entries[cardinality(sped.entries)],
      ${historyBlock("sped.entries", "p.history_open")},
      'caveat', '${FINANCE_CAVEAT}') AS special_education_finance,
    (SELECT json_build_object(
        'data_source', s.data_source, 'source_id', s.source_id, 'state', s.state, 'school_year', s.school_year, 'data_quality', s.data_quality,
        'subjects_available', s.subjects_available,
        'metrics', ${jsonObject(
          "s.metrics",
          `json_build_object(${["ela", "math", "science"].map((k) => `'${k}', ${assessmentMetric(`s.metrics->'${k}'`)}`).join(", ")})`,
        )},
        'grade_summary', s.grade_summary, 'source_manifest_uri', s.source_manifest_uri,
        'canonical_artifact_uri', s.canonical_artifact_uri,
        'coverage', ${jsonObject(
          "s.coverage",
          `json_build_object(${COVERAGE_TEXT.map((k) => `'${k}', s.coverage->>'${k}'`).join(", ")}, 'quality_summary', s.coverage->'quality_summary')`,
        )},
        'comparability_warning', s.comparability_warning)
       FROM assessment_summaries s WHERE s.district_id = p.id
      ORDER BY s.school_year DESC, s.loaded_at DESC, s.source_id LIMIT 1) AS assessment_summary,
    coalesce((
      SELECT json_agg(json_build_object('id', g.id, 'data_source', g.data_source, ${RESULT_COLUMNS.map((c) => `'${c}', g.${c}`).join(", ")}) ORDER BY ${RESULT_ORDER("g")})
        FROM assessment_grade_rows g
       WHERE g.district_id = p.id AND g.school_year = grade_year.school_year), '[]') AS assessment_grade_rows,
    CASE WHEN grade_year.school_year IS NULL THEN '[]' ELSE coalesce((
      SELECT json_agg(json_build_object('data_source', x.data_source, ${RESULT_COLUMNS.map((c) => `'${c}', x.${c}`).join(", ")}) ORDER BY ${RESULT_ORDER("x")})
        FROM assessment_state_rows x
       WHERE x.state = p.state AND x.school_year = grade_year.school_year), '[]') END AS assessment_state_rows,
    CASE WHEN p.unlock_state = 'unlocked' THEN coalesce((
      SELECT json_agg(json_build_object('id', x.id, 'data_source', x.data_source, 'category', x.category, 'description', x.description,
                                        'source_url', x.source_url, 'detected_at', ${iso("x.detected_at")})
                      ORDER BY x.detected_at DESC NULLS LAST, x.id)
        FROM pain_points x WHERE x.district_id = p.id), '[]') END AS pain_points,
    CASE WHEN p.unlock_state = 'unlocked' THEN coalesce((
      SELECT json_agg(json_build_object('id', v.id, 'data_source', v.data_source, 'name', v.name, 'category', v.category) ORDER BY v.name, v.id)
        FROM vendors v WHERE v.id IN (SELECT ev.vendor_id FROM entity_vendors ev WHERE ev.district_id = p.id)), '[]') END AS vendors,
    CASE WHEN p.unlock_state = 'unlocked' THEN coalesce((
      SELECT json_agg(json_build_object('id', x.id, 'data_source', x.data_source, 'source', x.source, 'amount', x.amount, 'fiscal_year', x.fiscal_year,
                                        'description', x.description)
                      ORDER BY x.fiscal_year DESC NULLS LAST, x.source, x.id)
        FROM funding x WHERE x.district_id = p.id), '[]') END AS funding,
    CASE WHEN p.unlock_state = 'unlocked' THEN coalesce((
      SELECT json_agg(json_build_object('id', c.id, 'data_source', c.data_source, 'vendor_id', c.vendor_id, 'vendor_name', v.name, 'category', c.category,
                                        'amount', c.amount, 'starts_on', c.starts_on, 'expires_on', c.expires_on)
                      ORDER BY c.expires_on NULLS LAST, c.id)
        FROM contracts c LEFT JOIN vendors v ON v.id = c.vendor_id WHERE c.district_id = p.id), '[]') END AS contracts,
    CASE WHEN p.unlock_state = 'unlocked' THEN coalesce((
      SELECT json_agg(json_build_object(
               'id', b.id, 'data_source', b.data_source, 'title', b.title,
               'status', CASE WHEN b.status = 'open' AND (b.deadline_at IS NULL OR b.deadline_at > now()) THEN 'open' ELSE 'closed' END,
               'posted_on', b.posted_on, 'deadline_at', ${iso("b.deadline_at")}, 'url', b.url,
               'filing', CASE WHEN f.id IS NOT NULL THEN json_build_object('action', f.action, 'reason_code', f.reason_code,
                                                              'reason_note', f.reason_note, 'filed_at', ${iso("f.filed_at")}) END)
             ORDER BY b.posted_on DESC NULLS LAST, b.id)
        FROM bids b LEFT JOIN bid_filings f ON f.bid_id = b.id AND f.organization_id = $1
       WHERE b.district_id = p.id), '[]') END AS bids
  ) r
)
SELECT json_build_object(
  'data', coalesce((SELECT json_agg(r.record ORDER BY r.sort_key ${direction} NULLS LAST, r.sort_id) FROM records r), '[]'),
  'pagination', json_build_object('total', t.total, 'limit', $2::int, 'offset', $3::int, 'has_more', $3::int + $2::int < t.total)
)::text AS body
FROM (SELECT count(*)::int AS total FROM districts) t`;
}

function badRequest(res: http.ServerResponse, message: string): void {
  res.writeHead(400, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: "bad_request", message, statusCode: 400 }));
}

function main(): void {
  const organizationId = process.env.BENCH_ORG_ID;
  if (!process.env.DATABASE_URL || !organizationId) throw new Error("DATABASE_URL and BENCH_ORG_ID are required");
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
  const statements = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/districts" || req.method !== "GET") {
      res.writeHead(404).end();
      return;
    }
    const limit = Number(url.searchParams.get("limit") ?? 50);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const orderBy = url.searchParams.get("order_by") ?? "name";
    const ascending = (url.searchParams.get("order_ascending") ?? "true") === "true";
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      return badRequest(res, `limit must be an integer from 1 to ${MAX_LIMIT}`);
    if (!Number.isInteger(offset) || offset < 0) return badRequest(res, "offset must be an integer >= 0");
    if (!ORDER_COLUMNS.has(orderBy)) return badRequest(res, `order_by must be one of ${[...ORDER_COLUMNS].join(", ")}`);
    const key = `${orderBy}:${ascending}`;
    let sql = statements.get(key);
    if (!sql) statements.set(key, (sql = districtsSql(orderBy, ascending)));
    pool.query({ text: sql, values: [organizationId, limit, offset], rowMode: "array" }).then(
      (result) => {
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(result.rows[0][0] as string);
      },
      (error: Error) => {
        process.stderr.write(`${error.stack}\n`);
        res.writeHead(500).end();
      },
    );
  });
  server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ listening: (server.address() as { port: number }).port })}\n`);
  });
  const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

// Run as a program (directly or through scripts/run-ts.js), not when imported for its SQL.
if (path.resolve(process.argv[1] ?? "") === __filename) main();
