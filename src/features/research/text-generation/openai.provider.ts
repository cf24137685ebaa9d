/**
 * A text generator over any OpenAI-compatible chat completions API (OpenAI, Azure OpenAI's v1 surface,
 * vLLM, Ollama, LM Studio ...). The prompt hands over the facts and source excerpts and asks for text
 * that uses nothing else.
 */
import type { GeneratedText, TextGenerator, TextRequest } from "./text-generator";

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  /** Characters of source text sent (the excerpts are cut to fit). */
  maxSourceChars?: number;
}

const TASKS: Record<TextRequest["task"], string> = {
  entity_summary: "Write a factual summary paragraph about the subject for sales and partnership teams.",
  brief: "Write a factual account brief about the subject.",
  outreach_email: "Write a short, factual outreach e-mail to the subject.",
};

/** How a language model answers a request with a template (an e-mail). */
const TEMPLATE_FORMAT = "Answer with the line 'Subject: ' and the subject, an empty line, then the body as plain text; nothing else.";

export class OpenAiCompatibleTextGenerator implements TextGenerator {
  readonly name = "openai-compatible";

  constructor(private readonly options: OpenAiCompatibleOptions) {}

  async generate(request: TextRequest): Promise<GeneratedText> {
    const budget = this.options.maxSourceChars ?? 12_000;
    const per = Math.max(500, Math.floor(budget / Math.max(1, request.sources.length)));
    const sources = request.sources.map((s, i) => `[${i + 1}] ${s.title} (${s.url})\n${s.text.slice(0, per)}`).join("\n\n");
    const system = [
      TASKS[request.task],
      `Use only the facts and sources given; do not add names, numbers or claims that are not in them. At most ${request.maxWords} words.`,
      request.instructions ?? "",
      request.template ? TEMPLATE_FORMAT : "",
    ]
      .filter(Boolean)
      .join(" ");
    const template = request.template
      ? `\n\nTemplate (write from it: keep its intent, order and sign-off; put the facts where its {{placeholders}} are; leave out what the facts do not give):\nSubject: ${request.template.subject}\n\n${request.template.body}`
      : "";
    const user = `Subject: ${request.subject}\n\nFacts:\n${request.facts.map((f) => `- ${f}`).join("\n") || "(none)"}\n\nSources:\n${sources || "(none)"}${template}`;
    const response = await fetch(`${this.options.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
      body: JSON.stringify({
        model: this.options.model,
        temperature: 0.2,
        max_tokens: Math.ceil(request.maxWords * 2),
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
      }),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (!response.ok) throw new Error(`text generation: HTTP ${response.status} from ${this.options.baseUrl}`);
    const body = (await response.json()) as { choices?: { message?: { content?: string } }[]; model?: string };
    const text = body.choices?.[0]?.message?.content?.trim();
    if (!text) throw new Error("text generation: the response has no message content");
    const model = body.model ?? this.options.model;
    if (request.template) {
      // An e-mail: "Subject: ..." on the first line, then the body (TEMPLATE_FORMAT); no such line: subject null.
      const match = /^\s*subject:\s*(.+)\n+([\s\S]*)$/i.exec(text);
      return match
        ? { text: match[2].trim(), subject: match[1].trim(), provider: this.name, model, sourceUrls: [] }
        : { text, subject: null, provider: this.name, model, sourceUrls: [] };
    }
    return { text, provider: this.name, model, sourceUrls: request.sources.map((s) => s.url) };
  }
}
