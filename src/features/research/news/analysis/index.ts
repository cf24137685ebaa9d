/**
 * From an article's text to its signals (type, buying intent, summary, date, evidence, payload) and the
 * districts and schools they are about. Replaces the article's earlier signals and sets its analyzed_at.
 * docs/signals.md, "Signals and entity resolution".
 */
import { loadEnv } from "../../../../config/env";
import type { Db } from "../../../../db/client";
import type { Tx } from "../../../../db/transaction";
import { emitSignalsCreated } from "../news.service";
import { signalExtractorFromEnv } from "./openai.extractor";
import { resolveEntities } from "./resolve";
import { documentOf, type AnalyzedSignal, type ArticleText, type SignalExtractor, type SignalType } from "./types";

export type { AnalyzedSignal, ArticleText, SignalDraft, SignalExtractor } from "./types";
export { RulesSignalExtractor } from "./rules";
export { OpenAiSignalExtractor, signalExtractorFromEnv } from "./openai.extractor";

/** data_source of the signals and events derived from a real article. */
export const NEWS_SOURCE = "news";

let defaultExtractor: SignalExtractor | undefined;
const extractorOf = (options?: AnalyzeOptions) => options?.extractor ?? (defaultExtractor ??= signalExtractorFromEnv(loadEnv()));

export interface AnalyzeOptions {
  /** The signal provider; default from TEXT_GENERATION_* (the offline rules when unset). */
  extractor?: SignalExtractor;
}

/** The signals of an article's text with their entities, without writing anything. */
export async function analyzeText(db: Db, article: ArticleText, options?: AnalyzeOptions): Promise<AnalyzedSignal[]> {
  const drafts = await extractorOf(options).extract(article);
  const resolution = await resolveEntities(db, {
    doc: documentOf(article),
    domain: article.domain,
    url: article.url,
    origin_district_id: article.origin_district_id,
  });
  const out: AnalyzedSignal[] = [];
  for (const draft of drafts) {
    if (resolution.status === "resolved") {
      for (const d of resolution.districts)
        out.push({
          ...draft,
          entity_type: d.school_id ? "school" : "district",
          entity_resolution_status: "resolved",
          entity_match_confidence: d.confidence,
          entity_match_reason: d.reason,
          district_id: d.id,
          school_id: d.school_id ?? null,
          district_fed_id: d.fed_id,
          district_name: d.name,
        });
    } else {
      // Not about a public district we can name: nothing for a vendor to act on there.
      const notDistrict = resolution.status === "unresolved" && /outside the United States/.test(resolution.reason);
      out.push({
        ...draft,
        ...(notDistrict && draft.signal_type !== "noise"
          ? { buying_intent: "none" as const, buying_intent_reason: resolution.reason }
          : {}),
        entity_type: null,
        entity_resolution_status: resolution.status,
        entity_match_confidence: resolution.confidence,
        entity_match_reason: resolution.reason,
        district_id: null,
        school_id: null,
        district_fed_id: null,
        district_name: null,
      });
    }
  }
  return out;
}

/** The timeline event type of a resolved signal (contract section 9); other types are `news`. */
const EVENT_TYPE: Partial<Record<SignalType, string>> = {
  leadership_change: "leadership_change",
  grant_award: "grant_award",
  rfp_released: "rfp_posted",
};

export function eventTypeOf(signal: Pick<AnalyzedSignal, "signal_type" | "evidence">): string | null {
  if (signal.signal_type === "noise") return null;
  const text = signal.evidence.map((e) => e.text).join(" ");
  if (
    (signal.signal_type === "budget_deficit" || signal.signal_type === "budget_surplus") &&
    /\b(adopt\w*|approv\w*|passed)\b.{0,40}\bbudget\b|\bbudget\b.{0,40}\b(adopt\w*|approv\w*)/i.test(text)
  )
    return "budget_adopted";
  if (/\b(awarded|award\w*) (a |the )?contract\b|\bcontract (was )?award\w*/i.test(text) && signal.signal_type !== "grant_award")
    return "contract_award";
  return EVENT_TYPE[signal.signal_type] ?? "news";
}

/**
 * Analyses the stored article: derives its signals, resolves their entities, replaces the article's earlier
 * signals and the timeline events they wrote, writes one event per resolved non-noise signal (none for a page of a
 * district's own site found by its extraction), sets analyzed_at; one transaction.
 */
export async function analyzeArticle(db: Db, articleId: string, options?: AnalyzeOptions): Promise<{ signals: number }> {
  const article = await db.prisma.article.findUnique({ where: { id: articleId } });
  if (!article) throw new Error(`article ${articleId} not found`);
  const signals = await analyzeText(
    db,
    {
      title: article.title,
      text: article.text ?? article.description ?? "",
      url: article.url,
      domain: article.domain,
      published_at: article.published_at,
      origin_district_id: article.origin_district_id,
    },
    options,
  );
  const dataSource = article.data_source === "demo" ? "demo" : NEWS_SOURCE;
  const eventDate = (s: AnalyzedSignal) =>
    new Date(`${s.signal_date ?? (article.published_at ?? new Date()).toISOString().slice(0, 10)}T00:00:00Z`);
  await db.prisma.$transaction(async (tx: Tx) => {
    await tx.signal.deleteMany({ where: { article_id: article.id } });
    await tx.timelineEvent.deleteMany({ where: { source_url: article.url, data_source: dataSource } });
    if (signals.length)
      await tx.signal.createMany({
        data: signals.map((s) => ({
          article_id: article.id,
          signal_type: s.signal_type,
          buying_intent: s.buying_intent,
          buying_intent_reason: s.buying_intent_reason,
          summary: s.summary,
          signal_date: s.signal_date ? new Date(`${s.signal_date}T00:00:00Z`) : null,
          signal_date_confidence: s.signal_date_confidence,
          extraction_confidence: s.extraction_confidence,
          evidence: s.evidence.map((e) => ({ ...e })),
          payload: s.payload as object,
          entity_type: s.entity_type,
          entity_resolution_status: s.entity_resolution_status,
          entity_match_confidence: s.entity_match_confidence,
          entity_match_reason: s.entity_match_reason,
          district_id: s.district_id,
          school_id: s.school_id,
          data_source: dataSource,
        })),
      });
    // The article's signals are new rows (its earlier ones were deleted above): each is reported as created.
    if (signals.length) await emitSignalsCreated(tx, article.id);
    // A district's own page found by its extraction (origin `extraction`) already has the extraction's timeline events,
    // gated by type where they restate intelligence (issue 20 point 2): a second, public event of the same page would
    // restate them ungated ("Voters approve bond; district wins literacy grant"). Its signals stay in the paid feed.
    const events = (article.origin === "extraction" ? [] : signals)
      .filter((s) => s.entity_resolution_status === "resolved" && (s.school_id ?? s.district_id))
      .map((s) => ({ s, type: eventTypeOf(s) }))
      .filter((e): e is { s: AnalyzedSignal; type: string } => e.type !== null);
    if (events.length)
      await tx.timelineEvent.createMany({
        data: events.map(({ s, type }) => ({
          entity_type: s.school_id ? "school" : "district",
          entity_id: (s.school_id ?? s.district_id) as string,
          event_date: eventDate(s),
          event_type: type,
          title: article.title.slice(0, 300),
          description: s.summary,
          source_url: article.url,
          data_source: dataSource,
        })),
      });
    await tx.article.update({ where: { id: article.id }, data: { analyzed_at: new Date() } });
  });
  return { signals: signals.length };
}
