/**
 * A brief's dossier (docs/briefs.md), assembled by the `briefs.build` job from what the database holds
 * about the entity: its profile, yearly statistics and finance (federal files), its people (listed
 * catalogue contacts, and for a district the people of the childcare centers it operates), its extracted
 * findings (vendors, bids, priorities, pain points, funding, contracts, each with its source_url) and
 * recent timeline events, plus a narrative from the text generator (the default uses no language model
 * and says so).
 *
 * Gating: the extracted findings and summary are the entity's gated intelligence (contract section 4).
 * They enter the dossier only when the brief's organization had unlocked the entity when the build ran;
 * otherwise the findings section says they are withheld, and the narrative is made without them. People
 * carry names, titles and the catalogue contact id, never a contact's gated fields (email, phone ...). Events
 * are stored whole and presented on every read with the organization's unlock then (brief.service.ts); those
 * restating gated intelligence reach the narrative only when unlocked (src/features/catalogue/events/event.access.ts).
 *
 * Honesty: `data_source` lists, per section, the data_source values (or federal file versions) of the rows
 * it was built from, and `demo_sections` names the sections that contain demo rows (docs/demo-data.md).
 */
import crypto from "node:crypto";
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { listedContactsOfParent, NAME_KEY_SQL } from "../../catalogue/contacts/contact.service";
import { presentEvent } from "../../catalogue/events/event.access";
import { decodeLatestEvents, latestEventsSql, type SourcedEvent } from "../../catalogue/events/event.blocks";
import { ENTITY_SQL, type EntityKind } from "../../kits/common/entity-kind";
import { decodeFindings, findingsSql, type Findings, type FindingsName } from "../intelligence/intelligence.blocks";
import { textGeneratorFromEnv, type TextGenerator, type TextSource } from "../text-generation/text-generation";
import type { BriefEntityType } from "./brief.type";

/** People listed in one dossier at most (a large district has hundreds of contacts). */
export const DOSSIER_PEOPLE_LIMIT = 100;
/** Timeline events in one dossier: the latest, as the record serves them. */
export const DOSSIER_EVENTS_LIMIT = 10;
/** Rows of each findings list at most (the most recent first, as the district and school records order them). */
export const FINDINGS_LIMIT = 50;
const NARRATIVE_WORDS = 250;

export interface DossierSubject {
  organization_id: string;
  entity_type: BriefEntityType | string;
  entity_id: string;
}

export interface DossierPerson {
  person_key: string;
  name: string;
  title: string | null;
  roles: string[];
  /** The catalogue contact of this person (GET /contacts/{id}), or null when the catalogue has none. */
  contact_id: string | null;
  source_urls: string[];
  data_source: string[];
}

/**
 * The stable key of a person in the dossiers of one entity: a hash of the entity and the person's name
 * as NAME_KEY_SQL normalizes it, so a rebuild (or another project's brief of the same entity) names the
 * same person by the same key, and a catalogue contact and a childcare director of one name are one person.
 */
export function personKey(entityType: string, entityId: string, nameKey: string): string {
  return `p_${crypto.createHash("sha256").update(`${entityType}/${entityId}/${nameKey}`).digest("hex").slice(0, 24)}`;
}

export const PERSON_KEY_PATTERN = /^p_[0-9a-f]{24}$/;

const distinct = <T>(values: (T | null | undefined)[]): T[] => [...new Set(values.filter((v): v is T => v != null && v !== ""))];

/** The percent change between two values, rounded to 0.1 (null when either is missing or the base is 0). */
function percentChange(from: number | null | undefined, to: number | null | undefined): number | null {
  if (from == null || to == null || from === 0) return null;
  return Math.round(((to - from) / from) * 1000) / 10;
}

export interface BuiltDossier {
  dossier: Record<string, unknown>;
  /** The text generator's name (briefs.generator). */
  generator: string;
}

let override: TextGenerator | undefined;
/** Tests and the bench may hand the builds their own generator (e.g. to count calls); undefined restores the configured one. */
export function useBriefTextGenerator(generator: TextGenerator | undefined): void {
  override = generator;
}

