/**
 * What the `unlock.extract` job runs (src/features/account/unlocks/unlock.jobs.ts): an `Extractor`. The real
 * one is the pipeline: a district or school with a website_url is crawled. One without a website_url has
 * nothing to crawl: with EXTRACTION_DEMO_FALLBACK=true (the default, for the demo dataset and tests) it gets the
 * fallback extraction, with false it ends in error. Other kinds (contacts) go to the fallback as before.
 *
 * The fallback is the demo layer's extraction (src/seed/demo/extractor.ts, rows saying data_source "demo"). Production
 * code never imports the demo seed: the composition root hands it over (useExtractionFallback, src/compose-jobs.ts).
 */
import { loadEnv, type Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { readEntity } from "./extraction.entity";

/** The job attempt an extraction runs in (absent when a test calls an extractor directly). */
export interface ExtractionRun {
  env: Env;
  jobId: string;
  retryCount: number;
}

/** Runs an entity's extraction (writes its intelligence); throws when it fails. */
export type Extractor = (db: Db, entityType: string, entityId: string, run?: ExtractionRun) => Promise<void>;

let fallback: Extractor | undefined;

/** Sets the extraction of entities the pipeline cannot crawl (the composition root passes the demo layer's). */
export function useExtractionFallback(next: Extractor): void {
  fallback = next;
}

const runFallback: Extractor = (db, entityType, entityId, run) => {
  if (!fallback) throw new Error(`no extraction for ${entityType} ${entityId}: no fallback extraction is configured`);
  return fallback(db, entityType, entityId, run);
};

/** The worker's extractor: the pipeline for a district or school with a website_url, else the fallback. */
export const pipelineExtractor: Extractor = async (db, entityType, entityId, run) => {
  if (entityType !== "district" && entityType !== "school") return runFallback(db, entityType, entityId, run);
  const entity = await readEntity(db, entityType, entityId);
  if (!entity) throw new Error(`${entityType} ${entityId} no longer exists`);
  const env = run?.env ?? loadEnv();
  if (!entity.websiteUrl?.trim() && env.EXTRACTION_DEMO_FALLBACK === "true") return runFallback(db, entityType, entityId, run);
  // The crawler, parsers and extractors load only when there is a site to crawl.
  const { runExtractionPipeline } = await import("./pipeline");
  await runExtractionPipeline(db, entityType, entityId, { env, jobId: run?.jobId, retryCount: run?.retryCount });
};
