/**
 * The feature manifest. Each feature folder exports one `feature.ts` declaring everything it adds to the
 * service: resolver classes, per-request loaders, nested blocks of district and school records, background
 * jobs, field-dictionary entries, REST endpoints and MCP tools. src/graphql/features.ts lists every manifest (FEATURES, one line per
 * feature) and installs them; the kits (schema, loaders, blocks, worker, dictionary) read what is installed
 * here instead of keeping central lists, so adding a resource touches its folder and that one line.
 *
 * Why an install rather than imports: the kits are imported by the features (a district service reads its
 * blocks through the blocks kit), so a kit importing the list of features would close a cycle. The composition
 * (src/graphql/features.ts) imports the features and hands them to the kits once, at load.
 */
import type { Db } from "../db/client";
import type { Viewer } from "../features/account/auth/viewer";
import type { BlockDefinition } from "../features/kits/blocks/block";
import type { JobDefinition } from "../jobs/job";
import type { Dictionary } from "./dictionary/dictionary";
import type { Loaders } from "./loader-groups";
import type { McpRecordSpec, McpToolSpec } from "./mcp-tool";
import type { RestEndpoint } from "./rest";

/** A factory of one feature's loaders for one request. */
export type LoaderFactory<T> = (db: Db, viewer: Viewer) => T;

export interface Feature {
  /** The feature's folder name (unique; errors and tests name a feature by it). */
  name: string;
  /** TypeGraphQL resolver classes (queries, mutations, field resolvers of other types). */
  resolvers?: readonly Function[];
  /** Per-request loader groups, each under its key of `Loaders` (declared by the feature: see src/graphql/loader-groups.ts). */
  loaders?: { readonly [K in keyof Loaders]?: LoaderFactory<Loaders[K]> };
  /** Nested blocks of district and school records (src/features/kits/blocks/block.ts). */
  blocks?: readonly BlockDefinition<any>[];
  /** Background jobs (pg-boss queues) this feature's services enqueue (src/jobs/job.ts). */
  jobs?: readonly JobDefinition<never>[];
  /** Descriptions of the schema's types and fields this feature declares (src/graphql/dictionary). */
  dictionary?: Dictionary;
  /** REST endpoints under /api/v1, each running one of the feature's GraphQL operations (src/graphql/rest.ts). */
  rest?: readonly RestEndpoint[];
  /** MCP tools, each running one of the feature's GraphQL operations (src/graphql/mcp-tool.ts). */
  mcp?: readonly McpToolSpec[];
  /** A catalogue record the generic MCP tools (search, details, metric_query) read (src/graphql/mcp-tool.ts). */
  mcpRecord?: McpRecordSpec;
}

/** A feature's manifest, checked against `Feature` with its literal types kept. */
export const defineFeature = <F extends Feature>(feature: F): F => feature;

/** What the installed features add up to. */
export interface Installed {
  features: readonly Feature[];
  resolvers: readonly Function[];
  loaders: ReadonlyMap<string, LoaderFactory<unknown>>;
  blocks: readonly BlockDefinition<any>[];
  jobs: readonly JobDefinition<never>[];
  dictionaries: readonly Dictionary[];
  rest: readonly RestEndpoint[];
  mcp: readonly McpToolSpec[];
  mcpRecords: readonly McpRecordSpec[];
}

let installed: Installed | undefined;

/** Installs the service's features (src/graphql/features.ts, once per process); a second, different list is refused. */
export function installFeatures(features: readonly Feature[]): Installed {
  if (installed) {
    if (installed.features === features) return installed;
    throw new Error("installFeatures: the features are installed once per process (src/graphql/features.ts)");
  }
  const names = new Set<string>();
  const loaders = new Map<string, LoaderFactory<unknown>>();
  for (const feature of features) {
    if (names.has(feature.name)) throw new Error(`installFeatures: two features are named ${feature.name}`);
    names.add(feature.name);
    for (const [key, factory] of Object.entries(feature.loaders ?? {})) {
      if (loaders.has(key)) throw new Error(`installFeatures: loader group ${key} is declared twice (${feature.name})`);
      loaders.set(key, factory as LoaderFactory<unknown>);
    }
  }
  let resolvers: readonly Function[] | undefined;
  installed = {
    features,
    // On first read: the blocks kit's resolvers follow from the blocks installed here.
    get resolvers() {
      return (resolvers ??= features.flatMap((f) => f.resolvers ?? []));
    },
    loaders,
    blocks: features.flatMap((f) => f.blocks ?? []),
    jobs: features.flatMap((f) => f.jobs ?? []),
    dictionaries: features.flatMap((f) => (f.dictionary ? [f.dictionary] : [])),
    rest: features.flatMap((f) => f.rest ?? []),
    mcp: features.flatMap((f) => f.mcp ?? []),
    mcpRecords: features.flatMap((f) => (f.mcpRecord ? [f.mcpRecord] : [])),
  };
  return installed;
}

/** The installed features' contributions; importing src/graphql/features.ts installs them. */
export function installedFeatures(): Installed {
  if (!installed) throw new Error("no features installed: import src/graphql/features.ts at the composition root");
  return installed;
}
