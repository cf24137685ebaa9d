/**
 * The demo layer against a real migrated database (embedded PGlite, or PostgreSQL with DATABASE_URL):
 * a small catalogue inserted with plain SQL, then seedDemoLayer run repeatedly.
 */
import {
  ASSOCIATION_KINDS,
  BUYING_INTENTS,
  CRM_SYNC_STATUSES,
  DEMO_SUMMARY_PREFIX,
  EMAIL_STATUSES,
  ENRICHMENT_STATUSES,
  EVENT_TYPES,
  FUNDING_SOURCES,
  PAIN_POINT_CATEGORIES,
  SIGNAL_TYPES,
  VENDOR_CATEGORIES,
} from "../../src/seed/demo/catalog";
import {
  DEMO_DISTRICT_COLUMNS,
  DEMO_SCHOOL_COLUMNS,
  DEMO_TABLES,
  DEFAULT_DEMO_SEED,
  type DemoSummary,
  seedDemoLayer,
} from "../../src/seed/demo/demo.service";
import { buildIntelligence } from "../../src/seed/demo/intelligence";
import { districtEntity } from "../../src/seed/demo/model";
import { withReferenceDay } from "../../src/seed/demo/random";
import { seedDemoOrganizations } from "../../src/features/account/organizations/demo-organizations";
import { checkIcp } from "../../src/features/account/projects/project.icp";
import { runOpportunityAgent } from "../../src/features/research/opportunities/opportunity.agent";
import { createTestDb, type TestDb } from "../support/db";

const STATES = ["NE", "CA", "FL", "TX", "MI", "NY"];
const GRADE_SPANS: [string, string][] = [
  ["KG", "05"],
  ["06", "08"],
  ["09", "12"],
  ["PK", "02"],
];

let db: TestDb;
let projects: { organizationId: string; projectId: string }[];

async function insertCatalogue(): Promise<void> {
  const districts = Array.from({ length: 30 }, (_, i) => {
    const fedId = `99${String(i).padStart(5, "0")}`;
    return {
      fed_id: fedId,
      name: `Test District ${i}`,
      state: STATES[i % STATES.length],
      physical_city: `Testville ${i}`,
      // Some districts lack enrollment: the ranking must still be total.
      student_count: i % 7 === 3 ? null : 1000 + ((i * 7919) % 40000),
      phone: `(402) 555-${String(1000 + i)}`,
    };
  });
  await db.query(
    `INSERT INTO districts (fed_id, name, state, physical_city, student_count, phone, data_source)
     SELECT fed_id, name, state, physical_city, student_count, phone, 'test' FROM jsonb_to_recordset($1::jsonb)
       AS x(fed_id text, name text, state text, physical_city text, student_count int, phone text)`,
    [JSON.stringify(districts)],
  );
  // Real F-33 totals (FY2020 and FY2021, on school years 2019 and 2020) for all but the districts ending in 4 or 9;
  // those ending in 1 or 6 have no federal revenue. Demo special-education finance is derived from them.
  await db.query(
    `INSERT INTO district_annual_stats (district_id, school_year_start, finance_fiscal_year, total_enrollment, total_revenue,
                                        total_expenditures, federal_revenue)
     SELECT d.id, fy - 1, fy, coalesce(d.student_count, 800), coalesce(d.student_count, 800) * 15000.0 + fy,
            coalesce(d.student_count, 800) * 15500.0, CASE WHEN right(d.fed_id, 1) NOT IN ('1', '6') THEN coalesce(d.student_count, 800) * 1200.0 END
       FROM districts d CROSS JOIN (VALUES (2020), (2021)) AS f(fy)
      WHERE right(d.fed_id, 1) NOT IN ('4', '9')`,
  );
  // Two districts a real extraction already went through: the demo layer must leave them alone.
  await db.query(
    `UPDATE districts SET status = 'completed', ai_summary = 'Real summary from the extraction pipeline.' WHERE fed_id = '9900001'`,
  );
  await db.query(`UPDATE districts SET status = 'error', error_message = 'Real crawler timeout.' WHERE fed_id = '9900002'`);

  await db.query(
    `INSERT INTO schools (district_id, district_fed_id, fed_id, name, state, physical_city, student_count, grade_low, grade_high, data_source)
     SELECT d.id, d.fed_id, d.fed_id || lpad(n::text, 5, '0'), d.name || ' School ' || n, d.state, d.physical_city,
            200 + ((n * 37 + length(d.fed_id)) % 900), (ARRAY[${GRADE_SPANS.map(([low]) => `'${low}'`).join(",")}])[1 + (n + ascii(right(d.fed_id, 1))) % 4],
            (ARRAY[${GRADE_SPANS.map(([, high]) => `'${high}'`).join(",")}])[1 + (n + ascii(right(d.fed_id, 1))) % 4], 'test'
       FROM districts d CROSS JOIN generate_series(1, 2) AS n`,
  );
  await db.query(
    `INSERT INTO childcare_centers (slug, source_key, name, state, license_number, source, license_type, license_status, capacity, data_source)
     VALUES ('test-center-1', 'ne:1', 'Test Center One', 'NE', 'L-1', 'test-roster', 'center', 'active', 80, 'test'),
            ('test-center-2', 'ca:2', 'Test Center Two', 'CA', 'L-2', 'test-roster', 'center', 'active', 120, 'test'),
            ('test-center-3', 'tx:3', 'Test Center Three', 'TX', 'L-3', 'test-roster', 'preschool', 'inactive', 40, 'test')`,
  );
  // Real rows beside which no demo rows may appear: FL assessments, NE special-education finance, one center's staff.
  await db.query(
    `INSERT INTO assessment_state_rows (source_id, state, school_year, grade, subject, proficiency_pct, data_source)
     VALUES ('fl-real', 'FL', 2023, '03', 'ela', 51.0, 'test')`,
  );
  await db.query(
    `INSERT INTO special_education_finance (district_id, fiscal_year, idea_child_count, data_source)
     SELECT id, 2020, 100, 'test' FROM districts WHERE state = 'NE'`,
  );
  await db.query(
    `INSERT INTO childcare_people (center_id, name, title, data_source) SELECT id, 'Roster Director', 'Director', 'test' FROM childcare_centers WHERE source_key = 'ne:1'`,
  );
  const orgs = await db.query<{ id: string }>(
    `INSERT INTO organizations (name, plan, entitlements) VALUES ('Test Org A', 'enterprise', '{signals}'), ('Test Org B', 'free', '{}') RETURNING id`,
  );
  projects = [];
  for (const org of orgs) {
    const [project] = await db.query<{ id: string }>(
      `INSERT INTO projects (organization_id, name) VALUES ($1, 'Test project') RETURNING id`,
      [org.id],
    );
    projects.push({ organizationId: org.id, projectId: project!.id });
  }
}

