/**
 * The default text generator: no language model. It quotes the highest-scoring sentences of the
 * sources (those naming the subject or planning, budget, technology, enrollment and board decisions),
 * in source order, up to the word budget, then the facts it was given. The text starts by saying so.
 * A request with a template (outreach e-mails) is the template provider's: it fills the template, also
 * without a language model.
 */
import { TemplateTextGenerator } from "./template.provider";
import type { GeneratedText, TextGenerator, TextRequest } from "./text-generator";

export const EXTRACTIVE_PREFIX = "Extractive summary (no language model was used; sentences quoted from the sources): ";
export const EXTRACTIVE_DRAFT_PREFIX = "Extractive draft (no language model was used; facts and quotes from the sources): ";

const TOPICS =
  /\b(mission|vision|strategic|priorit(y|ies)|goals?|plan|budget|technology|enrollment|students|schools|board|approved|adopted|grant|bond|initiative|curriculum|literacy|safety|graduation)\b/gi;
const NOISE = /@|https?:|\(\d{3}\)|\d{3}-\d{4}|cookie|javascript|copyright|©|all rights reserved|skip to|menu|log ?in|sign ?in/i;

export class ExtractiveTextGenerator implements TextGenerator {
  readonly name = "extractive";

  async generate(request: TextRequest): Promise<GeneratedText> {
    if (request.template) return new TemplateTextGenerator().generate(request);
    const terms = (request.subjectTerms ?? []).map((t) => t.toLowerCase()).filter((t) => t.length > 3);
    const candidates: { sentence: string; score: number; order: number; url: string }[] = [];
    const seen = new Set<string>();
    let order = 0;
    for (const source of request.sources)
      for (const line of source.text.split("\n"))
        for (const sentence of line.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
          order += 1;
          const s = sentence.trim();
          const words = s.split(/\s+/).length;
          if (words < 8 || words > 45 || !/[.!?]$/.test(s) || NOISE.test(s)) continue;
          const key = s.toLowerCase();
          if (seen.has(key)) continue;
          seen.add(key);
          const lower = key;
          const score = (s.match(TOPICS)?.length ?? 0) + terms.filter((t) => lower.includes(t)).length * 2;
          if (score > 0) candidates.push({ sentence: s, score, order, url: source.url });
        }
    const chosen: typeof candidates = [];
    let words = 0;
    for (const c of [...candidates].sort((a, b) => b.score - a.score || a.order - b.order)) {
      const n = c.sentence.split(/\s+/).length;
      if (words + n > request.maxWords) continue;
      chosen.push(c);
      words += n;
      if (chosen.length >= 6) break;
    }
    chosen.sort((a, b) => a.order - b.order);
    const prefix = request.task === "entity_summary" ? EXTRACTIVE_PREFIX : EXTRACTIVE_DRAFT_PREFIX;
    const quoted = chosen.map((c) => c.sentence).join(" ");
    const facts = request.facts.length ? ` Extracted: ${request.facts.join("; ")}.` : "";
    const body = quoted || `no sentence of the sources describes ${request.subject}.`;
    return { text: `${prefix}${body}${facts}`, provider: this.name, model: null, sourceUrls: [...new Set(chosen.map((c) => c.url))] };
  }
}
