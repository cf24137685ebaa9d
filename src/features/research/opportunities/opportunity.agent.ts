/**
 * The opportunity agent (docs/opportunities.md): for one project, turns what is known into rows a sales team can act
 * on. Deterministic and offline: every sentence it writes is put together from stored facts (a signal's summary and
 * evidence, federal statistics, the organization's own unlocks and bids), never invented.
 *
 * - Signal-based: resolved signals other than noise from the last SIGNAL_MAX_AGE_DAYS that the organization may read
 *   (the feed's rule: all with the signals module, else those about entities it follows or unlocked) whose district
 *   or school fits the project's profile (states, entity types, enrollment, locales, signal types, keywords) become one row each,
 *   per (project, entity, signal). A school's signal becomes a district row when the profile takes districts only.
 * - Supplementary (`supplementary: true`): while a project has no signal-based row, the entities that fit its profile
 *   with a reason in real data, the strongest first (an open bid or a recent unlock of the organization, enrollment
 *   growth or a change in revenue per student over the federal years), at most SUPPLEMENTARY_MAX.
 *
 * Rows are written once (`verification_status: unverified`, `last_verified_at: null`) and never rewritten by the
 * agent: a row that exists is skipped (ON CONFLICT on its dedupe key). The candidate reads are hand-written SQL: each
 * joins signals, articles and the catalogue under the profile's conditions in one statement; rows are written with
 * the Prisma client.
 */
import { isoDay, now } from "../../../config/clock";
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { compile, sql, type SqlFragment } from "../../../db/sql-template";
import { checkIcp, type Icp } from "../../account/projects/project.icp";
import { listedContactsOfParent } from "../../catalogue/contacts/contact.service";
import { LOCALE_CODE_PREFIX, type LocaleBucket, type SIGNAL_TYPES } from "../../kits/common/enums";
import { containsPattern } from "../../kits/common/list-kit";
import { emitEvents } from "../../account/webhooks/webhook.outbox";
import { SIGNALS_MODULE, signalReadableSql } from "../news/news.service";
import { signalWindow, windowStatus, type WindowDates } from "./opportunity.window";

type SignalType = Exclude<(typeof SIGNAL_TYPES)[number], "noise">;
type Kind = "district" | "school";

/** Signals older than this (by their date, else their article's) make no opportunity. */
export const SIGNAL_MAX_AGE_DAYS = 365;
/** Signals read per run (newest first). */
const SIGNAL_CANDIDATES_MAX = 200;
/** Supplementary prospects per project. */
export const SUPPLEMENTARY_MAX = 10;
/** Contacts named on a row. */
const CONTACTS_PER_ROW = 3;
/** Enrollment growth and revenue-per-student change worth a prospect (fractions). */
export const GROWTH_MIN = 0.03;
export const REVENUE_CHANGE_MIN = 0.1;
/** An unlock this recent is a reason. */
const RECENT_UNLOCK_DAYS = 90;

/** The profile as the agent reads it (checkIcp's shape). */
interface Profile {
  states?: string[];
  entity_types?: Kind[];
  min_enrollment?: number;
  max_enrollment?: number;
  locales?: LocaleBucket[];
  signal_types?: SignalType[];
  keywords?: string[];
  vendor_categories_sold?: string[];
  vendor_categories_displaced?: string[];
}

const KIND_TABLE = { district: "districts", school: "schools" } as const;

/** The profile's conditions on an entity `e` (a districts or schools row). */
function entityConditions(profile: Profile, e: string): SqlFragment[] {
  const where: SqlFragment[] = [];
  const col = (name: string) => sql.raw(`${e}.${name}`);
  if (profile.states?.length) where.push(sql`${col("state")} = ANY(${profile.states}::text[])`);
  if (profile.min_enrollment !== undefined) where.push(sql`${col("student_count")} >= ${profile.min_enrollment}::int`);
  if (profile.max_enrollment !== undefined) where.push(sql`${col("student_count")} <= ${profile.max_enrollment}::int`);
  if (profile.locales?.length)
    where.push(sql`left(${col("locale_code")}, 1) = ANY(${profile.locales.map((l) => LOCALE_CODE_PREFIX[l])}::text[])`);
  return where;
}

const kindsOf = (profile: Profile): Kind[] => (profile.entity_types?.length ? profile.entity_types : ["district", "school"]);

const TYPE_WORDS = (type: string): string => type.replace(/_/g, " ");

