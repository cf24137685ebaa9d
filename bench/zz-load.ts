import { createDb } from "../src/db/client";
import { scanVectors } from "../src/features/research/semantic-search/vector-scan";
import { USE_LITE_MODEL } from "../src/features/research/semantic-search/embeddings.provider";
(async () => {
  const db = await createDb({ databaseUrl: process.env.PG!, poolSize: 4 });
  const q = Array.from({ length: 512 }, (_, i) => Math.sin(i)); 
  let t = performance.now(); const c = process.cpuUsage();
  await scanVectors(db, USE_LITE_MODEL, "district", q, { state: null, districtId: null, schoolId: null }, 10, []);
  const cc = process.cpuUsage(c);
  console.log("load ms", (performance.now() - t).toFixed(0), "node cpu ms", ((cc.user + cc.system) / 1000).toFixed(0), "rss MB", (process.memoryUsage().rss / 2 ** 20).toFixed(0));
  for (let i = 0; i < 5; i++) { t = performance.now(); const c2 = process.cpuUsage(); await scanVectors(db, USE_LITE_MODEL, "district", q, { state: null, districtId: null, schoolId: null }, 10, []); const c3 = process.cpuUsage(c2); console.log("search ms", (performance.now() - t).toFixed(1), "cpu", ((c3.user + c3.system) / 1000).toFixed(1)); }
  await db.close();
})();
