/**
 * The template provider: no language model. It fills a template's `{{placeholders}}` with the values it was
 * given, deterministically (the same template and values give the same text). A placeholder with a null value
 * leaves out the whole line holding it, so a template puts each sentence with an optional placeholder on its
 * own line; a placeholder it was given no value for at all is left as written. The default provider
 * (extractive.provider.ts) hands it every request with a template (outreach e-mails).
 */
import type { GeneratedText, TextGenerator, TextRequest } from "./text-generator";

export const TEMPLATE_PROVIDER = "template";

const PLACEHOLDER = /\{\{\s*([a-z_]+\.[a-z_]+)\s*\}\}/g;

/** The text with its placeholders filled; lines holding a null value left out, at most one blank line in a row. */
export function fillPlaceholders(text: string, values: Record<string, string | null>): string {
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    let dropped = false;
    const filled = line.replace(PLACEHOLDER, (written: string, name: string) => {
      if (!(name in values)) return written;
      const value = values[name];
      if (value === null) dropped = true;
      return value ?? "";
    });
    if (!dropped) lines.push(filled);
  }
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The placeholders a text uses, in order of first use. */
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];

export class TemplateTextGenerator implements TextGenerator {
  readonly name = TEMPLATE_PROVIDER;

  async generate(request: TextRequest): Promise<GeneratedText> {
    if (!request.template) throw new Error("the template provider needs a template");
    const { subject, body, values } = request.template;
    return {
      text: fillPlaceholders(body, values),
      subject: fillPlaceholders(subject, values).replace(/\s+/g, " "),
      provider: this.name,
      model: null,
      sourceUrls: [],
    };
  }
}
