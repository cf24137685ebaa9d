/**
 * A request's time budget. Each request gets a signal that aborts when its deadline passes
 * (REQUEST_TIMEOUT_MS from the request's arrival) or when the client goes away, and a view of the database
 * whose statements are refused once the signal has aborted and whose pending statements end at the abort:
 * the request's answer does not wait for them.
 *
 * - PostgreSQL: the request's raw statements take their pool connection through this view, so waiting for a
 *   connection counts against the budget and a statement still running at the deadline is cancelled
 *   (pg_cancel_backend on the control channel, src/db/control.ts). Prisma's statements and those inside a
 *   transaction are not tracked: the pool's `statement_timeout` (the same budget) ends them.
 * - Embedded (PGlite): statements run inside this process and cannot be interrupted. The view checks the
 *   deadline as each raw statement is about to start (after waiting its turn in PGlite's queue), so none starts
 *   after it; one already running finishes, and the answer is sent when it returns the event loop.
 *
 * `onDeadline` answers a request still unanswered shortly after its deadline (whatever it was waiting for), unless the
 * request has a write under way or committed (`commit`): that request has no deadline any more, and answers with what
 * it wrote (reading what it needs for that), however late.
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

/** How long after the deadline a request may still be answering through its own error path before `onDeadline` answers it. */
const DEADLINE_GRACE_MS = 25;

/**
 * Runs a write the request must answer with once it committed (a charge, an unlock): it starts only while the budget
 * lasts; while it runs the deadline waits, and once it committed the request has no deadline any more (its later
 * statements, e.g. the records a charged search presents, are not refused). A write that fails leaves the deadline as
 * it was. A charge that committed near the deadline was answered with the time-budget error (bench:load found searches
 * and unlocks charged and answered 400); a write refused at the deadline leaves nothing to answer for.
 */
export type Commit = <T>(work: () => Promise<T>) => Promise<T>;

/** `commit` where no deadline answers the request (tests, the CLI): refused once `spent`, else the write. */
export const commitWhile =
  (spent: () => boolean, signal: AbortSignal): Commit =>
  (work) =>
    spent() ? Promise.reject(signal.reason as Error) : work();

export interface RequestBudget {
  signal: AbortSignal;
  /** A write that ends the request's exposure to the deadline (see Commit). */
  commit: Commit;
  /** `db` as seen by this request: every statement checks the signal first and ends with it. */
  db: Db;
  /** Stops the timer and listeners before the response ends (a budget replaced by the next one: an export's chunks). */
  release(): void;
}

export interface BudgetOptions {
  /** When the request arrived (ms since the epoch); the budget counts from there. Default: now. */
  startedAt?: number;
  /** Cancels a PostgreSQL backend's statement (the control channel's `cancel`). */
  cancel?: (pid: number) => Promise<void>;
  /** Answers the request with the timeout error when nothing else has shortly after the deadline. */
  onDeadline?: (error: RequestTimeoutError) => void;
}

/**
 * Starts the budget of one HTTP request on `db`. The timer and listeners end with the response, so a
 * finished request leaves nothing behind.
 */
export function startRequestBudget(
  db: Db,
  budgetMs: number,
  req: IncomingMessage,
  res: ServerResponse,
  options: BudgetOptions = {},
): RequestBudget {
  const controller = new AbortController();
  const deadline = (options.startedAt ?? Date.now()) + budgetMs;
  let grace: NodeJS.Timeout | undefined;
  let writing = 0;
  let committed = false;
  let expiredWhileWriting = false;
  const expire = () => {
    // A request that committed a write answers with it, reading what it needs however late; one writing waits for
    // the write's end to know which.
    if (committed) return;
    if (writing > 0) {
      expiredWhileWriting = true;
      return;
    }
    controller.abort(new RequestTimeoutError(budgetMs));
    if (options.onDeadline && !res.headersSent) {
      grace = setTimeout(() => {
        if (!res.headersSent && !res.writableEnded) options.onDeadline!(controller.signal.reason as RequestTimeoutError);
      }, DEADLINE_GRACE_MS);
      grace.unref();
    }
  };
  const timer = setTimeout(expire, Math.max(0, deadline - Date.now()));
  timer.unref();
  const onClose = () => {
    clearTimeout(timer);
    clearTimeout(grace);
    if (!res.writableFinished) controller.abort(new ClientGoneError());
  };
  res.once("close", onClose);
  req.once("aborted", onClose);
  // The embedded database answers through microtasks, so a whole request can run without the timer
  // ever getting its turn: each statement also compares the clock with the deadline.
  const spent = () => {
    if (!controller.signal.aborted && Date.now() >= deadline) expire();
    return controller.signal.aborted;
  };
  const release = () => {
    clearTimeout(timer);
    clearTimeout(grace);
    res.off("close", onClose);
    req.off("aborted", onClose);
  };
  const commit: Commit = async (work) => {
    if (spent()) throw controller.signal.reason as Error;
    writing += 1;
    try {
      const value = await work();
      committed = true;
      return value;
    } finally {
      writing -= 1;
      // A write that failed after the deadline: the budget is spent now.
      if (writing === 0 && expiredWhileWriting) expire();
    }
  };
  return { signal: controller.signal, commit, db: boundedDb(db, controller.signal, budgetMs, spent, options.cancel), release };
}

