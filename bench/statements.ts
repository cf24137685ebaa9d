/**
 * SQL statements per list request, for the README and issue notes: each REST list at limit 1 and 200 on
 * an embedded database holding the demo dataset's shapes (a few rows per table), with the key cache on
 * (as in production) and off. Usage: node scripts/run-ts.js bench/statements.ts
 */
import "reflect-metadata";
import supertest from "supertest";
import { restAdapter } from "../rest-adapter";
import { createApp } from "../src/app";
import { loadEnv } from "../src/config/env";
import { createDb } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { seedDemoLayer } from "../src/seed/demo/demo.service";
import { seedDemoOrganizations } from "../src/features/account/organizations/demo-organizations";
import { runIngest } from "../src/ingest";

async function main(): Promise<void> {
  const db = await createDb({ dataDir: "memory://" });
  await migrate(db);
  await runIngest(db, "nces-lea", "data/nces_ccd_lea_directory/ccd_lea_029_2324_w_0a_050824.csv.gz");
  await runIngest(db, "nces-school-search", "data/nces_school_search_4states/california_districts.csv");
  await runIngest(db, "nces-school-search", "data/nces_school_search_4states/california_public_schools.csv");
  const orgs = await seedDemoOrganizations(db);
  await seedDemoLayer(db);
  const results: Record<string, Record<string, number>> = {};
  for (const cache of ["5", "0"]) {
    const { app, stop } = await createApp({ db, env: loadEnv({ LOG_LEVEL: "silent", API_KEY_CACHE_SECONDS: cache }), rest: restAdapter });
    const http = supertest(app);
    for (const path of [
      "/api/v1/districts",
      "/api/v1/schools",
      "/api/v1/operators",
      "/api/v1/head-start-programs",
      "/api/v1/childcare-centers",
      "/api/v1/contacts",
      "/api/v1/associations",
    ]) {
      for (const limit of [1, 200]) {
        const url = `${path}?limit=${limit}${path.endsWith("schools") ? "&state=CA" : ""}`;
        await http.get(url).set("Authorization", `Bearer ${orgs.demo_keys.enterprise}`).expect(200);
        const before = db.stats.statements;
        await http.get(url).set("Authorization", `Bearer ${orgs.demo_keys.enterprise}`).expect(200);
        (results[`key cache ${cache === "0" ? "off" : "on"}`] ??= {})[`${path}?limit=${limit}`] = db.stats.statements - before;
      }
    }
    await stop();
  }
  console.log(JSON.stringify(results, null, 2));
  await db.close();
}

void main();
