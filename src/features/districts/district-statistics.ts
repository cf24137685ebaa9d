/**
 * The district's annual_statistics block. Breakdowns have their own loader, so a query that does not
 * ask for them costs no statement; a list page that does loads them with the statistics (district-blocks.ts).
 */
import { FieldResolver, Ctx, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context";
import { PREFETCHED, prefetched, type Prefetchable } from "../../graphql/fields";
import {
  breakdownHistories,
  breakdownSeries,
  gateSeries,
  latestBreakdowns,
  latestFinance,
  STATISTICS_CAVEAT,
  type BreakdownRowData,
} from "../statistics/statistics.service";
import {
  DistrictAnnualStatistics,
  DistrictBreakdowns,
  DistrictLatestBreakdowns,
  type DistrictStatisticsEntry,
} from "../statistics/statistics.type";
import type { DistrictStatRow } from "./district.loaders";
import type { DistrictRow } from "./district.service";

export const DISTRICT_BREAKDOWN_KEYS = ["enrollment_grade", "enrollment_race_sex", "staff_category", "idea_disability"] as const;

interface DistrictAnnualStatisticsSource extends DistrictAnnualStatistics {
  __district_id: string;
  __history_open: boolean;
}

/** latest_breakdowns of the block, from the district's breakdown rows. */
export const districtLatestBreakdowns = (rows: readonly BreakdownRowData[]): DistrictLatestBreakdowns =>
  latestBreakdowns(breakdownSeries(rows, DISTRICT_BREAKDOWN_KEYS)) as unknown as DistrictLatestBreakdowns;

/** breakdowns of the block (history gated like the block), from the district's breakdown rows. */
export const districtBreakdowns = (rows: readonly BreakdownRowData[], historyOpen: boolean): DistrictBreakdowns =>
  breakdownHistories(breakdownSeries(rows, DISTRICT_BREAKDOWN_KEYS), historyOpen) as unknown as DistrictBreakdowns;

/**
 * The block. With the district's breakdown rows (a page loaded them up front), its two breakdown
 * fields come prefetched too.
 */
export function districtAnnualStatistics(
  district: DistrictRow,
  rows: DistrictStatRow[],
  breakdownRows?: readonly BreakdownRowData[],
): DistrictAnnualStatistics {
  const entries = rows as unknown as DistrictStatisticsEntry[];
  const series = gateSeries(entries, district.__history_open);
  const block: Partial<DistrictAnnualStatisticsSource> = {
    latest: entries[entries.length - 1] ?? null,
    latest_finance: latestFinance(rows) as unknown as DistrictStatisticsEntry | null,
    ...series,
    caveat: STATISTICS_CAVEAT,
    __district_id: district.id,
    __history_open: district.__history_open,
  };
  if (breakdownRows) {
    (block as Prefetchable)[PREFETCHED] = {
      latestBreakdowns: districtLatestBreakdowns(breakdownRows),
      breakdowns: districtBreakdowns(breakdownRows, district.__history_open),
    };
  }
  return block as DistrictAnnualStatistics;
}

@Resolver(() => DistrictAnnualStatistics)
export class DistrictAnnualStatisticsResolver {
  @FieldResolver(() => DistrictLatestBreakdowns)
  async latestBreakdowns(@Root() block: DistrictAnnualStatisticsSource, @Ctx() ctx: Context): Promise<DistrictLatestBreakdowns> {
    const ready = prefetched<DistrictLatestBreakdowns>(block, "latestBreakdowns");
    return ready ?? districtLatestBreakdowns(await ctx.loaders.districts.breakdowns.load(block.__district_id));
  }

  @FieldResolver(() => DistrictBreakdowns)
  async breakdowns(@Root() block: DistrictAnnualStatisticsSource, @Ctx() ctx: Context): Promise<DistrictBreakdowns> {
    const ready = prefetched<DistrictBreakdowns>(block, "breakdowns");
    return ready ?? districtBreakdowns(await ctx.loaders.districts.breakdowns.load(block.__district_id), block.__history_open);
  }
}
