import { defineFeature } from "../../../graphql/feature";
import { parentDistrictSpecialEducationFinanceBlock, specialEducationFinanceBlock } from "./special-education.blocks";

/** Special-education finance of districts, and of a school's district (nested blocks). */
export const specialEducationFeature = defineFeature({
  name: "special-education",
  blocks: [specialEducationFinanceBlock, parentDistrictSpecialEducationFinanceBlock],
});
