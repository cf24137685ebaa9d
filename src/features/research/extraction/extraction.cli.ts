/**
 * `edmarket extract --entity district:<uuid> [--url <site root>]`: the pipeline in the foreground, the
 * same code as the `unlock.extract` job (runExtractionPipeline), printing its summary. No credits move:
 * this is an operator's tool. A failed run prints its summary too (status "error") and exits 1.
 */
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { runExtractionPipeline, type ExtractionSummary } from "./pipeline";

const ENTITY = /^(district|school):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export class ExtractUsageError extends Error {}

export function parseEntity(value: string): { kind: "district" | "school"; id: string } {
  const m = ENTITY.exec(value.trim());
  if (!m) throw new ExtractUsageError(`--entity must be district:<uuid> or school:<uuid>, not ${value}`);
  return { kind: m[1]!.toLowerCase() as "district" | "school", id: m[2]!.toLowerCase() };
}

export async function extractCommand(db: Db, env: Env, entity: string, url?: string): Promise<ExtractionSummary> {
  const { kind, id } = parseEntity(entity);
  if (url !== undefined && !/^https?:\/\/\S+$/i.test(url)) throw new ExtractUsageError(`--url must be an http(s) URL, not ${url}`);
  try {
    return await runExtractionPipeline(db, kind, id, { env, rootUrl: url });
  } catch (error) {
    const summary = (error as { summary?: ExtractionSummary }).summary;
    if (!summary) throw error;
    process.exitCode = 1;
    return summary;
  }
}