/** Builds the dossier of a brief's entity; throws when the entity no longer exists. */
export async function buildDossier(db: Db, env: Env, subject: DossierSubject, now = new Date()): Promise<BuiltDossier> {
  const kind = subject.entity_type === "school" ? "school" : "district";
  const id = subject.entity_id;
  const entity =
    kind === "district" ? await db.prisma.district.findUnique({ where: { id } }) : await db.prisma.school.findUnique({ where: { id } });
  if (!entity) throw new Error(`${kind} ${id} no longer exists`);
  const district = kind === "district" ? (entity as NonNullable<Awaited<ReturnType<typeof db.prisma.district.findUnique>>>) : null;
  const school = kind === "school" ? (entity as NonNullable<Awaited<ReturnType<typeof db.prisma.school.findUnique>>>) : null;

  const unlock = await db.prisma.unlock.findUnique({
    where: { organization_id_entity_type_entity_id: { organization_id: subject.organization_id, entity_type: kind, entity_id: id } },
    select: { state: true },
  });
  const unlocked = unlock?.state === "unlocked";

  // ---- profile
  const parentDistrict = school?.district_id
    ? await db.prisma.district.findUnique({ where: { id: school.district_id }, select: { id: true, name: true, fed_id: true } })
    : null;
  const profile = district
    ? {
        fed_id: district.fed_id,
        name: district.name,
        state: district.state,
        city: district.physical_city,
        county: district.county,
        district_type: district.district_type,
        locale_type: district.locale_type,
        grade_span: district.grade_span,
        student_count: district.student_count,
        school_count: district.school_count,
        teachers_fte: district.teachers_fte,
        total_staff: district.total_staff,
        student_teacher_ratio: district.student_teacher_ratio,
        website_url: district.website_url,
        phone: district.phone,
        fed_data_year: district.fed_data_year,
        data_source: district.data_source,
      }
    : {
        fed_id: school!.fed_id,
        name: school!.name,
        state: school!.state,
        city: school!.physical_city,
        county: school!.county,
        school_type: school!.school_type,
        locale_type: school!.locale_type,
        grade_levels: school!.grade_levels,
        student_count: school!.student_count,
        teachers_fte: school!.teachers_fte,
        student_teacher_ratio: school!.student_teacher_ratio,
        website_url: school!.website_url,
        phone: school!.phone,
        fed_data_year: school!.fed_data_year,
        district: parentDistrict,
        data_source: school!.data_source,
      };

  // ---- statistics and finance (yearly rows, oldest first)
  let statistics: Record<string, unknown>;
  let finance: Record<string, unknown> | null = null;
  const statisticSources: string[] = [];
  const financeSources: string[] = [];
  if (district) {
    const rows = await db.prisma.districtAnnualStat.findMany({ where: { district_id: id }, orderBy: { school_year_start: "asc" } });
    const trend = rows.map((r) => ({
      school_year_start: r.school_year_start,
      total_enrollment: r.total_enrollment,
      teachers_fte: r.teachers_fte,
      total_staff_fte: r.total_staff_fte,
      student_teacher_ratio: r.student_teacher_ratio,
      school_age_poverty_pct: r.school_age_poverty_pct,
    }));
    statisticSources.push(
      ...distinct(rows.flatMap((r) => [r.fed_membership_version, r.fed_staff_version, r.fed_directory_version, r.saipe_version])),
    );
    const financeRows = rows.filter((r) => r.total_revenue != null || r.total_expenditures != null);
    finance = {
      trend: financeRows.map((r) => ({
        school_year_start: r.school_year_start,
        finance_fiscal_year: r.finance_fiscal_year,
        total_revenue: r.total_revenue,
        local_revenue: r.local_revenue,
        state_revenue: r.state_revenue,
        federal_revenue: r.federal_revenue,
        total_expenditures: r.total_expenditures,
        current_expenditures: r.current_expenditures,
        revenue_per_student: r.revenue_per_student,
        current_expenditures_per_student: r.current_expenditures_per_student,
      })),
    };
    financeSources.push(...distinct(financeRows.map((r) => r.f33_version)));
    statistics = { trend, enrollment_change: enrollmentChange(trend) };
  } else {
    const rows = await db.prisma.schoolAnnualStat.findMany({ where: { school_id: id }, orderBy: { school_year_start: "asc" } });
    const trend = rows.map((r) => ({
      school_year_start: r.school_year_start,
      total_enrollment: r.total_enrollment,
      teachers_fte: r.teachers_fte,
      student_teacher_ratio: r.student_teacher_ratio,
      free_or_reduced_price_lunch_pct: r.free_or_reduced_price_lunch_pct,
    }));
    statisticSources.push(
      ...distinct(rows.flatMap((r) => [r.fed_membership_version, r.fed_staff_version, r.fed_directory_version, r.fed_lunch_version])),
    );
    statistics = { trend, enrollment_change: enrollmentChange(trend) };
  }

  // ---- people
  const people = await readPeople(db, kind, id);

  // ---- findings (gated: only when the organization unlocked the entity)
  let findings: Record<string, unknown>;
  const findingSources: string[] = [];
  const sources: TextSource[] = [];
  const facts: string[] = [];
  if (unlocked) {
    const read = await readFindings(db, subject.organization_id, kind, id);
    // Named in the order the dossier has always listed them.
    const truncated = (["vendors", "bids", "pain_points", "funding", "contracts"] as const).filter(
      (name) => read[name].length > FINDINGS_LIMIT,
    );
    const cut = <K extends FindingsName>(name: K) => read[name].slice(0, FINDINGS_LIMIT) as Findings[K];
    const [painPoints, vendors, funding, contracts, bids] = [
      cut("pain_points"),
      cut("vendors"),
      cut("funding"),
      cut("contracts"),
      cut("bids"),
    ];
    const priorities = district && Array.isArray(district.strategic_priorities) ? district.strategic_priorities : [];
    findings = {
      included: true,
      truncated,
      summary: entity.ai_summary,
      priorities,
      pain_points: painPoints.map((p) => ({
        category: p.category,
        description: p.description,
        source_url: p.source_url,
        detected_at: p.detected_at,
        data_source: p.data_source,
      })),
      vendors: vendors.map((v) => ({ name: v.name, category: v.category, source_url: v.source_url, data_source: v.data_source })),
      bids: bids.map((b) => ({
        title: b.title,
        status: b.status,
        posted_on: b.posted_on,
        deadline_at: b.deadline_at,
        url: b.url,
        source_url: b.source_url,
        data_source: b.data_source,
      })),
      funding: funding.map((f) => ({
        source: f.source,
        amount: f.amount,
        fiscal_year: f.fiscal_year,
        description: f.description,
        source_url: f.source_url,
        data_source: f.data_source,
      })),
      contracts: contracts.map((c) => ({
        vendor_name: c.vendor_name,
        category: c.category,
        amount: c.amount,
        starts_on: c.starts_on,
        expires_on: c.expires_on,
        source_url: c.source_url,
        data_source: c.data_source,
      })),
    };
    findingSources.push(...distinct([...vendors, ...bids, ...painPoints, ...funding, ...contracts].map((r) => r.data_source)));
    for (const p of painPoints) {
      facts.push(`pain point (${p.category}): ${p.description}`);
      if (p.source_url) sources.push({ url: p.source_url, title: `Pain point: ${p.category}`, text: p.description });
    }
    for (const v of vendors) facts.push(`vendor in use: ${v.name} (${v.category})`);
    for (const b of bids.filter((x) => x.status === "open")) facts.push(`open bid: ${b.title}`);
    if (entity.ai_summary) sources.push({ url: entity.website_url ?? "", title: "Summary", text: entity.ai_summary });
  } else {
    findings = {
      included: false,
      note: `Extracted findings are withheld: the organization had not unlocked this ${kind} when the brief was built.`,
    };
  }

  // ---- recent timeline events: the record's events block as it serves the latest DOSSIER_EVENTS_LIMIT (the same
  // rows, chronological), stored as they are: every read presents them with the organization's unlock at that time
  // (brief.service.ts), so a later unlock shows them whole. The narrative sees only what the organization may see
  // now (those restating gated intelligence in their public form unless unlocked), the most recent first.
  const events = await readEvents(db, kind, id);
  for (const e of events.map((event) => presentEvent(event, unlocked)).reverse())
    if (e.description && e.source_url) sources.push({ url: e.source_url, title: e.title, text: e.description });

  // ---- narrative
  const latest = (statistics.trend as { school_year_start: number; total_enrollment: number | null }[]).at(-1);
  if (latest?.total_enrollment != null)
    facts.unshift(
      `enrollment ${latest.total_enrollment} in school year ${latest.school_year_start}-${String(latest.school_year_start + 1).slice(2)}`,
    );
  const change = statistics.enrollment_change as { from: number; to: number; percent: number | null } | null;
  if (change?.percent != null) facts.splice(1, 0, `enrollment change ${change.from} to ${change.to}: ${change.percent}%`);
  const latestFinance = (finance?.trend as { finance_fiscal_year: number | null; total_expenditures: number | null }[] | undefined)?.at(-1);
  if (latestFinance?.total_expenditures != null)
    facts.push(
      `total expenditures ${latestFinance.total_expenditures} USD in fiscal year ${latestFinance.finance_fiscal_year ?? "unknown"}`,
    );
  const generator = override ?? textGeneratorFromEnv(env);
  const subjectName = `${entity.name}, ${entity.state} (${kind === "district" ? "school district" : "school"})`;
  const generated = await generator.generate({
    task: "brief",
    subject: subjectName,
    subjectTerms: entity.name.split(/\s+/),
    facts,
    sources: sources.filter((s) => s.url),
    maxWords: NARRATIVE_WORDS,
  });
  const narrative = {
    text: generated.text,
    provider: generated.provider,
    model: generated.model,
    language_model_used: generated.provider !== "extractive",
    source_urls: generated.sourceUrls,
  };

  const eventSources = distinct(events.map((e) => e.data_source));
  const peopleSources = distinct(people.flatMap((p) => p.data_source));
  const dataSource = {
    profile: distinct([entity.data_source]),
    statistics: statisticSources,
    finance: financeSources,
    people: peopleSources,
    findings: findingSources,
    events: eventSources,
    narrative: narrative.language_model_used
      ? `${generated.provider} (language model ${generated.model ?? "unknown"})`
      : "extractive (no language model)",
  };
  const sectionsWith = (value: string) =>
    Object.entries(dataSource)
      .filter(([, v]) => Array.isArray(v) && v.includes(value))
      .map(([k]) => k);

  return {
    generator: generated.provider,
    dossier: {
      entity: { type: kind, id, name: entity.name, state: entity.state },
      built_at: now.toISOString(),
      profile,
      statistics,
      finance,
      people,
      findings,
      events: events.map((e) => ({
        event_date: e.event_date,
        event_type: e.event_type,
        title: e.title,
        description: e.description,
        source_url: e.source_url,
        data_source: e.data_source,
      })),
      narrative,
      data_source: { ...dataSource, demo_sections: sectionsWith("demo"), extraction_sections: sectionsWith("extraction") },
    },
  };
}

