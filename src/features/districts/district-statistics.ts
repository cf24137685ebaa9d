/**
 * The district's annual_statistics block. Breakdowns are resolved lazily (their own loader) so a query
 * that does not ask for them costs no statement.
 */
import { FieldResolver, Ctx, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context";
import {
  breakdownHistories,
  breakdownSeries,
  gateSeries,
  latestBreakdowns,
  latestFinance,
  STATISTICS_CAVEAT,
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

export function districtAnnualStatistics(district: DistrictRow, rows: DistrictStatRow[]): DistrictAnnualStatistics {
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
  return block as DistrictAnnualStatistics;
}

@Resolver(() => DistrictAnnualStatistics)
export class DistrictAnnualStatisticsResolver {
  @FieldResolver(() => DistrictLatestBreakdowns)
  async latestBreakdowns(@Root() block: DistrictAnnualStatisticsSource, @Ctx() ctx: Context): Promise<DistrictLatestBreakdowns> {
    const rows = await ctx.loaders.districts.breakdowns.load(block.__district_id);
    return latestBreakdowns(breakdownSeries(rows, DISTRICT_BREAKDOWN_KEYS)) as unknown as DistrictLatestBreakdowns;
  }

  @FieldResolver(() => DistrictBreakdowns)
  async breakdowns(@Root() block: DistrictAnnualStatisticsSource, @Ctx() ctx: Context): Promise<DistrictBreakdowns> {
    const rows = await ctx.loaders.districts.breakdowns.load(block.__district_id);
    return breakdownHistories(breakdownSeries(rows, DISTRICT_BREAKDOWN_KEYS), block.__history_open) as unknown as DistrictBreakdowns;
  }
}
