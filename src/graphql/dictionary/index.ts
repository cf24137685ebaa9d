/** The field dictionary kit: its checks, and its application to the schema (the entries are the features'). */
import type { GraphQLSchema } from "graphql";
import { IDEMPOTENCY_KEY_ARGUMENT } from "../idempotency";
import { commonDictionary, IDEMPOTENCY_KEY } from "./common";
import { applyDictionary, mergeDictionaries, TYPE, type Dictionary } from "./dictionary";

export { dictionaryProblems, TYPE, type Dictionary, type DictionaryProblems } from "./dictionary";

/**
 * The whole dictionary: the shared entries (scalars, pagination, access) and every installed feature's, with the
 * `idempotencyKey` argument the idempotency kit adds to every mutation (src/graphql/idempotency.ts) described once.
 */
export function wholeDictionary(features: readonly Dictionary[]): Dictionary {
  const merged = mergeDictionaries(commonDictionary, ...features);
  const mutations = Object.keys(merged.Mutation ?? {}).filter((key) => key !== TYPE && !key.includes("("));
  return mergeDictionaries(merged, {
    Mutation: Object.fromEntries(mutations.map((field) => [`${field}(${IDEMPOTENCY_KEY_ARGUMENT})`, IDEMPOTENCY_KEY])),
  });
}

/** Describes the schema from the field dictionary (called once, when the schema is built). */
export function describeSchema(schema: GraphQLSchema, dictionary: Dictionary): void {
  applyDictionary(schema, dictionary);
}
