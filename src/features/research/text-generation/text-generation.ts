/**
 * Text generation behind one interface: the extraction pipeline's summaries today, briefs and outreach
 * e-mails later. Two providers: `extractive` (the default: no language model, it quotes the sources'
 * best sentences and says so) and `openai-compatible` (any `/chat/completions` API: set
 * TEXT_GENERATION_BASE_URL, TEXT_GENERATION_API_KEY, TEXT_GENERATION_MODEL).
 */
import type { Env } from "../../../config/env";
import { ExtractiveTextGenerator } from "./extractive.provider";
import { OpenAiCompatibleTextGenerator } from "./openai.provider";

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

export function textGeneratorFromEnv(
  env: Pick<Env, "TEXT_GENERATION_BASE_URL" | "TEXT_GENERATION_API_KEY" | "TEXT_GENERATION_MODEL" | "TEXT_GENERATION_TIMEOUT_MS">,
): TextGenerator {
  if (!env.TEXT_GENERATION_BASE_URL) return new ExtractiveTextGenerator();
  return new OpenAiCompatibleTextGenerator({
    baseUrl: env.TEXT_GENERATION_BASE_URL,
    apiKey: env.TEXT_GENERATION_API_KEY,
    model: env.TEXT_GENERATION_MODEL,
    timeoutMs: env.TEXT_GENERATION_TIMEOUT_MS,
  });
}
