/**
 * Fictional contacts for the completed subset: invented names, @demo.example.org addresses, 555-01xx
 * phones and profile text that says the person is not real. Every fifth district lists its
 * superintendent twice under one dedupe_key, which exercises the deduplicated contacts view.
 */
import type { DemoRow } from "./bulk";
import {
  CRM_SYNC_STATUSES,
  DEMO_EMAIL_DOMAIN,
  DEMO_HOST,
  DEMO_SOURCE,
  DISTRICT_CONTACT_TITLES,
  EMAIL_STATUSES,
  ENRICHMENT_STATUSES,
  FIRST_NAMES,
  LAST_NAMES,
  SCHOOL_CONTACT_TITLES,
  STRATEGIC_PRIORITIES,
} from "./catalog";
import { type DemoEntity, fictionalPhone, Rotation, seededAt } from "./model";
import { DemoRandom, demoUuid, lowerFirst, slugify, timestampOffset } from "./random";

type EnrichmentStatus = (typeof ENRICHMENT_STATUSES)[number];
type EmailStatus = (typeof EMAIL_STATUSES)[number];
type CrmSyncStatus = (typeof CRM_SYNC_STATUSES)[number];

// Cycles of different lengths, so status combinations vary and every value occurs within ten contacts.
const ENRICHMENT_CYCLE: readonly EnrichmentStatus[] = [
  "completed",
  "completed",
  "pending",
  "completed",
  "processing",
  "completed",
  "error",
  "completed",
  "pending",
  "completed",
];
const EMAIL_CYCLE: readonly EmailStatus[] = ["pending", "sent", "pending", "failed", "sent", "pending", "pending"];
const CRM_CYCLE: readonly CrmSyncStatus[] = ["pending", "synced", "pending", "synced", "failed"];

/** Contacts in generation order (districts first), plus lookup by entity id for opportunities. */
export interface ContactRows {
  contacts: DemoRow[];
  byEntity: Map<string, DemoRow[]>;
}

/**
 * `realLeads`: ids of entities whose leader (a district's superintendent, a school's principal) an official state
 * directory names: the demo invents no second person in that role beside the real one (issue 25 point 3).
 */
export function buildContacts(seed: number, entities: readonly DemoEntity[], realLeads: ReadonlySet<string> = new Set()): ContactRows {
  const result: ContactRows = { contacts: [], byEntity: new Map() };
  const rotation = new Rotation();

  for (const entity of entities) {
    const rng = new DemoRandom(seed, `contacts/${entity.kind}/${entity.fed_id}`);
    const isDistrict = entity.kind === "district";
    const titles: string[] = isDistrict
      ? ["Superintendent", "Director of Technology", ...rng.sample(DISTRICT_CONTACT_TITLES.slice(2), rng.int(1, 2))]
      : ["Principal", ...(rng.chance(0.5) ? rng.sample(SCHOOL_CONTACT_TITLES.slice(1), 1) : [])];
    const drawn = titles.map((title, k) => ({ title, k, first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) }));
    // The leader (k 0) is left out where a state directory names the real one; names are drawn first, so the
    // other people stay who they were.
    const people = realLeads.has(entity.id) ? drawn.slice(1) : drawn;
    // The duplicate: the same superintendent found again on another demo page (same person, same key).
    const duplicateOf = isDistrict && entity.index % 5 === 0 && !realLeads.has(entity.id) ? people[0] : undefined;
    if (duplicateOf) people.push({ ...duplicateOf, title: "Superintendent of Schools", k: people.length });

    const rows: DemoRow[] = [];
    for (const person of people) {
      const n = rotation.next();
      const name = `${person.first} ${person.last}`;
      const handle = `${person.first}.${person.last}.${entity.fed_id}`.toLowerCase().replace(/[^a-z0-9.]/g, "");
      const enrichment = ENRICHMENT_CYCLE[n % ENRICHMENT_CYCLE.length] as EnrichmentStatus;
      const email = EMAIL_CYCLE[n % EMAIL_CYCLE.length] as EmailStatus;
      const crm = CRM_CYCLE[n % CRM_CYCLE.length] as CrmSyncStatus;
      const isDuplicate = duplicateOf !== undefined && person.k === people.length - 1;
      const focus = rng.sample(STRATEGIC_PRIORITIES, 2);
      const score = rng.int(35, 98);
      rows.push({
        id: demoUuid(seed, `contact/${entity.kind}/${entity.fed_id}/${person.k}`),
        district_id: entity.district_id,
        school_id: isDistrict ? null : entity.id,
        name,
        title: person.title,
        email: `${handle}@${DEMO_EMAIL_DOMAIN}`,
        phone: fictionalPhone(entity.phone, rng.int(0, 99)),
        state: entity.state,
        is_district_contact: isDistrict,
        linkedin_url: `${DEMO_HOST}/linkedin/${slugify(`${name} ${entity.fed_id}`)}`,
        profile_summary: `Fictional demo contact (not a real person): ${person.title} at ${entity.name}, working on ${focus.map(lowerFirst).join(" and ")}.`,
        key_facts: { demo: true, fictional_person: true, tenure_years: rng.int(1, 14), focus_areas: focus, entity_fed_id: entity.fed_id },
        source: DEMO_SOURCE,
        source_url: `${DEMO_HOST}/directory/${entity.fed_id}${isDuplicate ? "/leadership" : ""}`,
        dedupe_key: `${handle}|${person.title === "Superintendent of Schools" ? "Superintendent" : person.title}`.toLowerCase(),
        enrichment_status: enrichment,
        enriched_at: enrichment === "completed" ? timestampOffset(-rng.int(1, 90)) : null,
        enrichment_error: enrichment === "error" ? "Demo: simulated enrichment failure (no public profile found)." : null,
        enrichment_retry_count: enrichment === "error" ? 2 : 0,
        qualification_score: score,
        qualification_justification: `Demo (generated): ${score >= 70 ? "decision maker" : "influencer"} for ${lowerFirst(focus[0] ?? "district priorities")}.`,
        qualified_at: timestampOffset(-rng.int(1, 60)),
        email_status: email,
        email_error: email === "failed" ? "Demo: simulated delivery failure." : null,
        email_retry_count: email === "failed" ? 1 : 0,
        emailed: email === "sent",
        email_bounced: false,
        emailed_at: email === "sent" ? timestampOffset(-rng.int(1, 30)) : null,
        email_confidence_score: rng.int(60, 99),
        crm_contact_id: crm === "synced" ? `demo-crm-${demoUuid(seed, `crm/${handle}/${person.k}`).slice(0, 8)}` : null,
        crm_synced_at: crm === "synced" ? timestampOffset(-rng.int(1, 20)) : null,
        crm_sync_status: crm,
        crm_sync_error: crm === "failed" ? "Demo: simulated CRM sync failure." : null,
        data_source: DEMO_SOURCE,
        discovered_at: timestampOffset(-rng.int(30, 200)),
        last_updated_at: seededAt(),
        created_at: seededAt(),
      });
    }
    result.contacts.push(...rows);
    result.byEntity.set(entity.id, rows);
  }
  return result;
}
