import { defineFeature } from "../../../graphql/feature";
import { assessmentGradeRowsBlock, assessmentStateRowsBlock, assessmentSummaryBlock } from "./assessment.blocks";
import { assessmentsDictionary } from "./assessment.dictionary";

/** State assessment results of districts and schools (nested blocks). */
export const assessmentsFeature = defineFeature({
  name: "assessments",
  blocks: [assessmentSummaryBlock, assessmentGradeRowsBlock, assessmentStateRowsBlock],
  dictionary: assessmentsDictionary,
});
