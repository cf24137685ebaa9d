import type { Db } from "../db/client";
import type { Viewer } from "../features/account/auth/viewer";
import { installedFeatures } from "./feature";
import type { Loaders } from "./loader-groups";

export type { Loaders } from "./loader-groups";

const BUILT = Symbol("built");

/** One request's loaders: each group is a getter that builds it on first use. */
class RequestLoaders {
  readonly [BUILT]: Record<string, unknown> = {};
  constructor(
    readonly db: Db,
    readonly viewer: Viewer,
  ) {}
}

let defined = false;
/** The getters, once per process, from the installed features' loader factories. */
function defineGroups(): void {
  if (defined) return;
  defined = true;
  for (const [name, factory] of installedFeatures().loaders) {
    Object.defineProperty(RequestLoaders.prototype, name, {
      enumerable: true,
      get(this: RequestLoaders) {
        return (this[BUILT][name] ??= factory(this.db, this.viewer));
      },
    });
  }
}

/**
 * Every feature's loaders for one request (never shared across requests). A feature's loaders are
 * built the first time a resolver asks for them: a request that reads districts builds no childcare
 * loaders.
 */
export function createLoaders(db: Db, viewer: Viewer): Loaders {
  defineGroups();
  return new RequestLoaders(db, viewer) as unknown as Loaders;
}

/** The feature groups a request has built so far (tests observe the laziness through it). */
export function builtLoaderGroups(loaders: Loaders): string[] {
  return Object.keys((loaders as unknown as RequestLoaders)[BUILT]);
}