/**
 * `db` whose statements are refused once `signal` aborted, end (for the caller) when it aborts, and whose
 * statement timeouts read as the budget's. With `cancel` on PostgreSQL, raw statements are run on a
 * connection of their own from the pool and cancelled on the server at the abort.
 */
export function boundedDb(
  db: Db,
  signal: AbortSignal,
  budgetMs: number,
  spent = () => signal.aborted,
  cancel?: (pid: number) => Promise<void>,
): Db {
  const aborted = new Promise<never>((_resolve, reject) => {
    const fail = () => reject(signal.reason as Error);
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => undefined);
  const translate = (error: unknown): never => {
    if ((error as { code?: string })?.code === QUERY_CANCELED) throw signal.aborted ? signal.reason : new RequestTimeoutError(budgetMs);
    throw error;
  };
  const guard = <T>(run: () => Promise<T>): Promise<T> => {
    if (spent()) return Promise.reject(signal.reason as Error);
    return Promise.race([run().catch(translate), aborted]);
  };
  const bounded = (target: Queryable): Queryable => ({
    query: (sql, params, options) => guard(() => target.query(sql, params, options)),
    exec: (sql) => guard(() => target.exec(sql)),
  });
  let root: Queryable = bounded(db);
  const driver = db.driver;
  if (driver?.kind === "postgres" && cancel) {
    const running = new Map<number, Promise<void> | undefined>();
    signal.addEventListener(
      "abort",
      () => {
        for (const pid of running.keys())
          running.set(
            pid,
            cancel(pid).catch(() => undefined),
          );
      },
      { once: true },
    );
    // Pool waiting counts against the budget: a connection that arrives after the abort goes back unused.
    const onConnection = async <T>(run: (client: import("pg").PoolClient) => Promise<T>): Promise<T> => {
      const acquiring = driver.pool.connect();
      const client = await Promise.race([acquiring, aborted]).catch((error: unknown) => {
        acquiring.then(
          (c) => c.release(),
          () => undefined,
        );
        throw error;
      });
      if (spent()) {
        client.release();
        throw signal.reason as Error;
      }
      const pid = (client as unknown as { processID: number }).processID;
      running.set(pid, undefined);
      const settle = async (error?: unknown) => {
        // A cancel in flight must reach this statement, not the next user of the connection.
        await running.get(pid);
        running.delete(pid);
        // A connection-level failure (no SQLSTATE) leaves the connection unusable: the pool drops it.
        client.release(error instanceof Error && !(error as { code?: string }).code ? error : undefined);
      };
      const work = run(client).then(
        async (value) => {
          await settle();
          return value;
        },
        async (error: unknown) => {
          await settle(error);
          throw error;
        },
      );
      return Promise.race([work.catch(translate), aborted]);
    };
    root = {
      query: <T>(sql: string, params?: readonly unknown[]) =>
        spent()
          ? Promise.reject(signal.reason as Error)
          : onConnection(async (client) => (await client.query(sql, params as unknown[])).rows as T[]),
      exec: (sql) => (spent() ? Promise.reject(signal.reason as Error) : onConnection(async (client) => void (await client.query(sql)))),
    };
  } else if (driver?.kind === "embedded") {
    // PGlite runs one statement at a time and queues the rest (src/db/turns.ts): the deadline is checked as the
    // statement's turn starts, after the wait (a transaction per statement did this with two more round trips).
    const inTurn = <T>(run: (q: Queryable) => Promise<T>): Promise<T> =>
      guard(() =>
        driver.inTurn((q) => {
          if (spent()) throw signal.reason as Error;
          return run(q);
        }),
      );
    root = {
      query: (sql, params, options) => inTurn((q) => q.query(sql, params, options)),
      exec: (sql) => inTurn((q) => q.exec(sql)),
    };
  }
  return {
    kind: db.kind,
    prisma: db.prisma,
    hasVector: db.hasVector,
    stats: db.stats,
    driver: db.driver,
    unbounded: db.unbounded,
    ...root,
    transaction: (fn) => guard(() => db.transaction((q) => fn(bounded(q)))),
    close: () => db.close(),
  };
}
