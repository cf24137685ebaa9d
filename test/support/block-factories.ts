/**
 * Rows behind the nested blocks of districts and schools (assessments, special-education finance,
 * intelligence, timeline events) and the caller-specific rows that gate them (unlocks, follows,
 * bid filings). `owner` names the entity: { district_id } or { school_id }.
 */
import type { Db } from "../../src/db/client";
import { insert } from "./factories";

export type Owner = { district_id: string } | { school_id: string };

const kindOf = (owner: Owner): "district" | "school" => ("district_id" in owner ? "district" : "school");
const idOf = (owner: Owner): string => ("district_id" in owner ? owner.district_id : owner.school_id);

export function assessmentMetric(proficiency: number, state: number): Record<string, unknown> {
  return {
    proficiency_pct: proficiency,
    tested_count: 400,
    participation_rate: 97.5,
    state_proficiency_pct: state,
    vs_state_pp: Math.round((proficiency - state) * 10) / 10,
    basis: "grade_average",
  };
}

export async function insertAssessmentSummary(db: Db, owner: Owner, year: number, values: Record<string, unknown> = {}): Promise<string> {
  return insert(db, "assessment_summaries", {
    entity_type: kindOf(owner),
    ...owner,
    source_id: "test-assessment",
    state: "NE",
    school_year: year,
    data_quality: "complete",
    subjects_available: ["ela", "math"],
    metrics: { ela: assessmentMetric(50, 45), math: assessmentMetric(40, 42), science: null },
    ela_proficiency_pct: 50,
    math_proficiency_pct: 40,
    grade_summary: { grades: { "03": { ela: 50 } } },
    source_manifest_uri: `https://example.test/${year}/manifest.json`,
    canonical_artifact_uri: `https://example.test/${year}/results.csv`,
    coverage: {
      source_id: "test-assessment",
      source_name: "Test assessment source",
      publication_status: "final",
      published_at: `${year + 1}-09-15T00:00:00.000Z`,
      canonical_artifact_uri: `https://example.test/${year}/results.csv`,
      canonical_artifact_format: "csv",
      manifest_uri: `https://example.test/${year}/manifest.json`,
      quality_summary: { suppressed_rows: 0 },
    },
    comparability_warning: "Test figures.",
    data_source: "test",
    ...values,
  });
}

const resultColumns = (proficiency: number) => ({
  student_group_type: "all",
  student_group: "All students",
  student_group_id: "all",
  enrolled_count: 100,
  tested_count: 98,
  tested_with_scores_count: 97,
  proficiency_count: Math.round(proficiency * 0.97),
  proficiency_pct: proficiency,
  participation_rate: 98,
  mean_scale_score: 2400.5,
  data_quality: "complete",
  suppression_code: null,
  data_source: "test",
});

export async function insertGradeRow(
  db: Db,
  owner: Owner,
  year: number,
  grade: string,
  subject: string,
  proficiency = 50,
  state = "NE",
): Promise<string> {
  return insert(db, "assessment_grade_rows", {
    entity_type: kindOf(owner),
    ...owner,
    source_id: "test-assessment",
    state,
    school_year: year,
    grade,
    subject,
    ...resultColumns(proficiency),
  });
}

export async function insertStateRow(
  db: Db,
  state: string,
  year: number,
  grade: string,
  subject: string,
  proficiency = 45,
): Promise<string> {
  return insert(db, "assessment_state_rows", {
    source_id: "test-assessment",
    state,
    school_year: year,
    grade,
    subject,
    ...resultColumns(proficiency),
  });
}

export async function insertSpecialEducationFinance(
  db: Db,
  districtId: string,
  fiscalYear: number,
  values: Record<string, unknown> = {},
): Promise<string> {
  return insert(db, "special_education_finance", {
    district_id: districtId,
    fiscal_year: fiscalYear,
    school_year_start: fiscalYear - 1,
    total_enrollment: 1000,
    idea_child_count: 150,
    idea_part_b_revenue: 300_000 + fiscalYear,
    sped_enrollment_pct: 15,
    idea_child_count_status: "reported",
    f33_version: `F-33 FY${fiscalYear}`,
    source_f33_url: "https://example.test/f33",
    data_source: "test",
    ...values,
  });
}