/** What a seller does about a signal of each type (the suggested action's verb phrase). */
const ACTIONS: Readonly<Record<SignalType, string>> = {
  rfp_released: "Read the solicitation and confirm the response deadline; decide on a bid this week",
  grant_award: "Offer a plan for spending the award within its grant period",
  budget_surplus: "Propose a one-time purchase that fits the surplus before the next budget cycle",
  budget_deficit: "Lead with cost savings or consolidation of existing tools",
  technology_initiative: "Ask who leads the initiative and offer a pilot that fits its goals",
  curriculum_adoption: "Reach the adoption committee before its selection closes",
  facility_bond: "Map the bond's projects to what you sell and contact the project lead",
  safety_incident: "Offer help with the district's safety review, with care for the incident's context",
  leadership_change: "Introduce yourself to the new leader in their first months",
  enrollment_change: "Show how you help with the enrollment shift (capacity, staffing, outreach)",
  staffing_shortage: "Show how you reduce the load on scarce staff",
  chronic_absenteeism: "Share attendance interventions and evidence of their effect",
};

const INTENT_FACTOR: Readonly<Record<string, number>> = { high: 1, medium: 0.85, low: 0.7, none: 0.5 };

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The district or school a row is about, as both candidate reads select it. */
interface CandidateEntity {
  kind: Kind;
  entity_id: string;
  entity_name: string;
  state: string;
  city: string | null;
  district_id: string | null;
  school_id: string | null;
}

interface SignalCandidate extends CandidateEntity {
  signal_id: string;
  signal_type: SignalType;
  buying_intent: string;
  buying_intent_reason: string | null;
  summary: string | null;
  signal_date: string | null;
  published_on: string | null;
  extraction_confidence: number | null;
  entity_match_confidence: number | null;
  entity_match_reason: string | null;
  evidence: unknown;
  payload: { dates?: { date?: string }[] } | null;
  data_source: string;
  article_url: string;
  article_title: string;
}

/** One row as the agent writes it (Prisma's create input, less the project's columns). */
export interface OpportunityDraft {
  entity_type: Kind;
  district_id: string | null;
  school_id: string | null;
  dedupe_key: string;
  geo_scope: string;
  title: string;
  signal_type: string | null;
  event_date: string | null;
  event_date_basis: string | null;
  why_now: string;
  suggested_action: string;
  caveats: string;
  confidence: number;
  source_urls: string[];
  signal_ids: string[];
  suggested_prompts: string[];
  supplementary: boolean;
  window: WindowDates;
  claim: { kind: string; texts: { url: string; text: string }[]; [key: string]: unknown };
  data_source: string;
}

const placeOf = (c: { city: string | null; state: string }): string => (c.city ? `${c.city}, ${c.state}` : c.state);

/**
 * The resolved, recent signals (not noise) whose entity fits the profile and which the organization may read (the
 * feed's rule: every signal with the signals module, else those about entities it follows or unlocked), newest
 * first. One statement.
 */