/** Every non-demo row of the catalogue tables, minus the columns the demo layer documents as its own. */
async function nonDemoSnapshot(): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  snapshot.districts = await db.query(`SELECT to_jsonb(d) - $1::text[] AS row FROM districts d ORDER BY fed_id`, [
    [...DEMO_DISTRICT_COLUMNS],
  ]);
  snapshot.schools = await db.query(`SELECT to_jsonb(s) - $1::text[] AS row FROM schools s ORDER BY fed_id`, [[...DEMO_SCHOOL_COLUMNS]]);
  snapshot.real_extraction = await db.query(
    `SELECT to_jsonb(d) AS row FROM districts d WHERE fed_id IN ('9900001', '9900002') ORDER BY fed_id`,
  );
  for (const table of ["childcare_centers", "organizations", "projects"]) {
    snapshot[table] = await db.query(`SELECT to_jsonb(t) AS row FROM "${table}" t ORDER BY id`);
  }
  for (const table of DEMO_TABLES) {
    snapshot[`${table}_non_demo`] = await db.query(`SELECT to_jsonb(t) AS row FROM "${table}" t WHERE data_source <> 'demo' ORDER BY id`);
  }
  return snapshot;
}

/** Row count and md5 of every row's text, ordered by id, per demo table; districts and schools whole. */
async function fingerprint(): Promise<Record<string, { n: number; h: string }>> {
  const result: Record<string, { n: number; h: string }> = {};
  for (const table of [...DEMO_TABLES, "districts", "schools"]) {
    const order = table === "districts" || table === "schools" ? "t.fed_id" : "t.id";
    const [row] = await db.query<{ n: number; h: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY ${order}), '')) AS h FROM "${table}" t`,
    );
    result[table] = row!;
  }
  return result;
}

const column = async <T = string>(sql: string, params: unknown[] = []): Promise<T[]> =>
  (await db.query<{ v: T }>(sql, params)).map((row) => row.v);

const expectWithin = (values: readonly unknown[], allowed: readonly string[]): void => {
  expect(values.filter((value) => !allowed.includes(value as string))).toEqual([]);
};

describe("demo layer", () => {
  let before: Record<string, unknown[]>;
  let first: DemoSummary;
  let firstPrint: Record<string, { n: number; h: string }>;
  let second: DemoSummary;
  let secondPrint: Record<string, { n: number; h: string }>;
  let third: DemoSummary;
  let thirdPrint: Record<string, { n: number; h: string }>;

  beforeAll(async () => {
    db = await createTestDb();
    await insertCatalogue();
    before = await nonDemoSnapshot();
    first = await seedDemoLayer(db);
    firstPrint = await fingerprint();
    // The same reference day as the first run (a run across midnight UTC would otherwise count from the next day).
    second = await seedDemoLayer(db, { referenceDay: first.referenceDay });
    secondPrint = await fingerprint();
    third = await seedDemoLayer(db, { referenceDay: first.referenceDay });
    thirdPrint = await fingerprint();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("writes a subset with every extraction status and leaves the rest pending", async () => {
    expect(first.districts).toEqual({ completed: 15, error: 3, processing: 3, reset: 0 });
    expect(first.schools.completed).toBeGreaterThan(0);
    const statuses = await db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM districts GROUP BY status ORDER BY status`,
    );
    const byStatus = Object.fromEntries(statuses.map((row) => [row.status, row.n]));
    // 15 demo completed + 1 real; 3 demo errors + 1 real; 3 processing; the other 7 stay pending.
    expect(byStatus).toEqual({ completed: 16, error: 4, processing: 3, pending: 7 });

    const completed = await db.query<{
      ai_summary: string;
      strategic_priorities: unknown;
      meeting_minutes_pdfs: unknown;
      content_extracted_at: unknown;
    }>(
      `SELECT ai_summary, strategic_priorities, meeting_minutes_pdfs, content_extracted_at FROM districts WHERE status = 'completed' AND fed_id <> '9900001'`,
    );
    for (const row of completed) {
      expect(row.ai_summary.startsWith(DEMO_SUMMARY_PREFIX)).toBe(true);
      expect(row.content_extracted_at).not.toBeNull();
      expect(Array.isArray(row.strategic_priorities)).toBe(true);
      expect((row.strategic_priorities as unknown[]).every((p) => typeof p === "string")).toBe(true);
      expect((row.meeting_minutes_pdfs as string[]).every((url) => url.startsWith("https://demo.example.org/"))).toBe(true);
    }
    expect(await column(`SELECT error_message AS v FROM districts WHERE status = 'error' AND fed_id <> '9900002'`)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Demo: /)]),
    );
    expect(
      await column(
        `SELECT count(*)::int AS v FROM districts WHERE status = 'pending' AND (ai_summary IS NOT NULL OR error_message IS NOT NULL)`,
      ),
    ).toEqual([0]);
    // Preferred states first: the subset covers NE, CA, FL and MI before TX and NY.
    const subsetStates = await column(`SELECT DISTINCT state AS v FROM districts WHERE left(ai_summary, 13) = 'Demo summary ' ORDER BY 1`);
    expect(subsetStates).toEqual(expect.arrayContaining(["CA", "FL", "MI", "NE"]));
  });

  it("marks every written row as demo and keeps non-demo rows apart from the documented columns", async () => {
    for (const table of DEMO_TABLES) {
      // The only non-demo rows are the ones the test inserted itself (the snapshot below proves them unchanged).
      const expected =
        ({ assessment_state_rows: 1, special_education_finance: 5, childcare_people: 1 } as Record<string, number>)[table] ?? 0;
      expect([table, await column(`SELECT count(*)::int AS v FROM "${table}" WHERE data_source IS DISTINCT FROM 'demo'`)]).toEqual([
        table,
        [expected],
      ]);
    }
    expect(await nonDemoSnapshot()).toEqual(before);
  });

  it("is idempotent: the same rows, byte for byte, on every run", async () => {
    expect(secondPrint).toEqual(firstPrint);
    expect(thirdPrint).toEqual(secondPrint);
    expect(third).toEqual(second);
    expect(second.rows).toEqual(first.rows);
    // The summary counts what is in the database afterwards (the test's own non-demo rows aside).
    for (const table of DEMO_TABLES) {
      const [demoRows] = await column<number>(`SELECT count(*)::int AS v FROM "${table}" WHERE data_source = 'demo'`);
      expect([table, demoRows]).toEqual([table, third.rows[table]]);
    }
  });

  it("seeds no opportunity: the agent writes the projects' opportunities from the demo signals, labelled demo", async () => {
    expect(await column(`SELECT count(*)::int AS v FROM opportunities`)).toEqual([0]);
    for (const { organizationId, projectId } of projects) {
      const written = await runOpportunityAgent(db, projectId);
      // The organization with the signals module reads every demo signal; the free one (no module, no follows) none.
      const [entitled] = await column<boolean>(`SELECT 'signals' = ANY(entitlements) AS v FROM organizations WHERE id = $1`, [
        organizationId,
      ]);
      if (entitled) expect(written.signalBased).toBeGreaterThan(0);
      else expect(written.signalBased).toBe(0);
    }
    const rows = await db.query<{ data_source: string; signal_ids: string[]; caveats: string; supplementary: boolean }>(
      `SELECT data_source, signal_ids::text[] AS signal_ids, caveats, supplementary FROM opportunities WHERE NOT supplementary`,
    );
    const demoSignals = new Set(await column(`SELECT id::text AS v FROM signals WHERE data_source = 'demo' AND signal_type <> 'noise'`));
    for (const row of rows) {
      expect(row.signal_ids.every((id) => demoSignals.has(id))).toBe(true);
      expect(row.data_source).toBe("demo");
      expect(row.caveats).toContain("demo signal");
    }
  });

  it("keeps intelligence within the contract's value lists, with expiring contracts and open and closed bids", async () => {
    expect(new Set(await column(`SELECT DISTINCT category AS v FROM vendors`))).toEqual(new Set(VENDOR_CATEGORIES));
    expectWithin(
      await column(`SELECT DISTINCT v.category AS v FROM entity_vendors ev JOIN vendors v ON v.id = ev.vendor_id`),
      VENDOR_CATEGORIES,
    );
    expect(new Set(await column(`SELECT DISTINCT category AS v FROM pain_points`))).toEqual(new Set(PAIN_POINT_CATEGORIES));
    expect(new Set(await column(`SELECT DISTINCT source AS v FROM funding`))).toEqual(new Set(FUNDING_SOURCES));
    expectWithin(await column(`SELECT DISTINCT category AS v FROM contracts`), VENDOR_CATEGORIES);
    // Intelligence belongs to completed entities only.
    expect(
      await column(
        `SELECT count(*)::int AS v FROM pain_points p LEFT JOIN districts d ON d.id = p.district_id LEFT JOIN schools s ON s.id = p.school_id
          WHERE coalesce(d.status, s.status) IS DISTINCT FROM 'completed'`,
      ),
    ).toEqual([0]);

    // Seeded today (no referenceDay given): every window is counted from the real current date.
    expect(first.referenceDay).toBe(new Date().toISOString().slice(0, 10));
    const [contracts] = await db.query<{ expiring: number; later: number; bad: number }>(
      `SELECT count(*) FILTER (WHERE expires_on > $1::date AND expires_on <= $1::date + interval '6 months')::int AS expiring,
              count(*) FILTER (WHERE expires_on > $1::date + interval '6 months')::int AS later,
              count(*) FILTER (WHERE starts_on >= expires_on OR starts_on > $1::date)::int AS bad
         FROM contracts`,
      [first.referenceDay],
    );
    expect(contracts!.expiring).toBeGreaterThanOrEqual(3);
    expect(contracts!.later).toBeGreaterThanOrEqual(3);
    expect(contracts!.bad).toBe(0);

    const [bids] = await db.query<{ open: number; closed: number; inconsistent: number }>(
      `SELECT count(*) FILTER (WHERE status = 'open')::int AS open, count(*) FILTER (WHERE status = 'closed')::int AS closed,
              count(*) FILTER (WHERE NOT ((status = 'open' AND deadline_at > now()) OR (status = 'closed' AND deadline_at < now()))
                                  OR posted_on >= deadline_at::date OR posted_on > current_date)::int AS inconsistent
         FROM bids`,
    );
    expect(bids!.open).toBeGreaterThan(0);
    expect(bids!.closed).toBeGreaterThan(0);
    expect(bids!.inconsistent).toBe(0);
  });

  it("writes clearly fictional contacts with every workflow status and some duplicates", async () => {
    const contacts = await db.query<{
      email: string;
      phone: string;
      linkedin_url: string;
      profile_summary: string;
      source: string;
      is_district_contact: boolean;
      school_id: string | null;
      parent_status: string;
      key_facts: { fictional_person?: boolean };
    }>(
      `SELECT c.*, coalesce(s.status, d.status) AS parent_status FROM contacts c
         LEFT JOIN schools s ON s.id = c.school_id LEFT JOIN districts d ON d.id = c.district_id`,
    );
    expect(contacts.length).toBeGreaterThan(40);
    for (const contact of contacts) {
      expect(contact.email).toMatch(/^[a-z.0-9]+@demo\.example\.org$/);
      expect(contact.phone).toMatch(/\) 555-01\d\d$/);
      expect(contact.linkedin_url.startsWith("https://demo.example.org/")).toBe(true);
      expect(contact.profile_summary).toMatch(/^Fictional demo contact \(not a real person\)/);
      expect(contact.key_facts.fictional_person).toBe(true);
      expect(contact.source).toBe("demo");
      expect(contact.is_district_contact).toBe(contact.school_id === null);
      expect(contact.parent_status).toBe("completed");
    }
    expect(new Set(await column(`SELECT DISTINCT enrichment_status AS v FROM contacts`))).toEqual(new Set(ENRICHMENT_STATUSES));
    expect(new Set(await column(`SELECT DISTINCT email_status AS v FROM contacts`))).toEqual(new Set(EMAIL_STATUSES));
    expect(new Set(await column(`SELECT DISTINCT crm_sync_status AS v FROM contacts`))).toEqual(new Set(CRM_SYNC_STATUSES));
    expect(await column(`SELECT count(*)::int AS v FROM contacts WHERE qualification_score IS NULL OR state IS NULL`)).toEqual([0]);
    const [duplicates] = await column<number>(
      `SELECT count(*)::int AS v FROM (SELECT dedupe_key FROM contacts GROUP BY dedupe_key HAVING count(*) > 1) d`,
    );
    expect(duplicates).toBeGreaterThan(0);
  });

  it("invents no leader where a state directory names the real one: the district's other demo people stay", async () => {
    const demoPeople = (districtId: string) =>
      db.query<{ id: string; title: string }>(
        `SELECT id, title FROM contacts WHERE district_id = $1 AND school_id IS NULL AND data_source = 'demo' ORDER BY id`,
        [districtId],
      );
    const [{ district_id: districtId }] = await db.query<{ district_id: string }>(
      `SELECT district_id FROM contacts WHERE data_source = 'demo' AND title = 'Superintendent' AND school_id IS NULL ORDER BY district_id LIMIT 1`,
    );
    const before = await demoPeople(districtId);
    expect(before.map((c) => c.title)).toContain("Superintendent");
    await db.query(
      `INSERT INTO contacts (name, title, state, district_id, is_district_contact, source, data_source)
       SELECT 'Real Person', 'Superintendent', state, id, true, 'state_directory', 'test_state_directory' FROM districts WHERE id = $1`,
      [districtId],
    );
    await seedDemoLayer(db, { referenceDay: first.referenceDay });
    const after = await demoPeople(districtId);
    expect(after.filter((c) => /^Superintendent/.test(c.title))).toEqual([]);
    expect(after).toEqual(before.filter((c) => !/^Superintendent/.test(c.title)));
    // Without the directory's person the demo leader comes back: the run is a function of the catalogue.
    await db.query(`DELETE FROM contacts WHERE data_source = 'test_state_directory'`);
    await seedDemoLayer(db, { referenceDay: first.referenceDay });
    expect(await fingerprint()).toEqual(thirdPrint);
  });

  it("writes timeline events, articles and signals within the contract's lists and dates", async () => {
    const events = await db.query<{ event_type: string; outside: boolean; entity_ok: boolean }>(
      `SELECT e.event_type, (e.event_date < $1::date - 1036 OR e.event_date >= $1::date) AS outside,
              (d.id IS NOT NULL OR s.id IS NOT NULL) AS entity_ok
         FROM timeline_events e
         LEFT JOIN districts d ON e.entity_type = 'district' AND d.id = e.entity_id
         LEFT JOIN schools s ON e.entity_type = 'school' AND s.id = e.entity_id`,
      [first.referenceDay],
    );
    expect(new Set(events.map((e) => e.event_type))).toEqual(new Set(EVENT_TYPES));
    expect(events.filter((e) => e.outside || !e.entity_ok)).toEqual([]);

    const [articles] = await db.query<{ n: number; bad: number }>(
      `SELECT count(*)::int AS n,
              count(*) FILTER (WHERE url NOT LIKE 'https://demo.example.org/news/%' OR published_at < $1::date - 547
                                  OR published_at > $1::date)::int AS bad
         FROM articles`,
      [first.referenceDay],
    );
    expect(articles!.n).toBeGreaterThan(10);
    expect(articles!.bad).toBe(0);

    expect(new Set(await column(`SELECT DISTINCT signal_type AS v FROM signals`))).toEqual(new Set(SIGNAL_TYPES));
    expect(new Set(await column(`SELECT DISTINCT buying_intent AS v FROM signals`))).toEqual(new Set(BUYING_INTENTS));
    const [signals] = await db.query<{ bad: number; orphans: number }>(
      `SELECT count(*) FILTER (WHERE entity_resolution_status <> 'resolved' OR entity_type NOT IN ('district', 'school') OR district_id IS NULL
                                  OR (entity_type = 'school') <> (school_id IS NOT NULL)
                                  OR extraction_confidence NOT BETWEEN 0 AND 1 OR signal_date_confidence NOT BETWEEN 0 AND 1
                                  OR evidence IS NULL OR payload IS NULL)::int AS bad,
              count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM articles a WHERE a.id = s.article_id))::int AS orphans
         FROM signals s`,
    );
    expect(signals).toEqual({ bad: 0, orphans: 0 });
    expect(await column(`SELECT count(*)::int AS v FROM signals WHERE signal_type = 'noise' AND buying_intent <> 'none'`)).toEqual([0]);
  });

  it("writes assessments whose state rows explain vs_state_pp", async () => {
    type Metric = {
      proficiency_pct: number;
      tested_count: number;
      participation_rate: number;
      state_proficiency_pct: number;
      vs_state_pp: number;
      basis: string;
    };
    const summaries = await db.query<{
      id: string;
      entity_type: string;
      district_id: string | null;
      school_id: string | null;
      state: string;
      school_year: number;
      metrics: Record<string, Metric | null>;
      ela_proficiency_pct: number | null;
      subjects_available: string[];
      coverage: Record<string, unknown>;
      data_quality: string;
      comparability_warning: string;
    }>(`SELECT * FROM assessment_summaries`);
    const gradeRows = await db.query<{
      district_id: string | null;
      school_id: string | null;
      school_year: number;
      subject: string;
      grade: string;
      proficiency_pct: number;
      tested_count: number;
    }>(`SELECT district_id, school_id, school_year, subject, grade, proficiency_pct, tested_count FROM assessment_grade_rows`);
    const stateRows = await db.query<{ state: string; school_year: number; subject: string; grade: string; proficiency_pct: number }>(
      `SELECT state, school_year, subject, grade, proficiency_pct FROM assessment_state_rows`,
    );
    const statePct = new Map(stateRows.map((r) => [`${r.state}/${r.school_year}/${r.subject}/${r.grade}`, r.proficiency_pct]));
    expect(new Set(summaries.map((s) => s.school_year))).toEqual(new Set([2022, 2023]));
    // Florida has real assessment rows, so it gets no demo ones.
    expect(summaries.filter((s) => s.state === "FL")).toEqual([]);
    expect(await column(`SELECT count(*)::int AS v FROM assessment_state_rows WHERE state = 'FL' AND data_source = 'demo'`)).toEqual([0]);
    expect(new Set(summaries.map((s) => s.state))).toEqual(new Set(["NE", "CA", "MI"]));
    expect(summaries.some((s) => s.entity_type === "district")).toBe(true);
    expect(summaries.some((s) => s.entity_type === "school")).toBe(true);

    for (const summary of summaries) {
      expect(summary.data_quality).toBe("complete");
      expect(summary.subjects_available.length).toBeGreaterThan(0);
      expect(summary.coverage).toMatchObject({
        source_name: "Demo assessment source (not real results)",
        canonical_artifact_format: "csv",
      });
      expect(summary.comparability_warning).toMatch(/^Demo data/);
      expect(summary.ela_proficiency_pct).toBe(summary.metrics.ela?.proficiency_pct ?? null);
      for (const subject of ["ela", "math", "science"]) {
        const metric = summary.metrics[subject];
        const rows = gradeRows.filter(
          (r) =>
            r.school_year === summary.school_year &&
            r.subject === subject &&
            (summary.district_id ? r.district_id === summary.district_id : r.school_id === summary.school_id),
        );
        expect(summary.subjects_available.includes(subject)).toBe(metric !== null);
        if (!metric) {
          expect(rows).toEqual([]);
          continue;
        }
        const avg = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
        const stateAverage = avg(rows.map((r) => statePct.get(`${summary.state}/${summary.school_year}/${subject}/${r.grade}`) as number));
        expect(metric.basis).toBe("grade_average");
        expect(Math.abs(metric.proficiency_pct - avg(rows.map((r) => r.proficiency_pct)))).toBeLessThanOrEqual(0.05);
        expect(Math.abs(metric.state_proficiency_pct - stateAverage)).toBeLessThanOrEqual(0.05);
        expect(Math.abs(metric.vs_state_pp - (metric.proficiency_pct - metric.state_proficiency_pct))).toBeLessThanOrEqual(0.051);
        expect(metric.tested_count).toBe(rows.reduce((sum, r) => sum + r.tested_count, 0));
        expect(metric.participation_rate).toBeGreaterThan(0);
        expect(metric.participation_rate).toBeLessThanOrEqual(100);
      }
    }
  });

  it("writes internally consistent special-education finance, derived from the real F-33 totals of each fiscal year", async () => {
    const rows = await db.query<Record<string, number>>(`SELECT * FROM special_education_finance WHERE data_source = 'demo'`);
    const real = new Map(
      (
        await db.query<Record<string, number>>(
          `SELECT district_id, finance_fiscal_year, total_enrollment, total_revenue, total_expenditures, federal_revenue
             FROM district_annual_stats WHERE finance_fiscal_year IS NOT NULL`,
        )
      ).map((r) => [`${r.district_id}/${r.finance_fiscal_year}`, r]),
    );
    // NE districts have real rows, so none of them gets demo ones.
    expect(
      await column(
        `SELECT count(*)::int AS v FROM special_education_finance f JOIN districts d ON d.id = f.district_id WHERE d.state = 'NE' AND f.data_source = 'demo'`,
      ),
    ).toEqual([0]);
    expect(rows.length).toBeGreaterThan(0);
    // Only fiscal years with real totals; the totals are the real ones, the invented amounts within them.
    expect(new Set(rows.map((r) => r.fiscal_year))).toEqual(new Set([2020, 2021]));
    expect(rows.some((r) => r.total_federal_revenue === null)).toBe(true);
    for (const r of rows) {
      const served = real.get(`${r.district_id}/${r.fiscal_year}`);
      expect(served).toBeDefined();
      expect([r.total_enrollment, r.total_revenue, r.total_expenditures, r.total_federal_revenue]).toEqual([
        served!.total_enrollment,
        served!.total_revenue,
        served!.total_expenditures,
        served!.federal_revenue,
      ]);
      expect(r.idea_part_b_revenue).toBeLessThanOrEqual(served!.federal_revenue ?? served!.total_revenue);
      expect(r.special_ed_current_expenditures).toBeLessThanOrEqual(served!.total_expenditures);
      expect(r.idea_child_count).toBeLessThanOrEqual(served!.total_enrollment);
      const n = r.idea_child_count as number;
      expect(Math.abs((r.idea_revenue_per_sped_student as number) - (r.idea_part_b_revenue as number) / n)).toBeLessThanOrEqual(0.005);
      expect(
        Math.abs((r.special_ed_current_expenditures_per_sped_student as number) - (r.special_ed_current_expenditures as number) / n),
      ).toBeLessThanOrEqual(0.005);
      expect(Math.abs((r.sped_enrollment_pct as number) - (n / (r.total_enrollment as number)) * 100)).toBeLessThanOrEqual(0.005);
      expect(
        Math.abs(
          (r.idea_revenue_share_of_total_revenue_pct as number) - ((r.idea_part_b_revenue as number) / (r.total_revenue as number)) * 100,
        ),
      ).toBeLessThanOrEqual(0.005);
      for (const pct of [r.sped_enrollment_pct, r.idea_revenue_share_of_total_revenue_pct]) {
        expect(pct).toBeGreaterThanOrEqual(0);
        expect(pct).toBeLessThanOrEqual(100);
      }
      const parts =
        (r.special_ed_instructional_expenditures as number) +
        (r.special_ed_student_support_expenditures as number) +
        (r.special_ed_instructional_staff_support_expenditures as number) +
        (r.special_ed_transportation_expenditures as number);
      expect(parts).toBeLessThanOrEqual(r.special_ed_current_expenditures as number);
      expect(r.school_year_start).toBe((r.fiscal_year as number) - 1);
    }
  });

  it("writes associations with people and sections, and staff for childcare centers", async () => {
    expect(new Set(await column(`SELECT DISTINCT kind AS v FROM associations`))).toEqual(new Set(ASSOCIATION_KINDS));
    expect(
      await column(
        `SELECT count(*)::int AS v FROM associations WHERE name NOT LIKE '%Demo%' OR website_url NOT LIKE 'https://demo.example.org/%'`,
      ),
    ).toEqual([0]);
    const [sections] = await column<number>(
      `SELECT count(*)::int AS v FROM associations a JOIN associations p ON p.id = a.parent_association_id`,
    );
    expect(sections).toBeGreaterThan(0);
    expect(new Set(await column<boolean>(`SELECT DISTINCT redacted AS v FROM association_people`))).toEqual(new Set([true, false]));
    expect(
      await column(
        `SELECT count(*)::int AS v FROM association_people p WHERE NOT EXISTS (SELECT 1 FROM associations a WHERE a.id = p.association_id)`,
      ),
    ).toEqual([0]);
    // The center whose roster names real staff gets no invented ones.
    expect(await column(`SELECT count(DISTINCT center_id)::int AS v FROM childcare_people WHERE data_source = 'demo'`)).toEqual([2]);
    expect(
      await column(
        `SELECT count(*)::int AS v FROM childcare_people p JOIN childcare_centers c ON c.id = p.center_id WHERE c.source_key = 'ne:1' AND p.data_source = 'demo'`,
      ),
    ).toEqual([0]);
  });

  it("gives no assessment results to a school without a tested grade", async () => {
    const [completedK2] = await column<number>(`SELECT count(*)::int AS v FROM schools WHERE grade_high = '02' AND status = 'completed'`);
    expect(completedK2).toBeGreaterThan(0);
    expect(
      await column(
        `SELECT count(*)::int AS v FROM schools s WHERE s.grade_high = '02'
            AND (EXISTS (SELECT 1 FROM assessment_summaries a WHERE a.school_id = s.id)
                 OR EXISTS (SELECT 1 FROM assessment_grade_rows g WHERE g.school_id = s.id))`,
      ),
    ).toEqual([0]);
  });

  it("lets concurrent seeders run one after the other with the same result", async () => {
    const results = await Promise.all([seedDemoLayer(db), seedDemoLayer(db)]);
    expect(results).toEqual([third, third]);
    expect(await fingerprint()).toEqual(thirdPrint);
  });

  it("moves the subset cleanly when the catalogue grows: demo marks outside it return to pending", async () => {
    // Ten new, larger NE districts push earlier picks out of the round-robin.
    await db.query(
      `INSERT INTO districts (fed_id, name, state, student_count, data_source)
       SELECT '98' || lpad(n::text, 5, '0'), 'Big District ' || n, 'NE', 900000 + n, 'test' FROM generate_series(1, 10) AS n`,
    );
    const grown = await seedDemoLayer(db);
    expect(grown.districts.reset).toBeGreaterThan(0);
    const [marks] = await db.query<{ completed: number; errors: number; processing: number }>(
      `SELECT count(*) FILTER (WHERE left(ai_summary, 13) = 'Demo summary ')::int AS completed,
              count(*) FILTER (WHERE left(error_message, 6) = 'Demo: ')::int AS errors,
              count(*) FILTER (WHERE status = 'processing')::int AS processing
         FROM districts`,
    );
    expect(marks).toEqual({ completed: grown.districts.completed, errors: grown.districts.error, processing: grown.districts.processing });
    // Contacts and intelligence follow the new subset.
    expect(
      await column(
        `SELECT count(*)::int AS v FROM contacts c JOIN districts d ON d.id = c.district_id WHERE c.school_id IS NULL AND d.status <> 'completed'`,
      ),
    ).toEqual([0]);
  });
});

