import type { Db } from "../db/client";
import type { Viewer } from "../features/account/auth/viewer";
import { createDistrictLoaders } from "../features/catalogue/districts/district.loaders";
import { createSchoolLoaders } from "../features/catalogue/schools/school.loaders";
import { createBlockLoaders } from "../features/kits/blocks/block.loaders";
import { createOperatorLoaders } from "../features/catalogue/operators/operator.loaders";
import { createHeadStartLoaders } from "../features/catalogue/head-start/head-start.loaders";
import { createChildcareLoaders } from "../features/catalogue/childcare/childcare.loaders";
import { createContactLoaders } from "../features/catalogue/contacts/contact.loaders";
import { createAssociationLoaders } from "../features/catalogue/associations/association.loaders";

/** Every feature's loader factory: a feature adds one line here. */
const FACTORIES = {
  districts: createDistrictLoaders,
  schools: createSchoolLoaders,
  blocks: createBlockLoaders,
  operators: (db: Db) => createOperatorLoaders(db),
  headStart: (db: Db) => createHeadStartLoaders(db),
  childcare: (db: Db) => createChildcareLoaders(db),
  contacts: createContactLoaders,
  associations: (db: Db) => createAssociationLoaders(db),
} satisfies Record<string, (db: Db, viewer: Viewer) => unknown>;

export type Loaders = { readonly [K in keyof typeof FACTORIES]: ReturnType<(typeof FACTORIES)[K]> };

const BUILT = Symbol("built");

/** One request's loaders: each feature's group is a prototype getter that builds it on first use. */
class RequestLoaders {
  readonly [BUILT]: Partial<Record<keyof typeof FACTORIES, unknown>> = {};
  constructor(
    readonly db: Db,
    readonly viewer: Viewer,
  ) {}
}
for (const name of Object.keys(FACTORIES) as (keyof typeof FACTORIES)[]) {
  Object.defineProperty(RequestLoaders.prototype, name, {
    enumerable: true,
    get(this: RequestLoaders) {
      return (this[BUILT][name] ??= FACTORIES[name](this.db, this.viewer));
    },
  });
}

/**
 * Every feature's loaders for one request (never shared across requests). A feature's loaders are
 * built the first time a resolver asks for them: a request that reads districts builds no childcare
 * loaders.
 */
export function createLoaders(db: Db, viewer: Viewer): Loaders {
  return new RequestLoaders(db, viewer) as unknown as Loaders;
}

/** The feature groups a request has built so far (tests observe the laziness through it). */
export function builtLoaderGroups(loaders: Loaders): string[] {
  return Object.keys((loaders as unknown as RequestLoaders)[BUILT]);
}
