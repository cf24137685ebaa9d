/** The shapes of the news analysis: what goes in (an article's text) and what comes out (signals with their entities). */

import { SIGNAL_TYPES } from "../../../kits/common/enums";

// The contract's value list (section 9) lives with the other value lists: projects' profiles name the types too.
export { SIGNAL_TYPES };
export type SignalType = (typeof SIGNAL_TYPES)[number];

export const BUYING_INTENTS = ["none", "low", "medium", "high"] as const;
export type BuyingIntent = (typeof BUYING_INTENTS)[number];

export interface ArticleText {
  title: string;
  /** The article's main text (may be empty: the title alone is analysed). */
  text: string;
  url: string;
  domain: string | null;
  published_at: Date | null;
  /** The district whose own site published the article (extraction origin): it resolves directly. */
  origin_district_id?: string | null;
}

export interface Evidence {
  /** The sentence, verbatim. */
  text: string;
  /** Offsets into the analysed document (title + "\n\n" + text). */
  start: number;
  end: number;
}

/** One signal as a provider derives it from the text, before entity resolution. */
export interface SignalDraft {
  signal_type: SignalType;
  buying_intent: BuyingIntent;
  buying_intent_reason: string;
  summary: string;
  signal_date: string | null;
  signal_date_confidence: number;
  extraction_confidence: number;
  evidence: Evidence[];
  payload: Record<string, unknown>;
}

export interface ResolvedEntity {
  entity_type: "district" | "school" | null;
  entity_resolution_status: "resolved" | "ambiguous" | "unresolved";
  entity_match_confidence: number;
  entity_match_reason: string;
  district_id: string | null;
  school_id: string | null;
  /** The district's NCES LEAID (for reports and the bench), null unless resolved. */
  district_fed_id: string | null;
  district_name: string | null;
}

export type AnalyzedSignal = SignalDraft & ResolvedEntity;

/** The document a provider reads: the title, a blank line, the text. Evidence offsets point into it. */
export function documentOf(article: Pick<ArticleText, "title" | "text">): string {
  const title = article.title.trim();
  const text = (article.text ?? "").trim();
  return text ? `${title}\n\n${text}` : title;
}

/** A provider of signals: the offline rules (default) or a language model. */
export interface SignalExtractor {
  readonly name: string;
  extract(article: ArticleText): Promise<SignalDraft[]>;
}
