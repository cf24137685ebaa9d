/**
 * Expensive operations take turns in this process (issue 20 point 4, fairness): at most `slots` operations
 * whose query cost reaches `threshold` run at once, and when more wait, the keys are served round-robin (one
 * operation of each waiting key in turn), so a key with many admitted pages in flight does not hold the event
 * loop and the database's CPUs for the others. Cheaper operations never wait here. A request whose deadline
 * passes while it waits goes on at once: its statements are refused by its budget and it ends with the
 * time-budget error (request-budget.ts).
 */

export interface SchedulerOptions {
  /** Expensive operations running at once in this process (0: no scheduling). */
  slots: number;
  /** The query cost from which an operation is expensive. */
  threshold: number;
}

const done = () => {};

export class OperationScheduler {
  private running = 0;
  /** Waiting operations per key; the Map's order is the round-robin order (a served key moves to the back). */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly options: SchedulerOptions) {}

  /** Operations running / waiting now. */
  get counts(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { running: this.running, waiting };
  }

  /** Waits for the operation's turn; call the returned function when it ended. */
  async enter(key: string, cost: number, signal?: AbortSignal): Promise<() => void> {
    const { slots, threshold } = this.options;
    if (slots <= 0 || cost < threshold) return done;
    if (this.running < slots && this.waiting.size === 0) {
      this.running += 1;
      return this.leave();
    }
    await new Promise<void>((resolve) => {
      let woken = false;
      const wake = () => {
        if (woken) return;
        woken = true;
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        // Out of the queue; it runs at once (its budget refuses its statements) and counts as running.
        const queue = this.waiting.get(key);
        const at = queue?.indexOf(wake) ?? -1;
        if (at >= 0) {
          queue!.splice(at, 1);
          if (queue!.length === 0) this.waiting.delete(key);
          this.running += 1;
        }
        wake();
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      const queue = this.waiting.get(key);
      if (queue) queue.push(wake);
      else this.waiting.set(key, [wake]);
    });
    return this.leave();
  }

  private leave(): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running -= 1;
      this.dispatch();
    };
  }

  private dispatch(): void {
    while (this.running < this.options.slots && this.waiting.size > 0) {
      const [key, queue] = this.waiting.entries().next().value!;
      const wake = queue.shift()!;
      this.waiting.delete(key);
      if (queue.length > 0) this.waiting.set(key, queue); // to the back: the next key goes first
      this.running += 1;
      wake();
    }
  }
}
