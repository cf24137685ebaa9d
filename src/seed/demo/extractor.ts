/**
 * The demo layer's extraction, as an `Extractor`: a district or school gets the demo extraction's rows
 * (data_source "demo"), a contact its demo enrichment. The composition root (src/compose-jobs.ts) makes it the
 * pipeline's fallback (EXTRACTION_DEMO_FALLBACK); tests use it as the whole extractor.
 */
import type { Extractor } from "../../features/research/extraction/extraction.extractor";

export const demoExtractor: Extractor = async (db, entityType, entityId) => {
  if (entityType === "contact") {
    const { enrichDemoContact } = await import("./enrich-contact");
    if (!(await enrichDemoContact(db, entityId))) throw new Error(`contact ${entityId} no longer exists`);
    return;
  }
  const { extractDemoEntity } = await import("./extract-entity");
  if (entityType !== "district" && entityType !== "school") throw new Error(`no extraction for ${entityType}`);
  const found = await db.transaction((q) => extractDemoEntity(q, entityType, entityId));
  if (!found) throw new Error(`${entityType} ${entityId} no longer exists`);
};
