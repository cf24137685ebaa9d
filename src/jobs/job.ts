/**
 * A background job, declared once in its feature's `<x>.jobs.ts` and listed in its `feature.ts`.
 * Retries: pg-boss retries a throwing handler `retryLimit` times with exponential backoff; on the last
 * attempt `onFinalFailure` runs before the job is marked failed, so compensation (releasing a hold)
 * happens exactly when no retry is left.
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
  /** After the last attempt failed (no retry left). */
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
