/**
 * Turns on the embedded database. PGlite is one connection that runs each statement synchronously on the
 * event loop's thread, and hands itself from one caller to the next in a microtask. A request on the embedded
 * database therefore runs from its first statement to its response inside the event-loop callback that read
 * it, and one event-loop iteration serves every request that was ready. Node accepts one new connection per
 * iteration (libuv), so while clients on open connections keep requests coming, a new connection waits a
 * whole round of them for each connection ahead of it: bench:unlock measured p50 0.3 s and p99 7.2 s, the
 * tail being the first requests of its 50 connections, admitted one round at a time.
 *
 * `Turns` runs one statement or transaction at a time, in the order they asked, and starts each from the
 * event loop (setImmediate): an iteration runs one turn, and between two turns Node accepts a connection and
 * reads the requests that arrived, whose statements queue behind those already waiting. Requests in flight
 * share the database statement by statement, and a new client waits for the turns ahead of it, not for every
 * request of every open connection. Sequential work (a migration, an ingest) pays one event-loop pass per
 * statement.
 */
export class Turns {
  #running = false;
  readonly #waiting: (() => void)[] = [];

  /** Runs `fn` in its turn; the next turn starts when it settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      if (!this.#running) this.#next();
    });
    try {
      return await fn();
    } finally {
      this.#next();
    }
  }

  /** Turns waiting to start (not counting the running one). */
  get waiting(): number {
    return this.#waiting.length;
  }

  #next(): void {
    const next = this.#waiting.shift();
    // Running from here until `next` settles: a caller arriving in between queues behind it.
    this.#running = next !== undefined;
    if (next) setImmediate(next);
  }
}