async function signalCandidates(
  db: Db,
  organization: { id: string; entitlements: string[] },
  profile: Profile,
  through: Date,
  today: string,
): Promise<SignalCandidate[]> {
  const kinds = kindsOf(profile);
  const p = new SqlParams();
  // Scoped, the organization's id is the statement's first parameter: the scope rule's text names it.
  const readable = organization.entitlements.includes(SIGNALS_MODULE)
    ? signalReadableSql("all", "")
    : signalReadableSql("scoped", p.add(organization.id));
  const signalWhere: SqlFragment[] = [
    sql.raw(readable),
    sql`s.signal_type <> 'noise'`,
    sql`s.entity_resolution_status = 'resolved'`,
    sql`s.created_at <= ${through.toISOString()}::timestamptz`,
    sql`coalesce(s.signal_date, (a.published_at AT TIME ZONE 'UTC')::date, (s.created_at AT TIME ZONE 'UTC')::date)
          >= ${today}::date - ${SIGNAL_MAX_AGE_DAYS}::int`,
  ];
  if (profile.signal_types?.length) signalWhere.push(sql`s.signal_type = ANY(${profile.signal_types}::text[])`);
  if (profile.keywords?.length)
    signalWhere.push(
      sql`(a.search_text || ' ' || lower(coalesce(a.text, ''))) LIKE ANY(${profile.keywords.map((k) => containsPattern(k.toLowerCase()))}::text[])`,
    );
  const entity = (kind: Kind, alias: string, on: SqlFragment): SqlFragment =>
    sql`SELECT ${kind}::text AS kind, ${sql.raw(alias)}.id, ${sql.raw(alias)}.name, ${sql.raw(alias)}.state,
               ${sql.raw(alias)}.physical_city AS city, ${kind === "district" ? sql.raw(`${alias}.id`) : sql.raw(`${alias}.district_id`)} AS district_id,
               ${kind === "school" ? sql.raw(`${alias}.id`) : sql.raw("NULL::uuid")} AS school_id
          FROM ${sql.raw(KIND_TABLE[kind])} ${sql.raw(alias)}
         WHERE ${sql.join([on, ...entityConditions(profile, alias)], " AND ")}`;
  // The school itself when schools are wanted, else (districts wanted) its district: the first that fits.
  const choices: SqlFragment[] = [];
  if (kinds.includes("school")) choices.push(entity("school", "es", sql`es.id = s.school_id`));
  if (kinds.includes("district"))
    choices.push(
      entity("district", "ed", sql`ed.id = coalesce(s.district_id, (SELECT sd.district_id FROM schools sd WHERE sd.id = s.school_id))`),
    );
  // One branch per kind, in preference order: the first that fits is the row's entity.
  const branches = choices.map((c, n) => sql`SELECT ${n}::int AS pref, * FROM (${c}) b${sql.raw(String(n))}`);
  const plain = sql`
    SELECT s.id AS signal_id, s.signal_type, s.buying_intent, s.buying_intent_reason, s.summary,
           to_char(s.signal_date, 'YYYY-MM-DD') AS signal_date, to_char(a.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS published_on,
           s.extraction_confidence, s.entity_match_confidence, s.entity_match_reason, s.evidence, s.payload, s.data_source,
           a.url AS article_url, a.title AS article_title,
           e.kind, e.id AS entity_id, e.name AS entity_name, e.state, e.city, e.district_id, e.school_id
      FROM signals s
      JOIN articles a ON a.id = s.article_id
      CROSS JOIN LATERAL (SELECT * FROM (${sql.join(branches, " UNION ALL ")}) fits ORDER BY pref LIMIT 1) e
     WHERE ${sql.join(signalWhere, " AND ")}
     ORDER BY coalesce(s.signal_date, (a.published_at AT TIME ZONE 'UTC')::date) DESC NULLS LAST, s.id
     LIMIT ${SIGNAL_CANDIDATES_MAX}`;
  return db.query<SignalCandidate>(compile(plain, p), p.values);
}

/** A signal's evidence sentences: the analysis stores an array of { text, start, end }. */
const evidenceOf = (evidence: unknown): { text?: unknown }[] => {
  const value = typeof evidence === "string" ? (JSON.parse(evidence) as unknown) : evidence;
  if (Array.isArray(value)) return value as { text?: unknown }[];
  const sentences = (value as { sentences?: unknown } | null)?.sentences;
  return Array.isArray(sentences) ? (sentences as { text?: unknown }[]) : [];
};

