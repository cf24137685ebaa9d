/**
 * The job queue: pg-boss on the service's own database (contract section 10). On PostgreSQL pg-boss has
 * its own small pool on DATABASE_URL; any number of API and worker processes share its tables (jobs are
 * claimed with SKIP LOCKED). On embedded PGlite it runs on the same PGlite instance through pg-boss's
 * `pglite` backend (one connection: its statements wait for the app's transactions, never interleave).
 *
 * Jobs are sent inside the caller's Prisma transaction (`fromPrisma(tx)`): a job exists exactly when the
 * rows that need it were committed. Every process starts the queue (the API to send, the worker to
 * work); only the worker role calls `work`.
 *
 * A worker that dies (kill -9, a lost machine) stops the heartbeat of the job it was running: after
 * JOB_HEARTBEAT_SECONDS without one, any process's pg-boss supervisor fails that attempt, and the job is retried
 * (or failed when no retry is left) like an attempt that threw. A job whose last attempt failed, whatever ended it,
 * is copied to its dead letter queue `<name>.failed`, whose job runs the definition's `onFinalFailure`
 * (docs/architecture.md, "Ledger and jobs").
 */
import { fromPglite, fromPrisma, PgBoss, type Queue } from "pg-boss";
import type { Env } from "../config/env";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { logger } from "../logger";
import type { JobDefinition } from "./job";

export const JOB_SCHEMA = "pgboss";

/** Attempts of a final failure's compensation (onFinalFailure) before it is given up: it must not be lost to a short outage. */
const FINAL_FAILURE_RETRY_LIMIT = 10;

export interface JobQueueOptions {
  /** Jobs this process may send and work. */
  jobs: readonly JobDefinition<never>[];
  env: Pick<Env, "JOB_RETRY_LIMIT" | "JOB_RETRY_DELAY_SECONDS" | "WORKER_POLL_SECONDS" | "JOB_HEARTBEAT_SECONDS">;
}

/** The dead letter queue of a job with an onFinalFailure: its failed jobs land there. */
export const finalFailureQueue = (name: string): string => `${name}.failed`;

export class JobQueue {
  private readonly working: string[] = [];

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: JobQueueOptions,
  ) {}

  static async start(db: Db, options: JobQueueOptions): Promise<JobQueue> {
    // The supervisor (every process runs one) looks for lapsed heartbeats twice per heartbeat period; a queue is
    // examined at most once per monitor interval (pg-boss's default 60 s would let a dead worker's job wait a minute more).
    const halfHeartbeat = Math.max(1, Math.floor(options.env.JOB_HEARTBEAT_SECONDS / 2));
    const supervision = { superviseIntervalSeconds: halfHeartbeat, monitorIntervalSeconds: halfHeartbeat };
    const boss =
      db.driver.kind === "embedded"
        ? new PgBoss({ db: fromPglite(db.driver.pglite as never), backend: "pglite", schema: JOB_SCHEMA, schedule: false, ...supervision })
        : new PgBoss({ connectionString: db.driver.url, max: 4, schema: JOB_SCHEMA, schedule: false, ...supervision });
    boss.on("error", (error) => logger.warn("job queue error", { error: String((error as Error)?.message ?? error) }));
    await boss.start();
    const { env } = options;
    const retries = { retryLimit: env.JOB_RETRY_LIMIT, retryDelay: env.JOB_RETRY_DELAY_SECONDS, retryBackoff: true };
    for (const job of options.jobs) {
      const deadLetter = job.onFinalFailure ? finalFailureQueue(job.name) : undefined;
      if (deadLetter) await ensureQueue(boss, deadLetter, { ...retries, retryLimit: FINAL_FAILURE_RETRY_LIMIT });
      await ensureQueue(boss, job.name, {
        ...retries,
        expireInSeconds: 15 * 60,
        heartbeatSeconds: env.JOB_HEARTBEAT_SECONDS,
        ...(deadLetter ? { deadLetter } : {}),
      });
    }
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

  /** Starts working every job of the registry in this process, and the final failures of those that have onFinalFailure. */
  async work(ctx: Parameters<JobDefinition<never>["run"]>[0]): Promise<void> {
    const options = { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: this.options.env.WORKER_POLL_SECONDS } as const;
    for (const job of this.options.jobs) {
      this.working.push(job.name);
      await this.boss.work(job.name, options, async ([claimed]) => {
        const attempt = { id: claimed.id, retryCount: claimed.retryCount, retryLimit: claimed.retryLimit };
        try {
          await job.run(ctx, claimed.data as never, attempt);
        } catch (error) {
          const e = error instanceof Error ? error : new Error(String(error));
          logger.warn("job attempt failed", { job: job.name, id: claimed.id, attempt: claimed.retryCount + 1, error: e.message });
          throw e;
        }
      });
      if (!job.onFinalFailure) continue;
      const deadLetter = finalFailureQueue(job.name);
      this.working.push(deadLetter);
      await this.boss.work(deadLetter, options, async ([failed]) => {
        const error = new Error(failureMessage(failed.sourceOutput));
        const attempt = { id: failed.sourceId ?? failed.id, retryCount: failed.sourceRetryCount ?? 0, retryLimit: failed.retryLimit };
        logger.warn("job failed, no retry left", { job: job.name, id: attempt.id, error: error.message });
        await job.onFinalFailure!(ctx, failed.data as never, error, attempt);
      });
    }
  }

  /** Takes no more jobs, and waits at most `ms` for the running ones to finish (`stop` releases those still running). */
  async stopWorking(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([Promise.allSettled(this.working.map((name) => this.boss.offWork(name, { wait: true }))), timeout]);
    clearTimeout(timer);
  }

  /** The state of a job (tests, status pages). */
  async state(name: string, id: string): Promise<string | null> {
    return (await this.boss.getJobById(name, id))?.state ?? null;
  }

  /** Closes the queue; a job still running in this process is failed back to the queue (retried elsewhere). */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 1_000 });
  }
}

/**
 * Creates the queue, or brings an existing one to this configuration (createQueue leaves an existing queue as it
 * was: a database created before heartbeats or dead letter queues would never get them).
 */
async function ensureQueue(boss: PgBoss, name: string, options: Omit<Queue, "name">): Promise<void> {
  await boss.createQueue(name, options);
  await boss.updateQueue(name, options);
}

/** The error a failed job recorded (a handler's throw, or pg-boss's own: "job heartbeat timeout", a shutdown). */
function failureMessage(output: unknown): string {
  const o = output as { message?: unknown; value?: unknown } | null | undefined;
  const value = o?.value as { message?: unknown } | string | undefined;
  const message = o?.message ?? (typeof value === "string" ? value : value?.message);
  return typeof message === "string" && message ? message : "the last attempt ended without a result";
}
