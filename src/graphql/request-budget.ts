/**
 * A request's time budget. Each request gets a signal that aborts when its deadline passes
 * (REQUEST_TIMEOUT_MS) or when the client goes away, and a view of the database that refuses new
 * statements once the signal has aborted. On PostgreSQL the pool's `statement_timeout` (same budget)
 * also ends a statement already running; the embedded database runs statements in-process and cannot
 * interrupt one, so there the request stops at its next statement.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Db, Queryable } from "../db/client";
import { AppError } from "./errors";

export class RequestTimeoutError extends AppError {
  constructor(budgetMs: number) {
    super(
      "QUERY_TIMEOUT",
      `the request exceeded its time budget of ${budgetMs} ms; ask for fewer records or fields, or narrow the filters`,
    );
  }
}

/** The client closed the connection: nobody will read the answer, so no more work is done for it. */
export class ClientGoneError extends AppError {
  constructor() {
    super("CLIENT_CLOSED_REQUEST", "the client closed the connection");
  }
}

const QUERY_CANCELED = "57014";

export interface RequestBudget {
  signal: AbortSignal;
  /** `db` as seen by this request: every statement checks the signal first. */
  db: Db;
}

/**
 * Starts the budget of one HTTP request on `db`. The timer and listeners end with the response, so a
 * finished request leaves nothing behind.
 */
export function startRequestBudget(db: Db, budgetMs: number, req: IncomingMessage, res: ServerResponse): RequestBudget {
  const controller = new AbortController();
  const deadline = Date.now() + budgetMs;
  const timer = setTimeout(() => controller.abort(new RequestTimeoutError(budgetMs)), budgetMs);
  timer.unref();
  const onClose = () => {
    clearTimeout(timer);
    if (!res.writableFinished) controller.abort(new ClientGoneError());
  };
  res.once("close", onClose);
  req.once("aborted", onClose);
  // The embedded database answers through microtasks, so a whole request can run without the timer
  // ever getting its turn: each statement also compares the clock with the deadline.
  const spent = () => {
    if (!controller.signal.aborted && Date.now() >= deadline) controller.abort(new RequestTimeoutError(budgetMs));
    return controller.signal.aborted;
  };
  return { signal: controller.signal, db: boundedDb(db, controller.signal, budgetMs, spent) };
}

/** `db` whose statements are refused once `signal` aborted, and whose statement timeouts read as the budget's. */
export function boundedDb(db: Db, signal: AbortSignal, budgetMs: number, spent = () => signal.aborted): Db {
  const guard = <T>(run: () => Promise<T>): Promise<T> => {
    if (spent()) return Promise.reject(signal.reason as Error);
    return run().catch((error: unknown) => {
      if ((error as { code?: string })?.code === QUERY_CANCELED) throw signal.aborted ? signal.reason : new RequestTimeoutError(budgetMs);
      throw error;
    });
  };
  const bounded = (target: Queryable): Queryable => ({
    query: (sql, params) => guard(() => target.query(sql, params)),
    exec: (sql) => guard(() => target.exec(sql)),
  });
  return {
    kind: db.kind,
    prisma: db.prisma,
    hasVector: db.hasVector,
    stats: db.stats,
    driver: db.driver,
    ...bounded(db),
    transaction: (fn) => guard(() => db.transaction((q) => fn(bounded(q)))),
    close: () => db.close(),
  };
}
