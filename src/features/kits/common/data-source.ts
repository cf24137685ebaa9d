/**
 * The demo label (docs/demo-data.md): every row the demo layer invents says `data_source = 'demo'`, and every
 * block of a record that can hold demo rows says so at its top level (`data_source`, GraphQL `dataSource`).
 */

/** The data_source of every demo row. */
export const DEMO_DATA_SOURCE = "demo";

/** How a district's or school's demo-written `ai_summary` starts: the demo layer's mark on the record (and its intelligence columns). */
export const DEMO_SUMMARY_PREFIX = "Demo summary (generated, not from real documents): ";

/**
 * A block's data_source from its rows: "demo" when any row is a demo row (the demo layer never writes beside
 * real rows of the same block), else the latest (last) row's source; null without rows.
 */
export function blockDataSource(rows: readonly { data_source?: string | null }[]): string | null {
  if (rows.some((row) => row.data_source === DEMO_DATA_SOURCE)) return DEMO_DATA_SOURCE;
  return rows[rows.length - 1]?.data_source ?? null;
}
