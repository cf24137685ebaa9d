/**
 * Where the real pipeline plugs into the `unlock.extract` job (src/features/account/unlocks/unlock.jobs.ts):
 * a district or school with a website_url is crawled by the pipeline. One without a website_url has
 * nothing to crawl: with EXTRACTION_DEMO_FALLBACK=true (the default, for the demo dataset and tests) it
 * gets the demo extraction, whose rows say data_source "demo"; with false it ends in error. Other kinds
 * (contacts) go to the fallback as before.
 */
import { loadEnv } from "../../../config/env";
import type { Db } from "../../../db/client";
import type { Extractor, ExtractionRun } from "../../account/unlocks/unlock.jobs";
import { readEntity } from "./extraction.entity";

export async function extractEntity(
  db: Db,
  entityType: string,
  entityId: string,
  run: ExtractionRun | undefined,
  fallback: Extractor,
): Promise<void> {
  if (entityType !== "district" && entityType !== "school") return fallback(db, entityType, entityId, run);
  const entity = await readEntity(db, entityType, entityId);
  if (!entity) throw new Error(`${entityType} ${entityId} no longer exists`);
  const env = run?.env ?? loadEnv();
  if (!entity.websiteUrl?.trim() && env.EXTRACTION_DEMO_FALLBACK === "true") return fallback(db, entityType, entityId, run);
  // The crawler, parsers and extractors load only when there is a site to crawl.
  const { runExtractionPipeline } = await import("./pipeline");
  await runExtractionPipeline(db, entityType, entityId, { env, jobId: run?.jobId, retryCount: run?.retryCount });
}
