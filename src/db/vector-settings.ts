/**
 * pgvector's search settings of every session (docs/semantic-search.md, "Vectors on both databases"): set when a
 * session opens (embedded: once at open; PostgreSQL: each pooled connection's startup options), so a search is
 * one statement, not a transaction with SET LOCALs. Without the extension they are inert placeholders.
 *
 * - `hnsw.ef_search`: candidates the HNSW scan keeps; 400 with the build settings of vector-index.ts gives recall@10
 *   0.96 against exact search at 100,000 vectors, about 15 ms a query on PGlite (bench/semantic.ts);
 * - `hnsw.iterative_scan = relaxed_order` (pgvector 0.8): the scan goes on until the statement's own conditions
 *   (passages the caller has not unlocked) leave enough rows, so a page is never short while matches exist.
 */
export const HNSW_SEARCH_SETTINGS: Readonly<Record<string, string>> = {
  "hnsw.ef_search": "400",
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

/**
 * The planner's price of a cosine distance. pgvector declares COST 1 (an integer comparison's), so the planner
 * estimated an exact scan of 100,000 vectors (sequential scan and sort) cheaper than the HNSW index at ef_search 400
 * and took it for a LIMIT 10 query: 676 ms instead of about 10 (bench/semantic.ts, recall sweep). A distance over
 * hundreds of dimensions costs what hundreds of operators do; small filtered sets still get the exact scan.
 * Run where the extension is created (the owner may alter its functions; elsewhere the attempt is skipped).
 */
export const VECTOR_PLANNER_SQL = "ALTER FUNCTION cosine_distance(vector, vector) COST 500";
