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
}

export interface GeneratedText {
  text: string;
  provider: string;
  model: string | null;
  /** The sources the text draws on. */
  sourceUrls: string[];
}

export interface TextGenerator {
  readonly name: string;
  generate(request: TextRequest): Promise<GeneratedText>;
}