/**
 * The five findings lists of the entity as its district or school record serves them (the intelligence blocks:
 * the same rows, order, de-duplication and bid status), each row with where it was found; one row more than
 * FINDINGS_LIMIT per list tells whether the list was cut (a district's extraction history grows without end).
 * One statement.
 */
async function readFindings(db: Db, organizationId: string, kind: EntityKind, id: string): Promise<Findings> {
  const p = new SqlParams();
  const record = p.add(id);
  let org: string | undefined;
  const columns = findingsSql({ kind, record: "e", org: () => (org ??= p.add(organizationId)) }, FINDINGS_LIMIT + 1);
  const [row] = await db.query<Record<FindingsName, unknown>>(
    `SELECT ${columns} FROM ${ENTITY_SQL[kind].table} e WHERE e.id = ${record}::uuid`,
    p.values,
  );
  return decodeFindings(row ?? ({} as Record<FindingsName, unknown>));
}

/** The record's latest DOSSIER_EVENTS_LIMIT events as its events block serves them, whole, with their data_source. One statement. */
async function readEvents(db: Db, kind: EntityKind, id: string): Promise<SourcedEvent[]> {
  const [row] = await db.query<{ events: unknown }>(
    `SELECT ${latestEventsSql({ kind, record: "e" }, DOSSIER_EVENTS_LIMIT)} AS events
       FROM ${ENTITY_SQL[kind].table} e WHERE e.id = $1::uuid`,
    [id],
  );
  return decodeLatestEvents(row?.events);
}