export async function insertUnlock(
  db: Db,
  organizationId: string,
  entityType: string,
  entityId: string,
  state = "unlocked",
): Promise<string> {
  return insert(db, "unlocks", {
    organization_id: organizationId,
    entity_type: entityType,
    entity_id: entityId,
    state,
    credits_spent: state === "unlocked" ? 6 : 0,
    unlocked_at: state === "unlocked" ? new Date("2026-01-02T03:04:05.678Z") : null,
  });
}

export async function insertFollow(db: Db, organizationId: string, entityType: string, entityId: string): Promise<string> {
  const projectId = await insert(db, "projects", { organization_id: organizationId, name: "Follow project" });
  return insert(db, "follows", { organization_id: organizationId, project_id: projectId, entity_type: entityType, entity_id: entityId });
}

let vendorCounter = 0;

/** One row of each intelligence list for the entity; returns their ids. */
export async function insertIntelligence(db: Db, owner: Owner, label = "x") {
  const entity_type = kindOf(owner);
  vendorCounter += 1;
  const vendorId = await insert(db, "vendors", { name: `Vendor ${label} ${vendorCounter}`, category: "lms", data_source: "test" });
  await insert(db, "entity_vendors", { entity_type, ...owner, vendor_id: vendorId, data_source: "test" });
  const painPointId = await insert(db, "pain_points", {
    entity_type,
    ...owner,
    category: "staffing",
    description: `Shortage ${label}`,
    source_url: "https://example.test/pain",
    detected_at: new Date("2026-03-01T00:00:00.000Z"),
    data_source: "test",
  });
  const fundingId = await insert(db, "funding", {
    entity_type,
    ...owner,
    source: "title_i",
    amount: 125000.5,
    fiscal_year: 2026,
    description: "Title I",
    data_source: "test",
  });
  const contractId = await insert(db, "contracts", {
    entity_type,
    ...owner,
    vendor_id: vendorId,
    category: "lms",
    amount: 50000,
    starts_on: "2025-07-01",
    expires_on: "2027-06-30",
    data_source: "test",
  });
  const openBidId = await insert(db, "bids", {
    entity_type,
    ...owner,
    title: `Open RFP ${label}`,
    status: "open",
    posted_on: "2026-10-01",
    deadline_at: new Date(Date.now() + 30 * 86_400_000),
    url: "https://example.test/rfp-open",
    data_source: "test",
  });
  const lapsedBidId = await insert(db, "bids", {
    entity_type,
    ...owner,
    title: `Lapsed RFP ${label}`,
    status: "open",
    posted_on: "2026-01-01",
    deadline_at: new Date(Date.now() - 86_400_000),
    url: "https://example.test/rfp-lapsed",
    data_source: "test",
  });
  return { vendorId, painPointId, fundingId, contractId, openBidId, lapsedBidId, entityId: idOf(owner) };
}

export async function insertBidFiling(
  db: Db,
  organizationId: string,
  bidId: string,
  action: string,
  reasonCode: string | null = null,
  reasonNote: string | null = null,
) {
  return insert(db, "bid_filings", {
    organization_id: organizationId,
    bid_id: bidId,
    action,
    reason_code: reasonCode,
    reason_note: reasonNote,
  });
}

export async function insertEvent(
  db: Db,
  entityType: string,
  entityId: string,
  eventDate: string,
  values: Record<string, unknown> = {},
): Promise<string> {
  return insert(db, "timeline_events", {
    entity_type: entityType,
    entity_id: entityId,
    event_date: eventDate,
    // A public kind: events of the gated kinds (src/features/catalogue/events/event.access.ts) are served in their
    // public form to callers that did not unlock the entity.
    event_type: "news",
    title: `News ${eventDate}`,
    description: "Local coverage",
    source_url: "https://example.test/event",
    data_source: "test",
    ...values,
  });
}
