/** The text generator interface both providers implement (text-generation.ts picks one from the environment). */

export interface TextSource {
  url: string;
  title: string;
  text: string;
}

export interface TextRequest {
  task: "entity_summary" | "brief" | "outreach_email";
  /** Who or what the text is about ("Lincoln Public Schools, NE (school district)"). */
  subject: string;
  /** Words the subject is known by (the extractive provider favours sentences naming them). */
  subjectTerms?: string[];
  /** Facts established elsewhere (extracted rows), one per line; providers may state them, never add others. */
  facts: string[];
  sources: TextSource[];
  maxWords: number;
  /** Extra guidance for language-model providers. */
  instructions?: string;
  /**
   * outreach_email: the template to write from and the values of its placeholders (null: no value; a line holding
   * it is left out). The template provider fills it; a language model writes subject and body from it and the facts.
   */
  template?: TextTemplate;
}

export interface TextTemplate {
  subject: string;
  body: string;
  values: Record<string, string | null>;
}

export interface GeneratedText {
  text: string;
  provider: string;
  model: string | null;
  /** The sources the text draws on. */
  sourceUrls: string[];
  /** With a template: the subject line written (null when a language model gave none). */
  subject?: string | null;
}

export interface TextGenerator {
  readonly name: string;
  generate(request: TextRequest): Promise<GeneratedText>;
}
