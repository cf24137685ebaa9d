import type { Db } from "../db/client";
import type { Env } from "../config/env";
import type { Viewer } from "../features/account/auth/viewer";
import type { JobQueue } from "../jobs/queue";
import { createLoaders, type Loaders } from "./loaders";
import type { Notice } from "./notices";
import type { Commit } from "./request-budget";

/** What every resolver gets. Built once per request: the loaders are that request's cache. */
export interface Context {
  requestId: string;
  /** The request's view of the database: it refuses new statements once `signal` has aborted. */
  db: Db;
  env: Env;
  viewer: Viewer;
  loaders: Loaders;
  /** The job queue, where this process runs one (pending unlocks enqueue their extraction). */
  jobs?: JobQueue;
  /** Aborts when the request's time budget is spent or its client went away (request-budget.ts). */
  signal?: AbortSignal;
  /** Runs a charge or an unlock the request must answer with once committed (request-budget.ts `Commit`). */
  commit: Commit;
  /** Root query fields already resolved in this request, by field, arguments and selection (schema.ts). */
  rootResults?: Map<string, unknown>;
  /** What the answer's reader should know (notices.ts): REST `notices`, GraphQL `extensions.notices`. */
  notices?: Notice[];
  /** The request's query cost spent so far, when its key is rate limited (features/account/rate-limits). */
  usage?: { cost: number };
  /** The Idempotency-Key of the mutation being run, when it carries one (src/graphql/idempotency.ts). */
  idempotencyKey?: string;
}

export function createContext(
  deps: { db: Db; env: Env; jobs?: JobQueue },
  viewer: Viewer,
  requestId: string,
  signal?: AbortSignal,
  commit: Commit = (work) => work(),
): Context {
  return { requestId, db: deps.db, env: deps.env, viewer, loaders: createLoaders(deps.db, viewer), signal, commit, jobs: deps.jobs };
}
