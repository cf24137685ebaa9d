import "reflect-metadata";
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from "graphql";
import { buildSchemaSync } from "type-graphql";
import { resolvers } from "./resolvers";

let built: GraphQLSchema | undefined;

/** The one executable schema (built once per process; resolver classes are stateless singletons). */
export function getSchema(): GraphQLSchema {
  built ??= buildSchemaSync({ resolvers, validate: false });
  return built;
}

/** The SDL committed as schema.graphql (sorted, so diffs show real changes only). */
export function printSchemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(getSchema()))}\n`;
}