/** A signal-based row. */
export function signalDraft(c: SignalCandidate): OpportunityDraft {
  const eventDate = c.signal_date ?? c.published_on;
  const basis = c.signal_date ? "signal_date" : c.published_on ? "article_published_at" : null;
  const named = (c.payload?.dates ?? [])
    .map((d) => d.date)
    .filter((d): d is string => typeof d === "string" && /^\d{4}-\d{2}-\d{2}$/.test(d));
  const window = signalWindow(c.signal_type, eventDate, named);
  const words = TYPE_WORDS(c.signal_type);
  const match = c.entity_match_confidence ?? 1;
  const caveats = [
    c.data_source === "demo" ? "Built on a demo signal (data_source demo): not a real event." : null,
    match < 0.9
      ? `The article was matched to ${c.entity_name} with confidence ${round2(match)} (${c.entity_match_reason ?? "no reason given"}).`
      : null,
    window.window_durable
      ? null
      : window.window_ends_on && !named.some((d) => d === window.window_ends_on)
        ? `The window's end (${window.window_ends_on}) is the usual span for a ${words}, not a date the source names.`
        : null,
    "Written once from the signal and not re-checked: refresh it before acting.",
  ].filter((x): x is string => x !== null);
  return {
    entity_type: c.kind,
    district_id: c.district_id,
    school_id: c.school_id,
    dedupe_key: `${c.kind}:${c.entity_id}:${c.signal_id}`,
    geo_scope: placeOf(c),
    title: `${c.entity_name} (${c.state}): ${words}`,
    signal_type: c.signal_type,
    event_date: eventDate,
    event_date_basis: basis,
    why_now: [
      c.summary ?? c.article_title,
      eventDate ? `(${basis === "signal_date" ? "event" : "reported"} ${eventDate}; "${c.article_title}")` : `("${c.article_title}")`,
      c.buying_intent !== "none" && c.buying_intent_reason ? `Buying intent ${c.buying_intent}: ${c.buying_intent_reason}` : null,
    ]
      .filter(Boolean)
      .join(" "),
    suggested_action: `${ACTIONS[c.signal_type]}.`,
    caveats: caveats.join(" "),
    confidence: round2((c.extraction_confidence ?? 0.5) * match * (INTENT_FACTOR[c.buying_intent] ?? 0.5)),
    source_urls: [c.article_url],
    signal_ids: [c.signal_id],
    suggested_prompts: [
      `What has ${c.entity_name} said about ${words} in the last year?`,
      `Who at ${c.entity_name} decides on ${words}, and how do I reach them?`,
      `Draft a short outreach email to ${c.entity_name} that references "${c.article_title}".`,
    ],
    supplementary: false,
    window,
    claim: {
      kind: "signal",
      texts: evidenceOf(c.evidence)
        .map((e) => e.text)
        .filter((t): t is string => typeof t === "string" && t.trim().length > 0)
        .slice(0, 3)
        .map((text) => ({ url: c.article_url, text })),
    },
    data_source: c.data_source === "demo" ? "demo" : "agent",
  };
}

// ---------------------------------------------------------------------------------------------------
// Supplementary prospects

interface ProspectRow extends CandidateEntity {
  reason: "open_bid" | "recent_unlock" | "enrollment_growth" | "revenue_change";
  /** Reason details (years, counts, the bid). */
  detail: Record<string, unknown>;
  strength: number;
  source_urls: string[] | null;
}

/**
 * Entities of `kind` fitting the profile with their strongest reason, strongest first, at most SUPPLEMENTARY_MAX.
 * One statement: the profile's entities, each reason as a lateral read by key (bids and unlocks of the organization
 * only: a bid is gated data, so only entities the organization unlocked may show one).
 */
