/** The whole field dictionary (one module per area) and its application to the schema. */
import type { GraphQLSchema } from "graphql";
import { assessmentsDictionary } from "./assessments";
import { associationsDictionary } from "./associations";
import { briefsDictionary } from "./briefs";
import { commonDictionary } from "./common";
import { contactsDictionary } from "./contacts";
import { applyDictionary, mergeDictionaries, type Dictionary } from "./dictionary";
import { districtsDictionary } from "./districts";
import { earlyChildhoodDictionary } from "./early-childhood";
import { intelligenceDictionary } from "./intelligence";
import { schoolsDictionary } from "./schools";
import { statisticsDictionary } from "./statistics";
import { workspaceDictionary } from "./workspace";

export { dictionaryProblems, TYPE, type Dictionary, type DictionaryProblems } from "./dictionary";

export const FIELD_DICTIONARY: Dictionary = mergeDictionaries(
  commonDictionary,
  districtsDictionary,
  schoolsDictionary,
  statisticsDictionary,
  assessmentsDictionary,
  intelligenceDictionary,
  contactsDictionary,
  earlyChildhoodDictionary,
  associationsDictionary,
  workspaceDictionary,
  briefsDictionary,
);

/** Describes the schema from the field dictionary (called once, when the schema is built). */
export function describeSchema(schema: GraphQLSchema): void {
  applyDictionary(schema, FIELD_DICTIONARY);
}
