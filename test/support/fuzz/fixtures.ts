/**
 * The data the fuzzer runs against: a small catalogue of every kind (districts and schools with several school
 * years of statistics, contacts, intelligence, events, early childhood, associations), the demo layer on top
 * (news, signals, assessments, more contacts and intelligence), and rows of the test organizations (projects,
 * lists, follows, unlocks of another organization). Then every gated column of every contact, district and
 * school (their access policies' `gatedColumns`) is overwritten with a canary naming its record, so any response
 * that carries one to an organization that has not unlocked that record is a leak, wherever it shows.
 */
import type { Db } from "../../../src/db/client";
import type { AccessPolicy } from "../../../src/features/account/access/access.service";
import { CONTACT_ACCESS } from "../../../src/features/catalogue/contacts/contact.service";
import { DISTRICT_ACCESS } from "../../../src/features/catalogue/districts/district.service";
import { SCHOOL_ACCESS } from "../../../src/features/catalogue/schools/school.service";
import { buildDossier } from "../../../src/features/research/briefs/brief.dossier";
import { runOpportunityAgent } from "../../../src/features/research/opportunities/opportunity.agent";
import { loadEnv } from "../../../src/config/env";
import { seedDemoLayer } from "../../../src/seed/demo/demo.service";
import { insertContactCatalogue } from "../../contacts/fixtures";
import { insertAssessmentSummary, insertEvent, insertIntelligence } from "../block-factories";
import { insertCenter, insertHeadStart, insertOperator } from "../early-childhood-factories";
import { insert, insertDistrict, insertDistrictStats } from "../factories";
import { insertFollow, insertList, insertSchool, insertSchoolStats, insertUnlock } from "../school-factories";
import type { FuzzData } from "./inputs";
import { CANARY_PREFIX } from "./oracle";
import type { PlanKey } from "../plans";

export const GATED_POLICIES: readonly AccessPolicy[] = [CONTACT_ACCESS, DISTRICT_ACCESS, SCHOOL_ACCESS];

/** The canary of record `alias` (oracle.ts CANARY_PREFIX and the id without dashes), in SQL. */
const canarySql = (alias: string) => `'${CANARY_PREFIX}' || replace(${alias}.id::text, '-', '')`;

/** GraphQL type name -> table, for the id pools. */
const ID_TABLES: Record<string, string> = {
  District: "districts",
  School: "schools",
  Contact: "contacts",
  Operator: "operators",
  HeadStartProgram: "head_start_programs",
  ChildcareCenter: "childcare_centers",
  Association: "associations",
  NewsArticle: "articles",
  Bid: "bids",
  Vendor: "vendors",
  List: "lists",
  Project: "projects",
  Follow: "follows",
  Webhook: "webhooks",
  Opportunity: "opportunities",
  Brief: "briefs",
  EmailTemplate: "email_templates",
};

const YEARS = [2019, 2020, 2021, 2022, 2023];

