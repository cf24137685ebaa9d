/**
 * Publisher-file ingest. One ingestor per source; each run reads one file as a stream inside one
 * transaction (a structural problem leaves the database untouched), upserts idempotently by the
 * publisher's id, and records itself in ingest_runs. data/README.md documents every source.
 */
import path from "node:path";
import type { Db } from "../db/client";
import { packageRoot } from "../db/package-root";
import { faultPoint } from "../fault-points";
import { BadRequestError } from "../graphql/errors";
import { openCsv } from "./csv";
import { refreshDistrictSummary } from "./district-summary";
import { caCdeDistricts } from "./sources/ca-cde-districts";
import { childcareIn } from "./sources/childcare-in";
import { childcareNe } from "./sources/childcare-ne";
import { censusCounty } from "./sources/census-county";
import { censusSaipe } from "./sources/census-saipe";
import { hhsHeadStart } from "./sources/hhs-head-start";
import { ilIsbeDirectory } from "./sources/il-isbe-directory";
import { irsBmf } from "./sources/irs-bmf";
import { ncesElsiLea } from "./sources/nces-elsi-lea";
import { ncesLea } from "./sources/nces-lea";
import { ncesSchoolSearch } from "./sources/nces-school-search";
import { urbanCcdSchools } from "./sources/urban-ccd-schools";
import { urbanF33 } from "./sources/urban-f33";
import { type IngestOptions, type IngestSummary, type Ingestor, type SourceDefinition, Tally } from "./types";

export type { IngestOptions, IngestReject, IngestSummary, SourceDefinition, TableCounts } from "./types";

/** Every source, in dependency order (districts before what hangs off them; operators before the IRS match). */
const INGESTORS = {
  "nces-lea": ncesLea,
  "nces-school-search": ncesSchoolSearch,
  // The national list after the richer exports: it skips the states they cover.
  "urban-ccd-schools": urbanCcdSchools,
  "census-saipe": censusSaipe,
  "census-county": censusCounty,
  "urban-f33": urbanF33,
  "nces-elsi-lea": ncesElsiLea,
  // State directories' superintendents and principals attach to the districts and schools above.
  "ca-cde-districts": caCdeDistricts,
  "il-isbe-directory": ilIsbeDirectory,
  "hhs-head-start": hhsHeadStart,
  "childcare-ne": childcareNe,
  "childcare-in": childcareIn,
  "irs-bmf": irsBmf,
} satisfies Record<string, Ingestor>;

export type IngestSource = keyof typeof INGESTORS;

/** Sources writing district_annual_stats columns the district record takes (src/ingest/district-summary.ts). */
const SUMMARY_SOURCES: ReadonlySet<string> = new Set(["nces-school-search", "urban-f33", "nces-elsi-lea"]);

/** Source name -> description, default files (relative to the repository root) and main table. */
export const INGEST_SOURCES: Readonly<Record<IngestSource, SourceDefinition>> = Object.fromEntries(
  Object.entries(INGESTORS).map(([name, i]) => [name, { description: i.description, files: [...i.files], table: i.table }]),
) as Record<IngestSource, SourceDefinition>;

export function isIngestSource(name: string): name is IngestSource {
  return Object.prototype.hasOwnProperty.call(INGESTORS, name);
}

/** How a file is named in summaries and ingest_runs: relative to the repository root when inside it. */
function displayName(absolute: string): string {
  const relative = path.relative(packageRoot, absolute);
  return relative.startsWith("..") || path.isAbsolute(relative) ? absolute : relative.split(path.sep).join("/");
}

export async function runIngest(
  db: Db,
  source: string,
  file: string,
  options: IngestOptions & { refreshSummary?: boolean } = {},
): Promise<IngestSummary> {
  if (!isIngestSource(source)) {
    throw new BadRequestError(`unknown ingest source "${source}"; known sources: ${Object.keys(INGESTORS).join(", ")}`);
  }
  const ingestor: Ingestor = INGESTORS[source];
  const absolute = path.resolve(file);
  const name = displayName(absolute);
  const log = options.log ?? (() => undefined);
  const startedAt = new Date();
  const started = performance.now();
  return db.transaction(async (q) => {
    const csv = await (ingestor.open ?? openCsv)(absolute, name, {
      required: (header) => ingestor.columns(header, name),
      layout: ingestor.layout,
      progress: options.progress,
      label: `${source} ${name}`,
    });
    const tally = new Tally();
    try {
      await ingestor.run({ q, source, csv, log, tally });
    } finally {
      await csv.close();
    }
    const written = tally.inserted + tally.updated + tally.unchanged + tally.rejected + tally.skipped;
    if (written !== csv.read) throw new Error(`${source}: accounting error, ${csv.read} rows read but ${written} accounted for`);
    await faultPoint("ingest.file");
    // The district record's latest-year fields, in the file's transaction (ingestDemoFiles does it once at the end).
    const districtsRefreshed =
      options.refreshSummary !== false && SUMMARY_SOURCES.has(source) ? await refreshDistrictSummary(q) : undefined;
    const summary: IngestSummary = {
      source,
      file: name,
      read: csv.read,
      inserted: tally.inserted,
      updated: tally.updated,
      unchanged: tally.unchanged,
      rejected: tally.rejected,
      rejects: tally.rejects,
      skipped: tally.skipped,
      related: tally.related,
      ms: Math.round(performance.now() - started),
      ...(districtsRefreshed === undefined ? {} : { districts_refreshed: districtsRefreshed }),
    };
    // Hand-written: in the file's transaction `q`, with the ingest it records (data/README.md load times).
    await q.query(
      `INSERT INTO ingest_runs (source, file, file_sha256, started_at, finished_at, summary) VALUES ($1, $2, $3, $4, now(), $5::jsonb)`,
      [source, name, csv.sha256(), startedAt.toISOString(), JSON.stringify(summary)],
    );
    const related = Object.entries(tally.related).map(([table, c]) => `${table} +${c.inserted} ~${c.updated} =${c.unchanged}`);
    log(
      `${source} ${name}: read ${summary.read}, ${ingestor.table} +${summary.inserted} ~${summary.updated} =${summary.unchanged}, ` +
        `rejected ${summary.rejected}, skipped ${summary.skipped}${related.length ? `; ${related.join("; ")}` : ""} (${summary.ms} ms)`,
    );
    return summary;
  });
}

export interface DemoIngestOptions extends IngestOptions {
  /** Only these sources' files, still in dependency order (default: every source); a bench's smoke run loads a few. */
  sources?: readonly IngestSource[];
}

/**
 * Loads every file under data/ in dependency order (one summary per file), then sets the district
 * record's latest-year fields once (src/ingest/district-summary.ts).
 */
export async function ingestDemoFiles(db: Db, options: DemoIngestOptions = {}): Promise<IngestSummary[]> {
  const summaries: IngestSummary[] = [];
  const files = Object.entries(INGEST_SOURCES)
    .filter(([source]) => !options.sources || options.sources.includes(source as IngestSource))
    .flatMap(([source, definition]) => definition.files.map((file) => ({ source, file })));
  for (const [index, { source, file }] of files.entries()) {
    const summary = await runIngest(db, source, path.join(packageRoot, file), { ...options, refreshSummary: false });
    summaries.push(summary);
    options.onFile?.(summary, index + 1, files.length);
  }
  const started = performance.now();
  const refreshed = await db.transaction((q) => refreshDistrictSummary(q));
  (options.log ?? (() => undefined))(
    `district record fields from the latest year: ${refreshed} districts updated (${Math.round(performance.now() - started)} ms)`,
  );
  return summaries;
}