describe("demo dates", () => {
  const entities = Array.from({ length: 12 }, (_, i) =>
    districtEntity(
      {
        id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        fed_id: String(3100000 + i),
        name: `Dates Test District ${i}`,
        state: "NE",
        physical_city: "Lincoln",
        student_count: 4000 + i * 500,
        school_count: 5,
        phone: null,
      },
      i,
    ),
  );
  const build = (day: string) => withReferenceDay(day, () => buildIntelligence(DEFAULT_DEMO_SEED, entities));
  const days = (a: string, b: string) => Math.round((Date.parse(a) - Date.parse(b)) / 86_400_000);

  it("are offsets from the reference day: reproducible for one day, shifted whole for another", () => {
    expect(build("2031-02-17")).toEqual(build("2031-02-17"));
    const a = build("2026-11-01");
    const b = build("2031-02-17");
    const shift = days("2031-02-17", "2026-11-01");
    expect(b.contracts.map((c) => days(String(c.expires_on), String(c.starts_on)))).toEqual(
      a.contracts.map((c) => days(String(c.expires_on), String(c.starts_on))),
    );
    b.contracts.forEach((c, i) => expect(days(String(c.expires_on), String(a.contracts[i]!.expires_on))).toBe(shift));
    b.bids.forEach((bid, i) => expect(days(String(bid.deadline_at), String(a.bids[i]!.deadline_at))).toBe(shift));
    // Bids seeded on a day are open after it or closed before it; "expiring" contracts end within six months of it.
    for (const bid of b.bids) expect(bid.status === "open").toBe(String(bid.deadline_at) > "2031-02-17");
    expect(b.contracts.some((c) => String(c.expires_on) > "2031-02-17" && String(c.expires_on) <= "2031-08-17")).toBe(true);
    expect(b.contracts[0]!.created_at).toBe("2031-02-17T00:00:00.000Z");
  });

  it("refuses a reference day that is not YYYY-MM-DD", () => {
    expect(() => build("2031-02-30")).toThrow(/YYYY-MM-DD/);
    expect(() => build("17/02/2031")).toThrow(/YYYY-MM-DD/);
  });
});

describe("the demo organizations", () => {
  it("are created with projects whose profile passes the profile check (a refused one stopped the first start)", async () => {
    const db = await createTestDb();
    try {
      const { organizations } = await seedDemoOrganizations(db);
      const projects = await db.prisma.project.findMany({ select: { id: true, icp: true } });
      expect(projects.map((p) => p.id).sort()).toEqual(
        Object.values(organizations)
          .map((o) => o.projectId)
          .sort(),
      );
      for (const { icp } of projects) expect(checkIcp(icp)).toEqual(icp);
      // A second run keeps them.
      expect((await seedDemoOrganizations(db)).organizations).toEqual(organizations);
    } finally {
      await db.close();
    }
  });
});
