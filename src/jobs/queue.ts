/**
 * The job queue: pg-boss on the service's own database (contract section 10). On PostgreSQL pg-boss has
 * its own small pool on DATABASE_URL; any number of API and worker processes share its tables (jobs are
 * claimed with SKIP LOCKED). On embedded PGlite it runs on the same PGlite instance through pg-boss's
 * `pglite` backend (one connection: its statements wait for the app's transactions, never interleave).
 *
 * Jobs are sent inside the caller's Prisma transaction (`fromPrisma(tx)`): a job exists exactly when the
 * rows that need it were committed. Every process starts the queue (the API to send, the worker to
 * work); only the worker role calls `work`.
 */
import { fromPglite, fromPrisma, PgBoss } from "pg-boss";
import type { Env } from "../config/env";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { logger } from "../logger";
import type { JobDefinition } from "./job";

export const JOB_SCHEMA = "pgboss";

export interface JobQueueOptions {
  /** Jobs this process may send and work. */
  jobs: readonly JobDefinition<never>[];
  env: Pick<Env, "JOB_RETRY_LIMIT" | "JOB_RETRY_DELAY_SECONDS" | "WORKER_POLL_SECONDS">;
}

export class JobQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly options: JobQueueOptions,
  ) {}

  static async start(db: Db, options: JobQueueOptions): Promise<JobQueue> {
    const boss =
      db.driver.kind === "embedded"
        ? new PgBoss({ db: fromPglite(db.driver.pglite as never), backend: "pglite", schema: JOB_SCHEMA, schedule: false })
        : new PgBoss({ connectionString: db.driver.url, max: 4, schema: JOB_SCHEMA, schedule: false });
    boss.on("error", (error) => logger.warn("job queue error", { error: String((error as Error)?.message ?? error) }));
    await boss.start();
    for (const job of options.jobs)
      await boss.createQueue(job.name, {
        retryLimit: options.env.JOB_RETRY_LIMIT,
        retryDelay: options.env.JOB_RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds: 15 * 60,
      });
    return new JobQueue(boss, options);
  }

  /** Sends a job inside the transaction `tx` (it exists once `tx` commits). Returns its id. */
  async send<T>(tx: Prisma.TransactionClient, job: JobDefinition<T>, data: T, id: string): Promise<string> {
    const sent = await this.boss.send(job.name, data as object, { id, db: fromPrisma(tx as never) });
    if (!sent) throw new Error(`job ${job.name} ${id} was not created`);
    return sent;
  }

  /** Sends a job outside any transaction (re-enqueueing). */
  async sendNow<T>(job: JobDefinition<T>, data: T, id: string): Promise<string | null> {
    return this.boss.send(job.name, data as object, { id });
  }

  /** Starts working every job of the registry in this process. */
  async work(ctx: Parameters<JobDefinition<never>["run"]>[0]): Promise<void> {
    for (const job of this.options.jobs) {
      await this.boss.work(
        job.name,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: this.options.env.WORKER_POLL_SECONDS },
        async ([claimed]) => {
          const attempt = { id: claimed.id, retryCount: claimed.retryCount, retryLimit: claimed.retryLimit };
          try {
            await job.run(ctx, claimed.data as never, attempt);
          } catch (error) {
            const e = error instanceof Error ? error : new Error(String(error));
            logger.warn("job attempt failed", { job: job.name, id: claimed.id, attempt: claimed.retryCount + 1, error: e.message });
            if (claimed.retryCount >= claimed.retryLimit && job.onFinalFailure)
              await job.onFinalFailure(ctx, claimed.data as never, e, attempt);
            throw e;
          }
        },
      );
    }
  }

  /** The state of a job (tests, status pages). */
  async state(name: string, id: string): Promise<string | null> {
    return (await this.boss.getJobById(name, id))?.state ?? null;
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
