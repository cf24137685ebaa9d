/**
 * Whether an error says the database cannot be used right now, rather than that a statement was wrong: the server
 * is down, restarting or refusing connections, a connection was cut, the pool was closed by a shutdown, or no
 * connection came free in time to start a transaction. The error model answers these 503 service_unavailable
 * (src/graphql/errors.ts): the request did nothing and may be sent again; anything else stays a masked 500.
 */

/** Prisma's codes: can't reach / timed out / closed the connection / no pool connection in time / could not start a transaction. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028"]);
/** The driver adapters' error kinds of a connection problem (meta.driverAdapterError.cause.kind). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** SQLSTATE: connection exceptions (08...), the server shutting down or starting (57P01-57P03), too many connections. */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Node's socket errors on a connection to the database. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/** node-postgres's own wording (its errors carry no code), also inside Prisma's message. */
const PG_MESSAGES =
  /Connection terminated|Cannot use a pool after calling end on the pool|Client has encountered a connection error|timeout exceeded when trying to connect/;

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error as Record<string, unknown> | undefined; e && typeof e === "object" && !seen.has(e);) {
    seen.add(e);
    const code = typeof e.code === "string" ? e.code : undefined;
    if (code && (PRISMA_CODES.has(code) || SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
    const adapter = (e.meta as { driverAdapterError?: { cause?: { kind?: string; code?: string } } } | undefined)?.driverAdapterError
      ?.cause;
    if (adapter?.kind && ADAPTER_KINDS.has(adapter.kind)) return true;
    if (adapter?.kind === "postgres" && adapter.code && SQLSTATE.test(adapter.code)) return true;
    if (typeof e.message === "string" && PG_MESSAGES.test(e.message)) return true;
    // Wrapped: a GraphQL error's original, an error's cause.
    e = (e.originalError ?? e.cause) as Record<string, unknown> | undefined;
  }
  return false;
}
