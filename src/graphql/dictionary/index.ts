/** The field dictionary kit: its checks, and its application to the schema (the entries are the features'). */
import type { GraphQLSchema } from "graphql";
import { commonDictionary } from "./common";
import { applyDictionary, mergeDictionaries, type Dictionary } from "./dictionary";

export { dictionaryProblems, TYPE, type Dictionary, type DictionaryProblems } from "./dictionary";

/** The whole dictionary: the shared entries (scalars, pagination, access) and every installed feature's. */
export const wholeDictionary = (features: readonly Dictionary[]): Dictionary => mergeDictionaries(commonDictionary, ...features);

/** Describes the schema from the field dictionary (called once, when the schema is built). */
export function describeSchema(schema: GraphQLSchema, dictionary: Dictionary): void {
  applyDictionary(schema, dictionary);
}
