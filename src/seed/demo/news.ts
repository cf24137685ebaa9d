/**
 * Demo timeline events (the 1,036 days, about 34 months, before the reference day) and demo news articles with extracted signals
 * (published in the 18 months before the reference day), all under https://demo.example.org/.
 */
import type { DemoRow } from "./bulk";
import { DEMO_HOST, DEMO_SOURCE, EVENT_TEXT, EVENT_TYPES, SIGNAL_TEXT, SIGNAL_TYPES, type SignalType } from "./catalog";
import { type DemoEntity, Rotation, seededAt } from "./model";
import { dateOffset, DemoRandom, demoUuid, referenceYear, round, slugify, timestampOffset } from "./random";

/** 2024-01-01 when the reference day was the fixed 2026-11-01; now an offset from the seeding day. */
const TIMELINE_START_DAYS = -1036;
const NEWS_WINDOW_DAYS = 547; // 18 months

export function buildTimelineEvents(seed: number, entities: readonly DemoEntity[]): DemoRow[] {
  const rows: DemoRow[] = [];
  for (const entity of entities) {
    const rng = new DemoRandom(seed, `timeline/${entity.kind}/${entity.fed_id}`);
    const count = entity.kind === "district" ? rng.int(4, 6) : rng.int(2, 3);
    for (let k = 0; k < count; k += 1) {
      const eventType = EVENT_TYPES[(entity.index + k * 3) % EVENT_TYPES.length] as (typeof EVENT_TYPES)[number];
      const eventDate = dateOffset(rng.int(TIMELINE_START_DAYS, -1));
      const text = EVENT_TEXT[eventType];
      rows.push({
        id: demoUuid(seed, `timeline/${entity.kind}/${entity.fed_id}/${k}`),
        entity_type: entity.kind,
        entity_id: entity.id,
        event_date: eventDate,
        event_type: eventType,
        title: `${text.title} (demo event)`,
        description: `Demo event (generated, not from a real source): ${text.description}`,
        source_url: `${DEMO_HOST}/events/${entity.fed_id}/${eventDate}-${eventType.replace(/_/g, "-")}`,
        data_source: DEMO_SOURCE,
        created_at: seededAt(),
      });
    }
  }
  return rows;
}

export interface NewsRows {
  articles: DemoRow[];
  signals: DemoRow[];
}

export function buildNews(seed: number, entities: readonly DemoEntity[]): NewsRows {
  const articles: DemoRow[] = [];
  const signals: DemoRow[] = [];
  const typeRotation = new Rotation();

  for (const entity of entities) {
    const rng = new DemoRandom(seed, `news/${entity.kind}/${entity.fed_id}`);
    const articleCount = entity.kind === "district" ? (rng.chance(0.35) ? 2 : 1) : rng.chance(0.35) ? 1 : 0;
    for (let k = 0; k < articleCount; k += 1) {
      const primary = SIGNAL_TYPES[typeRotation.next() % SIGNAL_TYPES.length] as SignalType;
      const types: SignalType[] = [primary];
      if (primary !== "noise" && rng.chance(0.4)) {
        types.push(rng.pick(SIGNAL_TYPES.filter((type) => type !== "noise" && type !== primary)));
      }
      const template = SIGNAL_TEXT[primary];
      const publishedDays = -rng.int(1, NEWS_WINDOW_DAYS) + rng.float(0.25, 0.85);
      const publishedAt = timestampOffset(publishedDays);
      const url = `${DEMO_HOST}/news/${entity.state.toLowerCase()}/${slugify(entity.name)}-${primary.replace(/_/g, "-")}-${entity.fed_id}-${k + 1}`;
      const articleId = demoUuid(seed, `article/${entity.kind}/${entity.fed_id}/${k}`);
      articles.push({
        id: articleId,
        url,
        title: `Demo: ${entity.name} ${template.headline}`,
        domain: "demo.example.org",
        author: "Demo Newsroom (fictional)",
        description: `Demo article (generated, not a real news story): ${template.summary}`,
        published_at: publishedAt,
        ingested_at: timestampOffset(publishedDays + 0.25),
        data_source: DEMO_SOURCE,
      });

      types.forEach((signalType, j) => {
        const text = SIGNAL_TEXT[signalType];
        // Some medium signals read as high (and the reverse) so intents are not a pure function of type.
        const intent =
          text.intent === "medium" && rng.chance(0.25) ? "high" : text.intent === "high" && rng.chance(0.2) ? "medium" : text.intent;
        const signalDate = dateOffset(Math.floor(publishedDays) - rng.int(0, 6));
        const extractionConfidence = round(rng.float(0.6, 0.98), 2);
        signals.push({
          id: demoUuid(seed, `signal/${entity.kind}/${entity.fed_id}/${k}/${j}`),
          article_id: articleId,
          signal_type: signalType,
          buying_intent: intent,
          buying_intent_reason: `Demo (generated): ${text.reason}`,
          summary: `Demo signal (generated): ${entity.name}: ${text.summary}`,
          signal_date: signalDate,
          signal_date_confidence: round(rng.float(0.55, 0.95), 2),
          extraction_confidence: extractionConfidence,
          evidence: { demo: true, quote: `Demo excerpt (invented): "${text.summary}"`, article_url: url },
          payload: signalPayload(signalType, rng),
          entity_type: entity.kind,
          entity_resolution_status: "resolved",
          entity_match_confidence: round(rng.float(0.8, 0.99), 2),
          entity_match_reason: "Demo: matched on entity name and state.",
          district_id: entity.district_id,
          school_id: entity.kind === "school" ? entity.id : null,
          data_source: DEMO_SOURCE,
          created_at: seededAt(),
        });
      });
    }
  }
  return { articles, signals };
}

function signalPayload(signalType: SignalType, rng: DemoRandom): DemoRow[string] {
  switch (signalType) {
    case "budget_deficit":
    case "budget_surplus":
      return { demo: true, amount: rng.int(5, 150) * 100_000, fiscal_year: referenceYear() + 1 };
    case "facility_bond":
    case "grant_award":
      return { demo: true, amount: rng.int(2, 400) * 250_000 };
    case "chronic_absenteeism":
      return { demo: true, rate_pct: round(rng.float(15, 35), 1) };
    case "staffing_shortage":
      return { demo: true, open_positions: rng.int(8, 120) };
    case "enrollment_change":
      return { demo: true, change_pct: round(rng.float(-6, 6), 1) };
    case "rfp_released":
    case "technology_initiative":
      return { demo: true, categories: rng.sample(["sis", "lms", "security", "sso", "devices"], 2) };
    default:
      return { demo: true };
  }
}
