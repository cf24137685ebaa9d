import type { Queryable } from "../db/client";
import type { CsvFile, CsvLayout, OpenCsvOptions } from "./csv";

export interface IngestOptions {
  /** Draw a progress bar on stderr. Default: only when stderr is a TTY; never when stderr is not a TTY. */
  progress?: boolean;
  /** Receives human-readable log lines (row counts per table, skipped rows); default: discarded. */
  log?: (line: string) => void;
  /** Called after each file of ingestDemoFiles (the first start prints one progress line per file). */
  onFile?: (summary: IngestSummary, index: number, total: number) => void;
}

export interface IngestReject {
  /** 1-based line number in the file (the header is line 1). */
  line: number;
  reason: string;
}

/** Writes to a table other than the source's main one (e.g. district_annual_stats beside districts). */
export interface TableCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface IngestSummary {
  source: string;
  /** The file as given, relative to the repository root when it lies inside it. */
  file: string;
  /** Data rows read (header excluded). */
  read: number;
  /** Rows of the source's main table (see INGEST_SOURCES[source].table) by outcome. */
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows with a value problem, not written; `rejects` lists the first 1,000 of them. */
  rejected: number;
  rejects: IngestReject[];
  /**
   * Rows read that write no row of their own, by design: folded into another row of the same file
   * (Head Start program years, extra counties of a district) or outside the source's scope (IRS
   * organizations that match no operator and are not child care). read = inserted + updated +
   * unchanged + rejected + skipped.
   */
  skipped: number;
  /** Other tables the run wrote, by table name. */
  related: Record<string, TableCounts>;
  ms: number;
  /** Districts whose latest-year record fields changed (src/ingest/district-summary.ts); sources that feed them only. */
  districts_refreshed?: number;
}

/** What an ingestor sees: the transaction, the open CSV and the tallies it fills in. */
export interface IngestContext {
  q: Queryable;
  source: string;
  csv: CsvFile;
  log: (line: string) => void;
  tally: Tally;
}

export interface SourceDefinition {
  description: string;
  /** Default files, relative to the repository root, in load order. */
  files: string[];
  /** The table `inserted` / `updated` / `unchanged` count. */
  table: string;
}

export interface Ingestor extends SourceDefinition {
  /** Required header columns; a file missing any of them is refused before anything is written. */
  columns(header: readonly string[], file: string): readonly string[];
  /** Preamble/footer rows around the table (NCES ELSI exports); default: header first, all rows data. */
  layout?: CsvLayout;
  /** Opens a file that is not a comma-separated table (a tab-delimited export, an Excel sheet); default: openCsv. */
  open?: (filePath: string, name: string, options: OpenCsvOptions) => Promise<CsvFile>;
  run(ctx: IngestContext): Promise<void>;
}

/** Counters of one run; the ingestor adds to them, runIngest turns them into the summary. */
export class Tally {
  inserted = 0;
  updated = 0;
  unchanged = 0;
  rejected = 0;
  skipped = 0;
  readonly rejects: IngestReject[] = [];
  readonly related: Record<string, TableCounts> = {};

  static readonly MAX_LISTED_REJECTS = 1000;

  reject(line: number, reason: string): void {
    this.rejected += 1;
    if (this.rejects.length < Tally.MAX_LISTED_REJECTS) this.rejects.push({ line, reason });
  }

  main(counts: TableCounts): void {
    this.inserted += counts.inserted;
    this.updated += counts.updated;
    this.unchanged += counts.unchanged;
  }

  add(table: string, counts: TableCounts): void {
    const current = (this.related[table] ??= { inserted: 0, updated: 0, unchanged: 0 });
    current.inserted += counts.inserted;
    current.updated += counts.updated;
    current.unchanged += counts.unchanged;
  }
}
