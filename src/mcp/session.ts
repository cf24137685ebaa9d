/** A running stdio MCP session: served here (stdio.ts) or relayed to the service holding the data directory (forward.ts). */
export interface StdioSession {
  /** Resolves when the client closed stdin or stop() was called; the database is closed by then. */
  closed: Promise<void>;
  stop(): Promise<void>;
}
