/**
 * The job runtime of a process. `startJobs(db, env, { work })`: every role starts the queue (the API
 * sends jobs in its transactions); the worker role (`serve --role worker|all`) also works the registry's
 * jobs and runs the hold sweeper every WORKER_POLL_SECONDS.
 */
import type { Env } from "../config/env";
import type { Db } from "../db/client";
import { sweepExpiredHolds } from "../features/unlocks/unlock.jobs";
import { logger } from "../logger";
import { JobQueue } from "./queue";
import { JOBS } from "./registry";

export interface Jobs {
  queue: JobQueue;
  stop(): Promise<void>;
}

export async function startJobs(db: Db, env: Env, options: { work: boolean }): Promise<Jobs> {
  const queue = await JobQueue.start(db, { jobs: JOBS, env });
  let sweeper: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();
  if (options.work) {
    await queue.work({ db, env });
    sweeper = setInterval(() => {
      sweeping = sweepExpiredHolds(db).catch((error: Error) => logger.warn("hold sweeper failed", { error: error.message }));
    }, env.WORKER_POLL_SECONDS * 1000);
    sweeper.unref();
  }
  return {
    queue,
    async stop() {
      if (sweeper) clearInterval(sweeper);
      await sweeping;
      await queue.stop();
    },
  };
}
