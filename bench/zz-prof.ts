import "reflect-metadata";
import fs from "node:fs";
import inspector from "node:inspector";
process.env.LOG_LEVEL = "silent";
import { restAdapter } from "../rest-adapter";
import { createApp } from "../src/app";
import { loadEnv } from "../src/config/env";
import { createDb } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { createApiKey } from "../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../src/features/account/organizations/organization.service";
import { USE_LITE_MODEL, embeddingProvider } from "../src/features/research/semantic-search/embeddings.provider";
import { ensureVectorIndex } from "../src/features/research/semantic-search/vector-index";
import { rankEntities } from "../src/features/research/semantic-search/semantic-search.service";
import { SemanticSearchEntityType } from "../src/features/research/semantic-search/semantic-search.inputs";
import { createHttpServer } from "../src/http-server";
const N = Number(process.env.N ?? 2000);
const MODE = process.env.MODE ?? "endpoint";
(async () => {
  const db = await createDb(process.env.PG ? { databaseUrl: process.env.PG } : { dataDir: "memory://" });
  await migrate(db);
  const ids = await db.query<{ id: string }>(`INSERT INTO districts (fed_id, name, state, physical_city, data_source, status) SELECT 'S'||g, 'District '||g, (ARRAY['CA','NE','TX'])[1+g%3], 'City '||(g%100), 'bench','completed' FROM generate_series(1,${N}) g RETURNING id`);
  const vec = () => { const v = Array.from({ length: 512 }, () => Math.random() - 0.5); const n = Math.hypot(...v); return `{${v.map((x) => x / n).join(",")}}`; };
  await db.query(`INSERT INTO embeddings (entity_type, entity_id, source_type, source_id, content, model, vector, dimension, state, district_id) SELECT 'district', t.id, 'profile','profile','x', $1, t.v::real[], 512, 'CA', t.id FROM unnest($2::uuid[], $3::text[]) t(id, v)`, [USE_LITE_MODEL, ids.map((r) => r.id), ids.map(() => vec())]);
  await ensureVectorIndex(db, USE_LITE_MODEL, "district", 512);
  const env = loadEnv({ LOG_LEVEL: "silent", EMBEDDINGS_AUTO: "false" });
  const { organizationId } = await createOrganization(db, { name: "x", plan: "internal", credits: 100000 });
  const { apiKey } = await createApiKey(db, organizationId);
  const app = await createApp({ db, env, rest: restAdapter });
  const server = createHttpServer(app.app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/semantic-search`;
  const provider = embeddingProvider(env);
  const one = async (i: number) => {
    if (MODE === "endpoint") { const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ query: `rural districts with high poverty ${i % 5}`, entity_type: "district", limit: 10 }) }); await res.text(); if (res.status !== 200) throw new Error(String(res.status)); }
    else if (MODE === "embed") await provider.embed([`rural districts with high poverty ${i % 5}`]);
    else await rankEntities(db, organizationId, provider, { query: `rural districts with high poverty ${i % 5}`, entityType: SemanticSearchEntityType.district, filters: { state: null, districtId: null, schoolId: null }, limit: 10 });
  };
  for (let i = 0; i < 5; i++) await one(i);
  if (process.env.EXPLAIN) {
    const q = db.query.bind(db);
    (db as any).query = async (sql: string, params: unknown[]) => { if (sql.startsWith("WITH vec")) { const plan = await q(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params); console.log(plan.map((r: any) => r["QUERY PLAN"]).join("\n")); } return q(sql, params); };
    await rankEntities(db, organizationId, provider, { query: process.env.EXPLAIN, entityType: SemanticSearchEntityType.district, filters: { state: null, districtId: null, schoolId: null }, limit: 10 });
    process.exit(0);
  }
  const s = new inspector.Session(); s.connect();
  const post = (m: string, p?: object) => new Promise<any>((res, rej) => s.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
  await post("Profiler.enable"); await post("Profiler.start");
  const c0 = process.cpuUsage(); const t0 = performance.now();
  const R = 40;
  for (let i = 0; i < R; i++) await one(i);
  const c = process.cpuUsage(c0);
  console.log(MODE, "per request wall", ((performance.now() - t0) / R).toFixed(1), "cpu", ((c.user + c.system) / 1000 / R).toFixed(1));
  const { profile } = await post("Profiler.stop");
  fs.writeFileSync(`/tmp/semlat/prof/${MODE}.cpuprofile`, JSON.stringify(profile));
  server.close(); await app.stop(); await db.close();
})();
