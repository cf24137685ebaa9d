/**
 * District.strategicPrioritiesDataSource: the label of the district's strategic_priorities (a JSON array of
 * strings in the spec, kept as such), gated like them. "demo" when the demo layer wrote them (the record
 * carries the demo summary mark, DEMO_SUMMARY_PREFIX, which both demo writers set with the priorities),
 * "extraction" when the extraction pipeline did, null when the district has none.
 */
import { DEMO_DATA_SOURCE, DEMO_SUMMARY_PREFIX } from "../../kits/common/data-source";
import { defineBlock } from "../../kits/blocks/block";

/** The pipeline's rows say data_source "extraction" (src/features/research/extraction/extraction.store.ts). */
const EXTRACTION_DATA_SOURCE = "extraction";

export const strategicPrioritiesDataSourceBlock = defineBlock({
  name: "strategic_priorities_data_source",
  kinds: ["district"],
  gated: true,
  sql: ({ record }) =>
    `CASE WHEN ${record}.strategic_priorities IS NULL OR jsonb_typeof(${record}.strategic_priorities) = 'null' THEN NULL
          WHEN left(${record}.ai_summary, ${DEMO_SUMMARY_PREFIX.length}) = '${DEMO_SUMMARY_PREFIX.replace(/'/g, "''")}'
          THEN to_json('${DEMO_DATA_SOURCE}'::text) ELSE to_json('${EXTRACTION_DATA_SOURCE}'::text) END`,
  decode: (json) => (typeof json === "string" ? json : null),
  fields: [{ name: "strategicPrioritiesDataSource", type: () => String, nullable: true, shape: (source) => source }],
});
