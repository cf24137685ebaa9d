import type { Db } from "../db/client";
import type { Env } from "../config/env";
import type { Viewer } from "../features/auth/viewer";
import { createLoaders, type Loaders } from "./loaders";

/** What every resolver gets. Built once per request: the loaders are that request's cache. */
export interface Context {
  requestId: string;
  db: Db;
  env: Env;
  viewer: Viewer;
  loaders: Loaders;
}

export function createContext(deps: { db: Db; env: Env }, viewer: Viewer, requestId: string): Context {
  return { requestId, db: deps.db, env: deps.env, viewer, loaders: createLoaders(deps.db, viewer) };
}
