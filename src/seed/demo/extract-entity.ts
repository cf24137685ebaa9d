/**
 * The demo extraction of ONE district or school, for the unlock extraction job until the real pipeline
 * lands: the same generators as the demo layer (intelligence rows, summary, status `completed`,
 * timestamps, data_source `demo`), written in the caller's transaction. Re-running it replaces the
 * entity's demo intelligence rows, so a retried or repeated extraction leaves one copy.
 */
import type { Queryable } from "../../db/client";
import { readColumnTypes } from "../../db/column-types";
import { insertRows } from "./bulk";
import { DEMO_SOURCE } from "./catalog";
import { DEFAULT_DEMO_SEED } from "./demo.service";
import { completedUpdate } from "./extraction";
import { buildIntelligence } from "./intelligence";
import { districtEntity, schoolEntity, type DistrictSeedRow, type SchoolSeedRow } from "./model";
import { utcDay, withReferenceDay } from "./random";

const ENTITY_TABLES = ["entity_vendors", "pain_points", "funding", "contracts", "bids"] as const;

export async function extractDemoEntity(q: Queryable, kind: "district" | "school", id: string): Promise<boolean> {
  // Hand-written: the demo layer writes through its bulk helpers (bench/startup.ts first start); one entity here.
  const [row] =
    kind === "district"
      ? await q.query<DistrictSeedRow>(
          `SELECT id, fed_id, name, state, physical_city, student_count, school_count, phone FROM districts WHERE id = $1::uuid`,
          [id],
        )
      : await q.query<SchoolSeedRow>(
          `SELECT id, fed_id, name, state, district_id, physical_city, student_count, grade_low, grade_high, phone FROM schools WHERE id = $1::uuid`,
          [id],
        );
  if (!row) return false;
  const entity = kind === "district" ? districtEntity(row as DistrictSeedRow, 0) : schoolEntity(row as SchoolSeedRow, 0);
  // Dates count from the day of the extraction (the same rule as the demo layer's seeding day).
  const day = utcDay(new Date());
  const intelligence = withReferenceDay(day, () => buildIntelligence(DEFAULT_DEMO_SEED, [entity]));
  const types = await readColumnTypes(q, ["vendors", ...ENTITY_TABLES]);
  const column = kind === "district" ? "district_id" : "school_id";
  for (const table of ENTITY_TABLES)
    await q.query(`DELETE FROM ${table} WHERE ${column} = $1::uuid AND entity_type = $2 AND data_source = $3`, [id, kind, DEMO_SOURCE]);
  const present = new Set((await q.query<{ name: string }>(`SELECT name FROM vendors`)).map((v) => v.name));
  await insertRows(
    q,
    types,
    "vendors",
    intelligence.vendors.filter((v) => !present.has(String(v.name))),
  );
  for (const table of ENTITY_TABLES) await insertRows(q, types, table, intelligence[table]);
  const update = withReferenceDay(day, () => completedUpdate(DEFAULT_DEMO_SEED, entity, intelligence.vendorNamesByEntity.get(id) ?? []));
  const now = new Date().toISOString();
  await q.query(
    `UPDATE ${kind === "district" ? "districts" : "schools"}
        SET status = 'completed', ai_summary = $2, summary_generated_at = $3, content_extracted_at = $3, error_message = NULL
            ${kind === "district" ? ", strategic_priorities = $4::jsonb, meeting_minutes_pdfs = $5::jsonb" : ""}
      WHERE id = $1::uuid`,
    kind === "district"
      ? [
          id,
          update.ai_summary,
          now,
          JSON.stringify(update.strategic_priorities ?? null),
          JSON.stringify(update.meeting_minutes_pdfs ?? null),
        ]
      : [id, update.ai_summary, now],
  );
  return true;
}
