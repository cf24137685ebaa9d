/** The whole field dictionary (one module per area) and its application to the schema. */
import type { GraphQLSchema } from "graphql";
import { assessmentsDictionary } from "../../features/catalogue/assessments/assessment.dictionary";
import { associationsDictionary } from "../../features/catalogue/associations/association.dictionary";
import { briefsDictionary } from "../../features/research/briefs/brief.dictionary";
import { commonDictionary } from "./common";
import { contactsDictionary } from "../../features/catalogue/contacts/contact.dictionary";
import { applyDictionary, mergeDictionaries, type Dictionary } from "./dictionary";
import { districtsDictionary } from "../../features/catalogue/districts/district.dictionary";
import { earlyChildhoodDictionary } from "./early-childhood";
import { intelligenceDictionary } from "../../features/research/intelligence/intelligence.dictionary";
import { schoolsDictionary } from "../../features/catalogue/schools/school.dictionary";
import { statisticsDictionary } from "../../features/catalogue/statistics/statistics.dictionary";
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
