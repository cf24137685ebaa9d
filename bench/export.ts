/**
 * CSV and NDJSON exports at scale (docs/exports.md): GET /api/v1/districts with `Accept: text/csv` and
 * `application/x-ndjson` over 20,000 SYNTHETIC districts, reporting rows/s and the process's peak RSS, and the
 * same export of a tenth of the rows, so the two peaks show whether memory grows with the number of rows.
 *
 * The districts are invented here (data_source "synthetic-bench", names "Synthetic District N"), in a database of
 * its own on a local PostgreSQL: `edm_export_bench` (smoke: `edm_export_bench_smoke`) created from
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), migrated, dropped at the end unless
 * --keep. The service runs in this process (createApp with the REST adapter, as npm start serves it), so the RSS
 * sampled every 20 ms is the server's plus this client's streaming reader (which keeps nothing but counts).
 *
 *   node scripts/run-ts.js bench/export.ts [--rows N] [--keep]
 *   BENCH_SMOKE=1 node scripts/run-ts.js bench/export.ts   (1,000 rows: seconds)
 */
import "reflect-metadata";
import type http from "node:http";
import { restAdapter } from "../rest-adapter";
import { createApp } from "../src/app";
import { loadEnv } from "../src/config/env";
import { createDb } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { createApiKey } from "../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../src/features/account/organizations/organization.service";
import { createHttpServer } from "../src/http-server";
import { freshBenchDatabase, log, round, SMOKE, integerOption, BENCH_ADMIN_URL } from "./harness";
import { smokeServerTemplate } from "./smoke-template";

const DATABASE = SMOKE ? "edm_export_bench_smoke" : "edm_export_bench";

const ROWS = integerOption("rows", SMOKE ? 1_000 : 20_000, 10);
const KEEP = process.argv.includes("--keep");
const MB = 1024 * 1024;

/** Streams one export, keeping nothing: rows (lines less the CSV header), megabytes and seconds. */
async function exportOnce(url: string, apiKey: string, accept: string): Promise<{ rows: number; mb: number; seconds: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}`, Accept: accept, "Accept-Encoding": "identity" } });
  if (res.status !== 200 || !res.body) throw new Error(`${accept}: ${res.status} ${await res.text()}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  const expected = Number(res.headers.get("x-export-rows"));
  const rows = accept === "text/csv" ? lines - 1 : lines;
  // A CSV cell may hold a line break inside quotes; the synthetic rows have none, so lines are rows.
  if (rows !== expected) throw new Error(`${accept}: ${rows} rows streamed, X-Export-Rows said ${expected}`);
  return { rows, mb: round(bytes / MB, 1), seconds: (performance.now() - t0) / 1000 };
}

async function main(): Promise<void> {
  const bench = await freshBenchDatabase(BENCH_ADMIN_URL, DATABASE, await smokeServerTemplate(BENCH_ADMIN_URL));
  const db = await createDb({ databaseUrl: bench.url, poolSize: 4 });
  let server: http.Server | undefined;
  let stop: (() => Promise<void>) | undefined;
  try {
    await migrate(db);
    await db.query(
      `INSERT INTO districts (fed_id, name, state, data_source, student_count, school_count, phone, physical_city)
       SELECT lpad(g::text, 7, '0'), 'Synthetic District ' || g, (ARRAY['TX','CA','NE','NY','FL'])[1 + g % 5], 'synthetic-bench',
              g % 50000, 1 + g % 40, '(555) 010-' || lpad((g % 10000)::text, 4, '0'), 'Synthetic City ' || (g % 300)
       FROM generate_series(1, $1::int) g`,
      [ROWS],
    );
    const { organizationId } = await createOrganization(db, { name: "Bench Export", plan: "internal", credits: 1 });
    const { apiKey } = await createApiKey(db, organizationId);
    const app = await createApp({ db, env: loadEnv({ LOG_LEVEL: "silent" }), rest: restAdapter });
    stop = app.stop;
    server = createHttpServer(app.app);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/districts?order_by=name`;
    // Warm-up: compiled operations, pool connections.
    await exportOnce(`${base}&limit=200`, apiKey, "text/csv");
    const results: Record<string, unknown>[] = [];
    for (const accept of ["text/csv", "application/x-ndjson"]) {
      for (const rows of [Math.round(ROWS / 10), ROWS]) {
        const before = process.memoryUsage().rss;
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
        const run = await exportOnce(`${base}&limit=${rows}`, apiKey, accept).finally(() => clearInterval(sampler));
        const row = {
          format: accept,
          rows: run.rows,
          mb: run.mb,
          seconds: round(run.seconds, 2),
          rows_per_s: Math.round(run.rows / run.seconds),
          rss_before_mb: round(before / MB, 0),
          peak_rss_mb: round(peak / MB, 0),
        };
        results.push(row);
        log(
          `${accept.padEnd(22)} ${String(row.rows).padStart(7)} rows ${String(row.mb).padStart(6)} MB  ${String(row.rows_per_s).padStart(6)} rows/s  RSS ${row.rss_before_mb} -> peak ${row.peak_rss_mb} MB`,
        );
      }
    }
    process.stdout.write(`${JSON.stringify({ rows: ROWS, smoke: SMOKE, results }, null, 2)}\n`);
  } finally {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    await stop?.();
    await db.close();
    await bench.drop(KEEP);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