/** Inserts the catalogue and the organizations' rows; returns what the generators draw from. */
export async function seedFuzzData(db: Db, orgs: Record<PlanKey, string>): Promise<FuzzData> {
  const districts: string[] = [];
  for (const [i, state] of ["NE", "NE", "IA", "TX", "CA", "NY"].entries()) {
    const id = await insertDistrict(db, {
      name: `Fuzz District ${i}`,
      state,
      status: i < 4 ? "completed" : i === 4 ? "pending" : "error",
      student_count: 500 + i * 700,
      county: `County ${i}`,
      district_type: "Regular local school district",
      physical_city: `City ${i}`,
      locale_code: ["11", "21", "32", "43"][i % 4],
    });
    districts.push(id);
    for (const year of YEARS)
      await insertDistrictStats(db, id, year, {
        total_enrollment: 500 + i * 700 + year,
        teachers_fte: 30 + i,
        total_revenue: i === 2 ? null : 1e6 * (i + 1) + year,
        student_teacher_ratio: i === 3 ? 0 : 14.5 + i,
        school_age_poverty_pct: 10 + i * 3,
      });
  }
  const schools: string[] = [];
  for (const [i, district] of districts.entries()) {
    for (const n of [0, 1]) {
      const id = await insertSchool(db, {
        name: `Fuzz School ${i}-${n}`,
        district_id: district,
        state: "NE",
        status: n === 0 ? "completed" : "pending",
        student_count: 100 + i * 50 + n,
        grade_low: n === 0 ? "KG" : "09",
        grade_high: n === 0 ? "05" : "12",
      });
      schools.push(id);
      for (const year of YEARS.slice(2))
        await insertSchoolStats(db, id, year, { total_enrollment: 100 + year - 2000, free_or_reduced_price_lunch_pct: i === 1 ? 0 : 40.5 });
    }
  }
  await insertAssessmentSummary(db, { district_id: districts[0]! }, 2022);
  await insertAssessmentSummary(db, { school_id: schools[0]! }, 2023);
  const intelligence = await insertIntelligence(db, { district_id: districts[0]! }, "fuzz");
  await insertIntelligence(db, { school_id: schools[0]! }, "fuzz-school");
  await insertEvent(db, "district", districts[0]!, "2026-01-05");
  await insertEvent(db, "district", districts[0]!, "2026-02-05", {
    event_type: "contract_award",
    title: "Award",
    description: "secret terms",
  });
  await insertEvent(db, "school", schools[0]!, "2026-01-06");
  const catalogue = await insertContactCatalogue(db);
  const operator = await insertOperator(db, { name: "Fuzz Operator", state: "NE" });
  const headStart = await insertHeadStart(db, { name: "Fuzz Head Start", state: "NE", operator_id: operator });
  await insertHeadStart(db, { name: "Fuzz Delegate", state: "NE", operator_id: operator, parent_program_id: headStart });
  await insertCenter(db, { name: "Fuzz Center", state: "NE", operator_id: operator, capacity: 80 });
  const association = await insert(db, "associations", {
    slug: "fuzz-assoc",
    name: "Fuzz Association",
    kind: "other",
    state: "NE",
    data_source: "demo",
  });
  await insert(db, "association_people", { association_id: association, name: "Fuzz Person", title: "Director", data_source: "demo" });
  await seedDemoLayer(db);

  // Rows of the organizations: each has a list and a follow; pro unlocked what the others have not.
  for (const caller of ["free", "enterprise", "internal"] as const) {
    await insertList(db, orgs[caller], "district", districts.slice(0, 2));
    await insertFollow(db, orgs[caller], "district", districts[1]!);
  }
  await insertUnlock(db, orgs.pro, "district", catalogue.d.alpha);
  await insertUnlock(db, orgs.pro, "contact", catalogue.c.ada);
  await insertUnlock(db, orgs.pro, "district", districts[0]!);
  await insertUnlock(db, orgs.enterprise, "district", districts[3]!);
  await insert(db, "bid_filings", { organization_id: orgs.enterprise, bid_id: intelligence.openBidId, action: "save" });

  await insert(db, "webhooks", {
    organization_id: orgs.enterprise,
    url: "https://hooks.example.org/fuzz",
    events: ["brief.ready"],
    secret: "whsec_fuzz",
  });

  await plantCanaries(db);
  // Built from the data as it now is (canaries included), by the service's own builders: what serves them must gate them.
  const project = await insert(db, "projects", { organization_id: orgs.enterprise, name: "Fuzz project" });
  await runOpportunityAgent(db, project);
  for (const [entityType, entityId] of [
    ["district", districts[0]!],
    ["district", districts[3]!],
    ["district", catalogue.d.alpha],
    ["school", schools[0]!],
  ] as const) {
    const built = await buildDossier(db, loadEnv({}), { organization_id: orgs.enterprise, entity_type: entityType, entity_id: entityId });
    await insert(db, "briefs", {
      organization_id: orgs.enterprise,
      project_id: project,
      entity_type: entityType,
      entity_id: entityId,
      status: "ready",
      dossier: built.dossier,
      generator: built.generator,
      finished_at: new Date(),
    });
  }
  const fedIds = async (table: string) =>
    (await db.query<{ fed_id: string }>(`SELECT fed_id FROM ${table} ORDER BY fed_id LIMIT 5`)).map((r) => r.fed_id);
  return {
    ids: await idPools(db, orgs.enterprise),
    words: ["Fuzz", "District", "Alpha", "Ada", "Superintendent", "County 0", "City 1", "NE", "lms", "fuzz-assoc"],
    fedIds: { District: await fedIds("districts"), School: await fedIds("schools") },
    years: YEARS,
  };
}

/** Each gated text or JSON column of each record of a gated resource holds the record's canary. */
async function plantCanaries(db: Db): Promise<void> {
  for (const policy of GATED_POLICIES) {
    const table = `${policy.entityType}s`;
    const types = await db.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = ANY($2::text[])`,
      [table, [...policy.gatedColumns]],
    );
    const sets = types.flatMap(({ column_name: column, data_type: type }) => {
      if (type === "text" || type.startsWith("character")) return [`"${column}" = ${canarySql("t")}`];
      if (type === "jsonb" || type === "json") return [`"${column}" = jsonb_build_array(${canarySql("t")})`];
      return []; // a timestamp cannot carry a canary
    });
    if (!sets.length) throw new Error(`${table}: no gated column can carry a canary`);
    await db.query(`UPDATE ${table} t SET ${sets.join(", ")}`);
  }
}

/**
 * Up to 25 ids of each kind. Rows an organization owns (lists, projects, webhooks ...) are the enterprise
 * organization's first, the caller of most requests: the others' ids are still drawn now and then (they must 404).
 */
async function idPools(db: Db, enterprise: string): Promise<Record<string, string[]>> {
  const pools: Record<string, string[]> = {};
  for (const [type, table] of Object.entries(ID_TABLES)) {
    const [owned] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'organization_id'`,
      [table],
    );
    const rows = owned!.n
      ? await db.query<{ id: string }>(`SELECT id::text AS id FROM ${table} ORDER BY organization_id IS DISTINCT FROM $1, id LIMIT 25`, [
          enterprise,
        ])
      : await db.query<{ id: string }>(`SELECT id::text AS id FROM ${table} ORDER BY id LIMIT 25`);
    if (rows.length) pools[type] = rows.map((r) => r.id);
  }
  return pools;
}

/** Whether organization `organizationId` has unlocked the record `id` (of any gated resource) now. */
export async function hasUnlockedRecord(db: Db, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM unlocks WHERE organization_id = $1 AND entity_id = $2 AND state = 'unlocked'`,
    [organizationId, id],
  );
  return rows[0]!.n > 0;
}

/**
 * Loads what the app loads on first use, before the clock starts: the offline embedding model of semantic search
 * takes seconds to load (on a loaded 2-core machine, most of the 10 s a request may take), once per process.
 */
export async function warmUp(base: string, apiKey: string): Promise<void> {
  const res = await fetch(`${base}/api/v1/semantic-search`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ query: "warm up", entity_type: "district" }),
  });
  if (res.status !== 200) throw new Error(`warm-up: POST /api/v1/semantic-search answered ${res.status} ${await res.text()}`);
}
