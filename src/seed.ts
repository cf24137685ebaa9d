/**
 * `seed demo`: the real public files (src/ingest), the documented demo layer on top of them
 * (src/seed/demo, every row data_source "demo"), and the three demo organizations.
 */
import type { Db } from "./db/client";
import { seedDemoLayer } from "./seed/demo/demo.service";
import { seedDemoOrganizations, type DemoOrganizations } from "./features/account/organizations/demo-organizations";
import { type DemoIngestOptions, type IngestSummary, ingestDemoFiles } from "./ingest";

export interface SeedResult extends DemoOrganizations {
  ingest: IngestSummary[];
  demo: unknown;
}

export async function seedDemo(db: Db, options: DemoIngestOptions = {}): Promise<SeedResult> {
  const ingest = await ingestDemoFiles(db, options);
  const started = performance.now();
  const orgs = await seedDemoOrganizations(db);
  // The demo organizations' projects get their opportunities from the agent once a worker runs (docs/opportunities.md).
  const demo = await seedDemoLayer(db);
  options.log?.(`demo organizations and demo layer (${Math.round(performance.now() - started)} ms)`);
  return { ...orgs, ingest, demo };
}
