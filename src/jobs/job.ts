/**
 * A background job, declared once in its feature's `<x>.jobs.ts` and listed in its `feature.ts`.
 * Retries: pg-boss retries a failed attempt `retryLimit` times with exponential backoff, whether the handler threw
 * or its worker died (no heartbeat for JOB_HEARTBEAT_SECONDS) or shut down with it running. Once the last attempt
 * failed, whatever ended it, `onFinalFailure` runs as a job of its own (the dead letter queue, src/jobs/queue.ts), so
 * compensation (releasing a hold, failing a brief) happens exactly when no retry is left, also after a kill -9.
 * It may run after a late attempt already settled the work: it acts only on what is still unsettled.
 */
import crypto from "node:crypto";
import type { Env } from "../config/env";
import type { Db } from "../db/client";

export interface JobContext {
  db: Db;
  env: Env;
}

export interface JobAttempt {
  id: string;
  /** Retries already made (0 on the first attempt). */
  retryCount: number;
  retryLimit: number;
}

export interface JobDefinition<T> {
  name: string;
  run(ctx: JobContext, data: T, attempt: JobAttempt): Promise<void>;
  /** After the last attempt failed (no retry left); `error` is what ended that attempt. */
  onFinalFailure?(ctx: JobContext, data: T, error: Error, attempt: JobAttempt): Promise<void>;
}

export const defineJob = <T>(job: JobDefinition<T>): JobDefinition<T> => {
  if (!/^[a-z][a-z0-9_.-]*$/.test(job.name)) throw new Error(`job: bad name ${job.name}`);
  return job;
};

/** A UUID (version 5 layout) from a text: one state of a thing is one job id, so sending it again adds nothing. */
export function jobIdOf(text: string): string {
  const hex = crypto.createHash("sha256").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
