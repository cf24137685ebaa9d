import "reflect-metadata";
import { defaultFieldResolver, Kind, lexicographicSortSchema, print, printSchema, type FieldNode, type GraphQLSchema } from "graphql";
import { buildSchemaSync, type NonEmptyArray } from "type-graphql";
import type { Context } from "./context";
import { describeSchema } from "./dictionary";
import { FIELD_DICTIONARY, INSTALLED } from "./features";
import { addIdempotencyKeyArgument } from "./idempotency";

let built: GraphQLSchema | undefined;

/** The one executable schema (built once per process; resolver classes are stateless singletons). */
export function getSchema(): GraphQLSchema {
  if (!built) {
    // skipCheck: type-graphql would run the introspection query over the new schema to find errors, 0.1 s of every
    // start and test file; graphql-js validates the schema anyway before the first document is validated against
    // it (the REST router's, when the app is built), and schema.graphql is printed from it (npm run check:schema).
    built = buildSchemaSync({ resolvers: INSTALLED.resolvers as NonEmptyArray<Function>, validate: false, skipCheck: true });
    // Every mutation takes an Idempotency-Key (src/graphql/idempotency.ts): no resolver declares it.
    addIdempotencyKeyArgument(built);
    // Descriptions come from the field dictionary (src/graphql/dictionary), the one place they are written.
    describeSchema(built, FIELD_DICTIONARY);
    resolveRepeatedRootFieldsOnce(built);
  }
  return built;
}

/** The SDL committed as schema.graphql (sorted, so diffs show real changes only). */
export function printSchemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(getSchema()))}\n`;
}

const printedSelections = new WeakMap<FieldNode, string>();
const selectionKey = (node: FieldNode): string => {
  let key = printedSelections.get(node);
  if (key === undefined) {
    key = node.selectionSet ? print(node.selectionSet) : "";
    printedSelections.set(node, key);
  }
  return key;
};

/**
 * Aliases can ask for the same root query field many times in one request. A repeat with the same
 * arguments and selection gets the first one's result instead of running its statements again.
 * A single root field (every REST request) pays nothing.
 */
function resolveRepeatedRootFieldsOnce(schema: GraphQLSchema): void {
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context: Context, info) => {
      const roots = info.operation.selectionSet.selections;
      if (roots.length === 1 && roots[0].kind === Kind.FIELD) return resolve(source, args, context, info);
      const key = `${info.fieldName}\u0000${JSON.stringify(args)}\u0000${info.fieldNodes.map(selectionKey).join("\u0000")}`;
      const results = (context.rootResults ??= new Map());
      if (!results.has(key)) results.set(key, resolve(source, args, context, info));
      return results.get(key);
    };
  }
}