function enrollmentChange(trend: { school_year_start: number; total_enrollment: number | null }[]) {
  const known = trend.filter((e) => e.total_enrollment != null);
  if (known.length < 2) return null;
  const first = known[0]!;
  const last = known.at(-1)!;
  return {
    from: first.school_year_start,
    to: last.school_year_start,
    absolute: last.total_enrollment! - first.total_enrollment!,
    percent: percentChange(first.total_enrollment, last.total_enrollment),
  };
}

interface ChildcarePersonRow {
  name: string;
  title: string | null;
  role: string;
  center_name: string;
  source_url: string | null;
  data_source: string;
  name_key: string;
}

/**
 * The entity's people: its listed catalogue contacts and, for a district, the directors and staff of the
 * childcare centers it operates; one entry per person name (personKey), catalogue contact first.
 */
async function readPeople(db: Db, kind: "district" | "school", id: string): Promise<DossierPerson[]> {
  const contacts = await listedContactsOfParent(db, kind, id, { limit: DOSSIER_PEOPLE_LIMIT });
  const childcare =
    kind === "district"
      ? await db.query<ChildcarePersonRow>(
          `SELECT * FROM (
             SELECT p.name, p.title, coalesce(p.role, 'childcare staff') AS role, cc.name AS center_name, cc.source_url, p.data_source,
                    ${NAME_KEY_SQL("p.name")} AS name_key
               FROM childcare_people p JOIN childcare_centers cc ON cc.id = p.center_id
              WHERE cc.district_id = $1::uuid AND cc.district_operated IS TRUE
             UNION ALL
             SELECT cc.director_name, 'Director', 'childcare director', cc.name, cc.source_url, cc.data_source,
                    ${NAME_KEY_SQL("cc.director_name")}
               FROM childcare_centers cc
              WHERE cc.district_id = $1::uuid AND cc.district_operated IS TRUE AND cc.director_name IS NOT NULL) people
            WHERE name_key <> ''
            ORDER BY center_name, name_key
            LIMIT ${DOSSIER_PEOPLE_LIMIT}`,
          [id],
        )
      : [];
  const byKey = new Map<string, DossierPerson>();
  for (const c of contacts) {
    const key = personKey(kind, id, c.name_key);
    byKey.set(key, {
      person_key: key,
      name: c.name,
      title: c.title,
      roles: [c.is_district_contact ? "district contact" : "school contact"],
      contact_id: c.id,
      source_urls: distinct([c.source_url]),
      data_source: [c.data_source],
    });
  }
  for (const p of childcare) {
    const key = personKey(kind, id, p.name_key);
    const role = `${p.role} (${p.center_name})`;
    const known = byKey.get(key);
    if (known) {
      known.roles = distinct([...known.roles, role]);
      known.source_urls = distinct([...known.source_urls, p.source_url]);
      known.data_source = distinct([...known.data_source, p.data_source]);
    } else if (byKey.size < DOSSIER_PEOPLE_LIMIT) {
      byKey.set(key, {
        person_key: key,
        name: p.name,
        title: p.title,
        roles: [role],
        contact_id: null,
        source_urls: distinct([p.source_url]),
        data_source: [p.data_source],
      });
    }
  }
  return [...byKey.values()];
}
