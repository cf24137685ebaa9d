/**
 * pgvector's search settings of every session (docs/semantic-search.md, "Vectors on both databases"): set when a
 * session opens (embedded: once at open; PostgreSQL: each pooled connection's startup options), so a search is
 * one statement, not a transaction with SET LOCALs. Without the extension they are inert placeholders.
 *
 * - `hnsw.ef_search`: candidates the HNSW scan keeps (recall against exact search: bench/semantic.ts);
 * - `hnsw.iterative_scan = relaxed_order` (pgvector 0.8): the scan goes on until the query's filters leave enough
 *   rows, so a filtered page is never short while matches exist.
 */
export const HNSW_SEARCH_SETTINGS: Readonly<Record<string, string>> = {
  "hnsw.ef_search": "100",
  "hnsw.iterative_scan": "relaxed_order",
};

/** `SET name = value; ...` of the settings (embedded: run once at open). */
export const hnswSessionSql = (): string =>
  Object.entries(HNSW_SEARCH_SETTINGS)
    .map(([name, value]) => `SET ${name} = ${value};`)
    .join(" ");

/** libpq startup options (`-c name=value ...`) of the settings (PostgreSQL: every pooled connection). */
export const hnswStartupOptions = (): string =>
  Object.entries(HNSW_SEARCH_SETTINGS)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(" ");
