/**
 * Every nested block of district and school records, one line each (declared in its feature's
 * `*.blocks.ts`, see block.ts). Order does not matter.
 */
import { assessmentGradeRowsBlock, assessmentStateRowsBlock, assessmentSummaryBlock } from "../../catalogue/assessments/assessment.blocks";
import { eventsBlock } from "../../catalogue/events/event.blocks";
import { bidsBlock, contractsBlock, fundingBlock, painPointsBlock, vendorsBlock } from "../../research/intelligence/intelligence.blocks";
import {
  parentDistrictSpecialEducationFinanceBlock,
  specialEducationFinanceBlock,
} from "../../catalogue/special-education/special-education.blocks";
import {
  districtAnnualStatisticsBlock,
  districtBreakdownsBlock,
  schoolAnnualStatisticsBlock,
  schoolBreakdownsBlock,
} from "../../catalogue/statistics/statistics.blocks";
import type { BlockDefinition } from "./block";

export const BLOCKS: readonly BlockDefinition<any>[] = [
  districtAnnualStatisticsBlock,
  districtBreakdownsBlock,
  schoolAnnualStatisticsBlock,
  schoolBreakdownsBlock,
  assessmentSummaryBlock,
  assessmentGradeRowsBlock,
  assessmentStateRowsBlock,
  specialEducationFinanceBlock,
  parentDistrictSpecialEducationFinanceBlock,
  painPointsBlock,
  vendorsBlock,
  fundingBlock,
  contractsBlock,
  bidsBlock,
  eventsBlock,
];
