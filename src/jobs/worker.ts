/**
 * The job runtime of a process. `startJobs(db, env, { work, sweep })`: every role starts the queue (the API
 * sends jobs in its transactions); the worker role (`serve --role worker|all`) also works the installed
 * jobs and runs `sweep` every WORKER_POLL_SECONDS. The composition root (src/compose-jobs.ts) passes the sweep: the
 * credits feature's hold sweeper and the news feature's feed-poll scheduler (which sends jobs: the sweep gets the
 * queue). The runtime imports no feature.
 */
import type { Env } from "../config/env";
import type { Db } from "../db/client";
import { logger } from "../logger";
import type { WorkerHealth } from "../observability/readiness";
import { installedFeatures } from "../graphql/feature";
import { JobQueue } from "./queue";

export interface Jobs {
  queue: JobQueue;
  /** The worker loop's liveness (readiness, src/observability/readiness.ts). */
  health(): WorkerHealth;
  /** Stops sweeping and taking jobs; waits at most `ms` for the running ones to finish (a shutdown's drain). */
  drain(ms: number): Promise<void>;
  /** Closes the queue: jobs still running are released back to it (retried by another worker). */
  stop(): Promise<void>;
}

export interface JobOptions {
  /** Work the jobs and sweep (the worker role), or only send them. */
  work: boolean;
  /** What the worker runs every WORKER_POLL_SECONDS; its last success is the worker's liveness. */
  sweep: (db: Db, queue: JobQueue) => Promise<unknown>;
}

export async function startJobs(db: Db, env: Env, options: JobOptions): Promise<Jobs> {
  const queue = await JobQueue.start(db, { jobs: installedFeatures().jobs, env });
  let sweeper: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();
  let lastSweepOkAt = new Date();
  let lastError: string | undefined;
  if (options.work) {
    await queue.work({ db, env });
    sweeper = setInterval(() => {
      sweeping = options.sweep(db, queue).then(
        () => {
          lastSweepOkAt = new Date();
          lastError = undefined;
        },
        (error: Error) => {
          lastError = error.message.slice(0, 200);
          logger.warn("hold sweeper failed", { error: error.message });
        },
      );
    }, env.WORKER_POLL_SECONDS * 1000);
    sweeper.unref();
  }
  // Three missed sweeps (at least 10 s) before the worker counts as stalled: one slow sweep is not an outage.
  const staleAfterMs = Math.max(3 * env.WORKER_POLL_SECONDS * 1000, 10_000);
  return {
    queue,
    health: () => ({ working: options.work, lastSweepOkAt, staleAfterMs, lastError }),
    async drain(ms) {
      if (sweeper) clearInterval(sweeper);
      await Promise.all([sweeping, options.work ? queue.stopWorking(ms) : undefined]);
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      await sweeping;
      await queue.stop();
    },
  };
}
