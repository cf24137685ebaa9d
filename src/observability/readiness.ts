/**
 * Readiness (`GET /readyz`): whether this process should receive traffic (or, for a worker, be counted
 * as working). Not ready (503) when the database is unreachable or has migrations pending, when the job
 * queue this process started cannot be read, or when this process's worker has stopped sweeping. The body
 * names each part either way (docs/operations.md).
 */
import type { Db } from "../db/client";
import { pendingMigrations } from "../db/migrate";

/** A worker loop's liveness, as startJobs (src/jobs/worker.ts) reports it. */
export interface WorkerHealth {
  /** Whether this process works jobs (roles worker and all). */
  working: boolean;
  /** The last sweep that completed without error, or when the worker started if none yet. */
  lastSweepOkAt: Date;
  /** A sweep older than this (ms) means the loop is stuck or its database calls fail. */
  staleAfterMs: number;
  lastError?: string;
}

export interface ReadinessDeps {
  db: Db;
  /** Whether this process started the job queue (then its tables must be readable). */
  jobs: boolean;
  worker?: () => WorkerHealth;
}

export type ReadinessStatus = "ready" | "database_unreachable" | "migrations_pending" | "job_queue_unavailable" | "worker_stalled";

export interface Readiness {
  httpStatus: 200 | 503;
  body: { status: ReadinessStatus; [part: string]: unknown };
}

export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const { db } = deps;
  let pending: string[];
  try {
    pending = await pendingMigrations(db);
  } catch {
    return { httpStatus: 503, body: { status: "database_unreachable", database: { kind: db.kind, reachable: false } } };
  }
  const database = { kind: db.kind, reachable: true, pending_migrations: pending };
  const problems: ReadinessStatus[] = [];
  if (pending.length) problems.push("migrations_pending");

  let jobs: Record<string, unknown> | undefined;
  if (deps.jobs) {
    try {
      // Jobs ready to run and how long the oldest has waited: a growing wait means no worker is taking them.
      const [row] = await db.query<{ ready: number; oldest: number | null }>(
        `SELECT count(*)::int AS ready, extract(epoch FROM now() - min(created_on))::float8 AS oldest
           FROM pgboss.job WHERE state IN ('created', 'retry') AND start_after <= now()`,
      );
      jobs = { readable: true, ready: row.ready, oldest_ready_seconds: row.oldest === null ? null : Math.round(row.oldest) };
    } catch (error) {
      jobs = { readable: false, error: (error as Error).message.slice(0, 200) };
      problems.push("job_queue_unavailable");
    }
  }

  let worker: Record<string, unknown> = { in_process: false };
  const health = deps.worker?.();
  if (health?.working) {
    const age = Date.now() - health.lastSweepOkAt.getTime();
    const alive = age <= health.staleAfterMs;
    worker = {
      in_process: true,
      alive,
      last_sweep_ok_at: health.lastSweepOkAt.toISOString(),
      stale_after_seconds: health.staleAfterMs / 1000,
      ...(health.lastError ? { last_error: health.lastError } : {}),
    };
    if (!alive) problems.push("worker_stalled");
  }

  const status = problems[0] ?? "ready";
  return {
    httpStatus: status === "ready" ? 200 : 503,
    body: { status, database, ...(jobs ? { jobs } : {}), worker },
  };
}