async function prospects(db: Db, organizationId: string, profile: Profile, kind: Kind, today: string): Promise<ProspectRow[]> {
  const p = new SqlParams();
  const table = sql.raw(KIND_TABLE[kind]);
  const stats = sql.raw(kind === "district" ? "district_annual_stats" : "school_annual_stats");
  const owner = sql.raw(kind === "district" ? "district_id" : "school_id");
  const where = entityConditions(profile, "e");
  const revenue =
    kind === "district"
      ? sql`UNION ALL
          SELECT 'revenue_change', jsonb_build_object('from_year', f1.y, 'to_year', f2.y, 'from', round(f1.r), 'to', round(f2.r)),
                 abs(f2.r - f1.r) / f1.r / 2, f2.urls
            FROM (SELECT ds.school_year_start AS y, ds.total_revenue / ds.total_enrollment AS r FROM district_annual_stats ds
                   WHERE ds.district_id = e.id AND ds.total_revenue > 0 AND ds.total_enrollment > 0 ORDER BY ds.school_year_start LIMIT 1) f1,
                 (SELECT ds.school_year_start AS y, ds.total_revenue / ds.total_enrollment AS r, ds.source_urls AS urls FROM district_annual_stats ds
                   WHERE ds.district_id = e.id AND ds.total_revenue > 0 AND ds.total_enrollment > 0 ORDER BY ds.school_year_start DESC LIMIT 1) f2
           WHERE f2.y - f1.y >= 2 AND abs(f2.r - f1.r) / f1.r >= ${REVENUE_CHANGE_MIN}::float8`
      : sql``;
  const statement = sql`
    SELECT ${kind}::text AS kind, e.id AS entity_id, e.name AS entity_name, e.state, e.physical_city AS city,
           ${kind === "district" ? sql.raw("e.id") : sql.raw("e.district_id")} AS district_id,
           ${kind === "school" ? sql.raw("e.id") : sql.raw("NULL::uuid")} AS school_id,
           r.reason, r.detail, r.strength, r.urls AS source_urls
      FROM ${table} e
      CROSS JOIN LATERAL (
        SELECT * FROM (
          SELECT 'open_bid' AS reason,
                 jsonb_build_object('bid_id', b.id, 'title', b.title, 'posted_on', to_char(b.posted_on, 'YYYY-MM-DD'),
                                    'deadline_on', to_char(b.deadline_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'url', coalesce(b.url, b.source_url)) AS detail,
                 3.0::float8 AS strength, CASE WHEN coalesce(b.url, b.source_url) IS NULL THEN NULL ELSE jsonb_build_array(coalesce(b.url, b.source_url)) END AS urls
            FROM bids b JOIN unlocks u ON u.entity_type = ${kind} AND u.entity_id = e.id AND u.organization_id = ${organizationId}::uuid AND u.state = 'unlocked'
           WHERE b.${owner} = e.id AND b.status = 'open' AND (b.deadline_at IS NULL OR b.deadline_at >= ${today}::date)
          UNION ALL
          SELECT 'recent_unlock', jsonb_build_object('unlocked_on', to_char(u.unlocked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')), 2.0, NULL
            FROM unlocks u
           WHERE u.entity_type = ${kind} AND u.entity_id = e.id AND u.organization_id = ${organizationId}::uuid AND u.state = 'unlocked'
             AND u.unlocked_at >= ${today}::date - ${RECENT_UNLOCK_DAYS}::int
          UNION ALL
          SELECT 'enrollment_growth', jsonb_build_object('from_year', g1.y, 'to_year', g2.y, 'from', g1.n, 'to', g2.n),
                 (g2.n - g1.n)::float8 / g1.n, g2.urls
            FROM (SELECT st.school_year_start AS y, st.total_enrollment AS n FROM ${stats} st
                   WHERE st.${owner} = e.id AND st.total_enrollment > 0 ORDER BY st.school_year_start LIMIT 1) g1,
                 (SELECT st.school_year_start AS y, st.total_enrollment AS n, ${kind === "district" ? sql.raw("st.source_urls") : sql.raw("NULL::jsonb")} AS urls
                    FROM ${stats} st
                   WHERE st.${owner} = e.id AND st.total_enrollment > 0 ORDER BY st.school_year_start DESC LIMIT 1) g2
           WHERE g2.y - g1.y >= 2 AND (g2.n - g1.n)::float8 / g1.n >= ${GROWTH_MIN}::float8
          ${revenue}
        ) reasons ORDER BY strength DESC LIMIT 1) r
     ${where.length ? sql`WHERE ${sql.join(where, " AND ")}` : sql``}
     ORDER BY r.strength DESC, e.name, e.id
     LIMIT ${SUPPLEMENTARY_MAX}`;
  const rows = await db.query<Omit<ProspectRow, "source_urls"> & { source_urls: unknown }>(compile(statement, p), p.values);
  return rows.map((row) => ({ ...row, strength: Number(row.strength), source_urls: urlsOf(row.source_urls) }));
}

