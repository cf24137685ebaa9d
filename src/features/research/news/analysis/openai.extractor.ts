/**
 * The language-model signal extractor: any OpenAI-compatible /chat/completions API (TEXT_GENERATION_* settings).
 * The model classifies and grades; evidence must be sentences of the article (kept only when found verbatim, with
 * their offsets), the summary is an evidence sentence, and dates and payload are parsed here from that evidence,
 * so nothing the text does not say is stored. On any failure (HTTP, timeout, bad JSON, unknown type) the offline
 * rules answer instead.
 */
import type { Env } from "../../../../config/env";
import { logger } from "../../../../logger";
import { RulesSignalExtractor } from "./rules";
import { findAmounts, findCounts, findDates, findPercents, findVendors } from "./text";
import {
  BUYING_INTENTS,
  documentOf,
  SIGNAL_TYPES,
  type ArticleText,
  type BuyingIntent,
  type SignalDraft,
  type SignalExtractor,
  type SignalType,
} from "./types";

export interface OpenAiSignalOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

const SYSTEM = `You classify US K-12 school news for edtech sales teams. Answer JSON only:
{"signals":[{"signal_type":one of ${SIGNAL_TYPES.join("|")},"buying_intent":"none|low|medium|high","buying_intent_reason":"short","evidence":["exact sentences copied from the article"]}]}
The first signal is the article's main one; add a second only when the article clearly carries it. Use "noise" when nothing a vendor acts on.
Intent: high = about to spend (open RFP, passed bond, approved purchase or adoption); medium = likely soon (grant, leadership change, bond on the ballot, cyberattack, enrollment growth); low = weak (deficits, failed bonds, reports, incidents); none = noise.`;

export class OpenAiSignalExtractor implements SignalExtractor {
  readonly name = "openai-compatible";
  private readonly fallback = new RulesSignalExtractor();

  constructor(private readonly options: OpenAiSignalOptions) {}

  async extract(article: ArticleText): Promise<SignalDraft[]> {
    try {
      return await this.ask(article);
    } catch (error) {
      logger.warn("signal extraction by model failed; rules used", {
        err: error instanceof Error ? error.message : String(error),
        url: article.url,
      });
      return this.fallback.extract(article);
    }
  }

  private async ask(article: ArticleText): Promise<SignalDraft[]> {
    const doc = documentOf(article);
    const response = await fetch(`${this.options.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
      body: JSON.stringify({
        model: this.options.model,
        temperature: 0,
        response_format: { type: "json_object" },
        messages: [
          { role: "system", content: SYSTEM },
          { role: "user", content: doc.slice(0, 12_000) },
        ],
      }),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (!content) throw new Error("no message content");
    const parsed = JSON.parse(content.replace(/^```(?:json)?|```$/g, "")) as { signals?: unknown };
    if (!Array.isArray(parsed.signals) || !parsed.signals.length) throw new Error("no signals in the answer");
    const published = article.published_at;
    const publishedDate = published ? published.toISOString().slice(0, 10) : null;
    return parsed.signals.slice(0, 3).map((raw) => {
      const s = raw as Record<string, unknown>;
      const type = s.signal_type as SignalType;
      const intent = s.buying_intent as BuyingIntent;
      if (!SIGNAL_TYPES.includes(type) || !BUYING_INTENTS.includes(intent)) throw new Error("an unknown type or intent");
      const evidence = (Array.isArray(s.evidence) ? s.evidence : [])
        .map((e) => String(e).trim())
        .map((text) => ({ text, start: doc.indexOf(text) }))
        .filter((e) => e.text && e.start >= 0)
        .map((e) => ({ text: e.text, start: e.start, end: e.start + e.text.length }));
      const evidenceText = evidence.map((e) => e.text).join(" ");
      const dates = findDates(doc, published).filter((d) => evidence.some((e) => d.start >= e.start && d.end <= e.end));
      const payload: Record<string, unknown> = {};
      const amounts = findAmounts(evidenceText);
      if (amounts.length) payload.amounts = amounts.map((a) => ({ text: a.text, value: a.value }));
      const counts = findCounts(evidenceText);
      if (counts.length) payload.counts = counts;
      const percents = findPercents(evidenceText);
      if (percents.length) payload.percentages = percents;
      if (dates.length) payload.dates = dates.map((d) => ({ text: d.text, date: d.date }));
      const vendors = findVendors(evidenceText);
      if (vendors.length) payload.vendors = vendors;
      return {
        signal_type: type,
        buying_intent: type === "noise" ? "none" : intent,
        buying_intent_reason: String(s.buying_intent_reason ?? "").slice(0, 300) || `graded ${intent} by the model`,
        summary: evidence[0]?.text ?? article.title,
        signal_date: dates[0]?.date ?? publishedDate,
        signal_date_confidence: dates[0] ? dates[0].confidence : publishedDate ? 0.5 : 0,
        extraction_confidence: evidence.length ? 0.8 : 0.6,
        evidence,
        payload,
      } satisfies SignalDraft;
    });
  }
}

export function signalExtractorFromEnv(
  env: Pick<Env, "TEXT_GENERATION_BASE_URL" | "TEXT_GENERATION_API_KEY" | "TEXT_GENERATION_MODEL" | "TEXT_GENERATION_TIMEOUT_MS">,
): SignalExtractor {
  if (!env.TEXT_GENERATION_BASE_URL) return new RulesSignalExtractor();
  return new OpenAiSignalExtractor({
    baseUrl: env.TEXT_GENERATION_BASE_URL,
    apiKey: env.TEXT_GENERATION_API_KEY,
    model: env.TEXT_GENERATION_MODEL,
    timeoutMs: env.TEXT_GENERATION_TIMEOUT_MS,
  });
}
