import { defineFeature } from "../../../graphql/feature";
import {
  districtAnnualStatisticsBlock,
  districtBreakdownsBlock,
  schoolAnnualStatisticsBlock,
  schoolBreakdownsBlock,
} from "./statistics.blocks";
import { statisticsDictionary } from "./statistics.dictionary";

/** Annual statistics and breakdowns of districts and schools (nested blocks). */
export const statisticsFeature = defineFeature({
  name: "statistics",
  blocks: [districtAnnualStatisticsBlock, districtBreakdownsBlock, schoolAnnualStatisticsBlock, schoolBreakdownsBlock],
  dictionary: statisticsDictionary,
});