/** The URLs of a source_urls value (an array, or an object of URLs by source, as the statistics rows keep them). */
function urlsOf(value: unknown): string[] {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  const values = Array.isArray(parsed) ? parsed : parsed && typeof parsed === "object" ? Object.values(parsed) : [];
  return [...new Set(values.filter((v): v is string => typeof v === "string" && /^https?:\/\//.test(v)))];
}

const pct = (x: number): string => `${x >= 0 ? "+" : ""}${Math.round(x * 100)}%`;

/** A supplementary row. */
export function prospectDraft(r: ProspectRow): OpportunityDraft {
  const d = r.detail as Record<string, string & number>;
  const base = {
    entity_type: r.kind,
    district_id: r.district_id,
    school_id: r.school_id,
    dedupe_key: `${r.kind}:${r.entity_id}:profile`,
    geo_scope: placeOf(r),
    signal_type: null,
    signal_ids: [],
    supplementary: true,
    data_source: "agent",
    source_urls: r.source_urls ?? [],
  };
  const fit = "It fits the project's ideal customer profile; no signal about it matched (fallback prospecting).";
  switch (r.reason) {
    case "open_bid":
      return {
        ...base,
        title: `${r.entity_name} (${r.state}): open bid "${d.title}"`,
        event_date: d.posted_on ?? null,
        event_date_basis: d.posted_on ? "bid_posted_on" : null,
        why_now: `An open bid found on its site: "${d.title}"${d.deadline_on ? `, due ${d.deadline_on}` : ""}. ${fit}`,
        suggested_action: "Read the bid and decide whether to respond before its deadline.",
        caveats: "From your organization's unlock of this entity (extracted intelligence); bids close without notice.",
        confidence: 0.6,
        suggested_prompts: [`Summarize the bid "${d.title}" of ${r.entity_name}.`, `Who at ${r.entity_name} runs procurement?`],
        window: { window_ends_on: d.deadline_on ?? null, window_durable: false },
        claim: { kind: "open_bid", bid_id: d.bid_id, texts: d.url ? [{ url: d.url, text: d.title }] : [] },
      };
    case "recent_unlock":
      return {
        ...base,
        title: `${r.entity_name} (${r.state}): unlocked by your organization`,
        event_date: d.unlocked_on ?? null,
        event_date_basis: "unlocked_at",
        why_now: `Your organization unlocked it on ${d.unlocked_on}: its extracted intelligence and contacts are open to you. ${fit}`,
        suggested_action: "Review its pain points, vendors and contacts, and reach the most senior contact.",
        caveats: "The reason is your own unlock, not an event at the entity.",
        confidence: 0.45,
        suggested_prompts: [`What are ${r.entity_name}'s pain points and current vendors?`, `Draft an introduction to ${r.entity_name}.`],
        window: { window_ends_on: null, window_durable: false },
        claim: { kind: "recent_unlock", texts: [] },
      };
    case "enrollment_growth":
      return {
        ...base,
        title: `${r.entity_name} (${r.state}): enrollment ${pct(r.strength)} since ${d.from_year}`,
        event_date: `${d.to_year}-10-01`,
        event_date_basis: "federal_school_year",
        why_now: `Enrollment grew from ${d.from} (${d.from_year}-${String(Number(d.from_year) + 1).slice(2)}) to ${d.to} (${d.to_year}-${String(Number(d.to_year) + 1).slice(2)}), ${pct(r.strength)} in federal (NCES) counts. ${fit}`,
        suggested_action: "Offer what helps a growing system: capacity, staffing, onboarding of new families.",
        caveats: "Federal counts lag two or more school years; the trend may have turned since.",
        confidence: round2(Math.min(0.55, 0.3 + r.strength)),
        suggested_prompts: [`How has ${r.entity_name}'s enrollment changed year by year?`, `Which schools of ${r.entity_name} grew most?`],
        window: { window_ends_on: null, window_durable: true },
        claim: { kind: "enrollment_growth", from_year: d.from_year, to_year: d.to_year, texts: [] },
      };
    case "revenue_change":
      return {
        ...base,
        title: `${r.entity_name} (${r.state}): revenue per student ${pct((Number(d.to) - Number(d.from)) / Number(d.from))} since ${d.from_year}`,
        event_date: `${d.to_year}-07-01`,
        event_date_basis: "federal_fiscal_year",
        why_now: `Revenue per student moved from $${d.from} (${d.from_year}) to $${d.to} (${d.to_year}) in federal (Census F-33) finance data. ${fit}`,
        suggested_action:
          Number(d.to) > Number(d.from)
            ? "Budgets grew: propose an investment that fits the added revenue."
            : "Budgets shrank: lead with savings and consolidation.",
        caveats: "Federal finance data lags two or more fiscal years.",
        confidence: 0.4,
        suggested_prompts: [`How did ${r.entity_name}'s revenue and spending change over the federal years?`],
        window: { window_ends_on: null, window_durable: true },
        claim: { kind: "revenue_change", from_year: d.from_year, to_year: d.to_year, texts: [] },
      };
  }
}

// ---------------------------------------------------------------------------------------------------
// The run

export interface AgentResult {
  /** Rows written by this run (others existed already). */
  signalBased: number;
  supplementary: number;
}

/**
 * Runs the agent for one project (a job; the worker's sweep sends it: opportunity.jobs.ts). Returns the rows it
 * wrote. The project's bookkeeping (opportunities_run_at, _profile_at, _signals_through) says what it ran on.
 */
export async function runOpportunityAgent(db: Db, projectId: string): Promise<AgentResult> {
  const project = await db.prisma.project.findUnique({
    where: { id: projectId },
    select: { organization_id: true, icp: true, updated_at: true },
  });
  if (!project) return { signalBased: 0, supplementary: 0 };
  const organization = await db.prisma.organization.findUnique({
    where: { id: project.organization_id },
    select: { id: true, entitlements: true },
  });
  if (!organization) return { signalBased: 0, supplementary: 0 };
  const through = (await db.prisma.signal.aggregate({ _max: { created_at: true } }))._max.created_at ?? new Date(0);
  // A profile stored before profiles were checked is read as checked, or as no profile at all when it does not pass.
  let profile: Profile;
  try {
    profile = (checkIcp(project.icp) ?? {}) as Profile;
  } catch {
    profile = {};
  }
  const at = now();
  const today = isoDay(at);
  const signalDrafts = (await signalCandidates(db, organization, profile, through, today)).map(signalDraft);
  const signalBased = await write(db, project.organization_id, projectId, signalDrafts, at);
  let supplementary = 0;
  const hasSignalRows = await db.prisma.opportunity.count({ where: { project_id: projectId, supplementary: false } });
  if (!hasSignalRows) {
    const kind: Kind = kindsOf(profile).includes("district") ? "district" : "school";
    const rows = await prospects(db, project.organization_id, profile, kind, today);
    supplementary = await write(db, project.organization_id, projectId, rows.map(prospectDraft), at);
  }
  await db.prisma.project.update({
    where: { id: projectId },
    data: { opportunities_run_at: new Date(), opportunities_profile_at: project.updated_at, opportunities_signals_through: through },
  });
  return { signalBased, supplementary };
}

/** Writes the drafts a project does not have yet (one row per dedupe key), with each entity's listed contacts. */
async function write(db: Db, organizationId: string, projectId: string, drafts: OpportunityDraft[], at: Date): Promise<number> {
  if (!drafts.length) return 0;
  const existing = new Set(
    (
      await db.prisma.opportunity.findMany({
        where: { project_id: projectId, dedupe_key: { in: drafts.map((d) => d.dedupe_key) } },
        select: { dedupe_key: true },
      })
    ).map((row) => row.dedupe_key),
  );
  const fresh = [...new Map(drafts.filter((d) => !existing.has(d.dedupe_key)).map((d) => [d.dedupe_key, d])).values()];
  if (!fresh.length) return 0;
  const entityOf = (d: OpportunityDraft): string => (d.school_id ?? d.district_id)!;
  const contactsOf = new Map<string, { contact_id: string }[]>();
  for (const d of fresh) {
    const key = `${d.entity_type}:${entityOf(d)}`;
    if (contactsOf.has(key)) continue;
    const listed = await listedContactsOfParent(db, d.entity_type, entityOf(d), { limit: CONTACTS_PER_ROW });
    contactsOf.set(
      key,
      listed.map((c) => ({ contact_id: c.id })),
    );
  }
  // The rows and their opportunity.created events commit together (docs/webhooks.md).
  return db.prisma.$transaction(async (tx) => {
    const created = await tx.opportunity.createManyAndReturn({
      skipDuplicates: true,
      select: {
        id: true,
        project_id: true,
        entity_type: true,
        district_id: true,
        school_id: true,
        title: true,
        signal_type: true,
        confidence: true,
        supplementary: true,
      },
      data: fresh.map((d) => ({
        organization_id: organizationId,
        project_id: projectId,
        entity_type: d.entity_type,
        district_id: d.district_id,
        school_id: d.school_id,
        dedupe_key: d.dedupe_key,
        geo_scope: d.geo_scope,
        title: d.title.slice(0, 300),
        signal_type: d.signal_type,
        event_date: d.event_date ? new Date(`${d.event_date}T00:00:00Z`) : null,
        event_date_basis: d.event_date_basis,
        why_now: d.why_now,
        suggested_action: d.suggested_action,
        caveats: d.caveats,
        confidence: d.confidence,
        source_urls: d.source_urls,
        signal_ids: d.signal_ids,
        contacts: contactsOf.get(`${d.entity_type}:${entityOf(d)}`) ?? [],
        suggested_prompts: d.suggested_prompts,
        supplementary: d.supplementary,
        window_ends_on: d.window.window_ends_on ? new Date(`${d.window.window_ends_on}T00:00:00Z`) : null,
        window_durable: d.window.window_durable,
        window_status: windowStatus(d.window, at),
        claim: d.claim as never,
        data_source: d.data_source,
      })),
    });
    await emitEvents(tx, "opportunity.created", organizationId, created);
    return created.length;
  });
}

export type { Icp };
