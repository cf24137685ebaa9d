/**
 * Text generation behind one interface: the extraction pipeline's summaries today, briefs and outreach
 * e-mails later. Two providers: `extractive` (the default: no language model, it quotes the sources'
 * best sentences and says so) and `openai-compatible` (any `/chat/completions` API: set
 * TEXT_GENERATION_BASE_URL, TEXT_GENERATION_API_KEY, TEXT_GENERATION_MODEL).
 */
import type { Env } from "../../../config/env";
import { ExtractiveTextGenerator } from "./extractive.provider";
import { OpenAiCompatibleTextGenerator } from "./openai.provider";
import type { TextGenerator } from "./text-generator";

export type { GeneratedText, TextGenerator, TextRequest, TextSource, TextTemplate } from "./text-generator";

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
