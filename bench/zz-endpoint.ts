import "reflect-metadata";
process.env.LOG_LEVEL = "silent";
import { restAdapter } from "../rest-adapter";
import { createApp } from "../src/app";
import { loadEnv } from "../src/config/env";
import { createDb } from "../src/db/client";
import { createApiKey } from "../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../src/features/account/organizations/organization.service";
import { createHttpServer } from "../src/http-server";
(async () => {
  const db = await createDb({ databaseUrl: process.env.PG!, poolSize: 4 });
  const env = loadEnv({ LOG_LEVEL: "silent", EMBEDDINGS_AUTO: "false" });
  const { organizationId } = await createOrganization(db, { name: "x", plan: "internal", credits: 100000 });
  const { apiKey } = await createApiKey(db, organizationId);
  const app = await createApp({ db, env, rest: restAdapter });
  const server = createHttpServer(app.app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/semantic-search`;
  for (const q of ["rural districts in Nebraska with high poverty", "LAUSD", "largest school districts in Florida", "huston isd", "rural districts in Nebraska with high poverty"]) {
    const t = performance.now();
    const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ query: q, entity_type: "district", limit: 10 }) });
    const body = await res.text();
    console.log(res.status, (performance.now() - t).toFixed(0), "ms", q, body.slice(0, 100));
  }
  server.close(); await app.stop(); await db.close();
})();
