/**
 * Demo opportunities for the projects the caller names: three signal-based ones (supplementary false,
 * pointing at demo signals with medium or high intent) and two fallback prospects (supplementary true).
 * Most stay as the agent would write them (unverified, last_verified_at null); the first of each
 * project is confirmed, with one source check.
 */
import type { DemoRow } from "./bulk";
import { DEMO_SOURCE } from "./catalog";
import type { DemoEntity } from "./model";
import type { DemoSignal } from "./news";
import { dateOffset, hash32, demoUuid, timestampOffset } from "./random";

export interface DemoProjectRef {
  organizationId: string;
  projectId: string;
}

export interface OpportunityRows {
  opportunities: DemoRow[];
  opportunity_source_checks: DemoRow[];
}

const SIGNAL_BASED_PER_PROJECT = 3;
const FALLBACK_PER_PROJECT = 2;
const CAVEAT = "Demo data: generated from demo signals and fictional contacts; not a real sales lead.";

export function buildOpportunities(
  seed: number,
  projects: readonly DemoProjectRef[],
  signals: readonly DemoSignal[],
  districts: readonly DemoEntity[],
  contactsByEntity: ReadonlyMap<string, readonly DemoRow[]>,
): OpportunityRows {
  const rows: OpportunityRows = { opportunities: [], opportunity_source_checks: [] };
  const actionable = signals.filter(
    (signal) => signal.signalType !== "noise" && (signal.buyingIntent === "medium" || signal.buyingIntent === "high"),
  );

  for (const project of projects) {
    // Each project sees its own deterministic slice of the same demo signals.
    const order = (key: string): number => hash32(`${seed}/${project.projectId}/${key}`);
    const picked = [...actionable]
      .sort((a, b) => order(String(a.row.id)) - order(String(b.row.id)) || String(a.row.id).localeCompare(String(b.row.id)))
      .slice(0, SIGNAL_BASED_PER_PROJECT);
    const used = new Set(picked.map((signal) => signal.entity.district_id));
    const fallback = districts
      .filter((district) => !used.has(district.id))
      .sort((a, b) => order(a.fed_id) - order(b.fed_id) || a.fed_id.localeCompare(b.fed_id))
      .slice(0, FALLBACK_PER_PROJECT);

    const candidates = [
      ...picked.map((signal) => ({ entity: signal.entity, signal })),
      ...fallback.map((entity) => ({ entity, signal: undefined })),
    ];
    candidates.forEach(({ entity, signal }, n) => {
      const id = demoUuid(seed, `opportunity/${project.projectId}/${n}`);
      const confirmed = n === 0 && signal !== undefined;
      const contacts = (contactsByEntity.get(entity.id) ?? []).slice(0, 2).map((contact) => ({
        contact_id: contact.id,
        name: contact.name,
        title: contact.title,
        email: contact.email,
        email_status: contact.email_status,
        source: contact.source,
      }));
      const label = signal ? signal.signalType.replace(/_/g, " ") : "profile match";
      rows.opportunities.push({
        id,
        organization_id: project.organizationId,
        project_id: project.projectId,
        entity_type: entity.kind,
        dedupe_key: `${entity.kind}:${entity.id}:${signal ? String(signal.row.id) : "profile"}`,
        district_id: entity.district_id,
        school_id: entity.kind === "school" ? entity.id : null,
        geo_scope: entity.state,
        title: `Demo opportunity: ${entity.name} (${label})`,
        signal_type: signal ? signal.signalType : null,
        event_date: signal ? signal.signalDate : null,
        event_date_basis: signal ? "signal_date" : null,
        why_now: signal
          ? `Demo (generated): ${entity.name}: ${signal.finding}`
          : "Demo (generated): fits the project's ideal customer profile; no recent signal (fallback prospecting).",
        suggested_action: `Demo (generated): introduce the project's offer to the ${contacts[0]?.title ?? "district leadership"} and reference the ${label}.`,
        caveats: CAVEAT,
        confidence: signal ? Math.round(signal.extractionConfidence * 90) / 100 : 0.35,
        source_urls: signal ? [signal.articleUrl] : [],
        signal_ids: signal ? [String(signal.row.id)] : [],
        contacts,
        suggested_prompts: [
          `Summarize what ${entity.name} has said about ${label} (demo).`,
          `Draft a short outreach note for ${entity.name} (demo).`,
        ],
        supplementary: signal === undefined,
        verification_status: confirmed ? "confirmed" : "unverified",
        window_status: confirmed ? "open" : "unknown",
        last_verified_at: confirmed ? timestampOffset(-1) : null,
        verification_note: confirmed ? "Demo check (simulated): the demo article still states the claim." : null,
        window_ends_on: confirmed ? dateOffset(90) : null,
        data_source: DEMO_SOURCE,
        created_at: timestampOffset(-2),
        updated_at: confirmed ? timestampOffset(-1) : timestampOffset(-2),
      });
      if (confirmed && signal) {
        rows.opportunity_source_checks.push({
          id: demoUuid(seed, `opportunity-source-check/${project.projectId}/${n}`),
          opportunity_id: id,
          url: signal.articleUrl,
          checked_at: timestampOffset(-1),
          note: "Demo check (simulated): page reachable and claim present.",
          status: "ok",
        });
      }
    });
  }
  return rows;
}
