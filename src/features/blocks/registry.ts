/**
 * Every nested block of district and school records, one line each (declared in its feature's
 * `*.blocks.ts`, see block.ts). Order does not matter.
 */
import { assessmentGradeRowsBlock, assessmentStateRowsBlock, assessmentSummaryBlock } from "../assessments/assessment.blocks";
import { eventsBlock } from "../events/event.blocks";
import { bidsBlock, contractsBlock, fundingBlock, painPointsBlock, vendorsBlock } from "../intelligence/intelligence.blocks";
import { parentDistrictSpecialEducationFinanceBlock, specialEducationFinanceBlock } from "../special-education/special-education.blocks";
import {
  districtAnnualStatisticsBlock,
  districtBreakdownsBlock,
  schoolAnnualStatisticsBlock,
  schoolBreakdownsBlock,
} from "../statistics/statistics.blocks";
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
