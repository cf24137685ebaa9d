import "reflect-metadata";
import { createDb } from "../src/db/client";
import { embeddingProvider } from "../src/features/research/semantic-search/embeddings.provider";
import { rankEntities } from "../src/features/research/semantic-search/semantic-search.service";
import { SemanticSearchEntityType } from "../src/features/research/semantic-search/semantic-search.inputs";
(async () => {
  const db = await createDb(process.env.PG ? { databaseUrl: process.env.PG } : { dataDir: process.env.DIR! });
  const provider = embeddingProvider({ EMBEDDINGS_MODEL: "unused" } as never);
  const req = { query: process.env.Q ?? "rural districts in Nebraska with high poverty", entityType: SemanticSearchEntityType.district, filters: { state: process.env.STATE ?? null, districtId: null, schoolId: null }, limit: 10 };
  for (let i = 0; i < 3; i++) { const t = performance.now(); await rankEntities(db, "00000000-0000-4000-8000-000000000000", provider, req); console.log("ms", (performance.now() - t).toFixed(1)); }
  const q = db.query.bind(db);
  (db as any).query = async (sql: string, params: unknown[]) => { const t = performance.now(); const plan = await q(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params); console.log("---", (performance.now() - t).toFixed(1), "ms", sql.slice(0, 60).replace(/\s+/g, " ")); console.log(plan.map((r: any) => r["QUERY PLAN"]).join("\n").replace(/'\[[-0-9.,e]+\]'/g, "'[vec]'").replace(/\{[-0-9.,e]{200,}\}/g, "{vec}")); return q(sql, params); };
  await rankEntities(db, "00000000-0000-4000-8000-000000000000", provider, req);
  await db.close();
})();
