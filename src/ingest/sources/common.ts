import type { CsvRow } from "../csv";
import type { IngestContext } from "../types";
import { type UpsertSpec, BATCH_SIZE } from "../upsert";
import { type Measured, RowError, type ValueStatus } from "../values";

/** Merges the run's source URLs into the row's map instead of replacing other sources' entries. */
export const MERGE_SOURCE_URLS = { source_urls: "COALESCE(t.source_urls, '{}'::jsonb) || EXCLUDED.source_urls" } as const;

/**
 * The district_annual_stats upsert for a source that owns `columns` of the (district, year) row. A source
 * that keeps value statuses (`statusKeys`: the columns whose codes it reports) owns those keys of
 * `value_statuses`: it replaces them and leaves other sources' keys.
 */
export function districtStatsSpec(columns: readonly string[], statusKeys: readonly string[] = []): UpsertSpec {
  const owned = statusKeys.length ? [...columns, "value_statuses"] : columns;
  return {
    table: "district_annual_stats",
    key: ["district_id", "school_year_start"],
    insert: ["district_id", "school_year_start", ...owned, "source_urls"],
    update: [...owned, "source_urls"],
    merge: statusKeys.length ? { ...MERGE_SOURCE_URLS, value_statuses: mergeStatuses(statusKeys) } : MERGE_SOURCE_URLS,
    touch: ["loaded_at"],
  };
}

/** SQL: the stored statuses without `keys`, plus the incoming ones (null when none remain). */
export const mergeStatuses = (keys: readonly string[]): string =>
  `NULLIF((COALESCE(t.value_statuses, '{}'::jsonb) - ARRAY[${keys.map((k) => `'${k}'`).join(", ")}]::text[]) || COALESCE(EXCLUDED.value_statuses, '{}'::jsonb), '{}'::jsonb)`;

/** `value_statuses` of a row: the status of each value that is not a reported number, or null when all are. */
export function valueStatuses(values: Readonly<Record<string, Measured>>): Record<string, ValueStatus> | null {
  const statuses = Object.entries(values).filter(([, m]) => m.status !== "reported");
  return statuses.length ? Object.fromEntries(statuses.map(([column, m]) => [column, m.status])) : null;
}

export function schoolStatsSpec(columns: readonly string[]): UpsertSpec {
  return {
    table: "school_annual_stats",
    key: ["school_id", "school_year_start"],
    insert: ["school_id", "school_year_start", ...columns, "source_urls"],
    update: [...columns, "source_urls"],
    merge: MERGE_SOURCE_URLS,
    touch: ["loaded_at"],
  };
}

/**
 * The common read loop: parse each row (a RowError rejects it), collect parsed rows, and hand them to
 * `flush` in batches. Returns when the file is exhausted and the last batch is written.
 */
export async function batchRows<T>(
  ctx: IngestContext,
  parse: (row: CsvRow) => T | null,
  flush: (batch: T[]) => Promise<void>,
  size = BATCH_SIZE,
): Promise<void> {
  let batch: T[] = [];
  for await (const row of ctx.csv.rows()) {
    let parsed: T | null;
    try {
      parsed = parse(row);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      ctx.tally.reject(row.line, error.message);
      continue;
    }
    if (parsed === null) continue;
    batch.push(parsed);
    if (batch.length >= size) {
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length) await flush(batch);
}
