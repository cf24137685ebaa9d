/**
 * The school's annual_statistics block (school form: no latest_finance; breakdown keys enrollment_grade
 * and enrollment_race_sex). Breakdowns are resolved lazily (their own loader) so a query that does not
 * ask for them costs no statement.
 */
import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context";
import { breakdownHistories, breakdownSeries, gateSeries, latestBreakdowns } from "../statistics/statistics.service";
import {
  SchoolAnnualStatistics,
  SchoolBreakdowns,
  SchoolLatestBreakdowns,
  type SchoolStatisticsEntry,
} from "../statistics/statistics.type";
import type { SchoolStatRow } from "./school.loaders";
import type { SchoolRow } from "./school.service";

export const SCHOOL_BREAKDOWN_KEYS = ["enrollment_grade", "enrollment_race_sex"] as const;

export const SCHOOL_STATISTICS_CAVEAT =
  "Each entry holds what the federal sources report for that school year. Sources publish on different " +
  "schedules (directory, membership, staff, school characteristics, free and reduced-price lunch), so the " +
  "latest entry can lack fields a prior year has. Suppressed or missing values are null, with the reason in " +
  "the matching *_status field where one exists.";

interface SchoolAnnualStatisticsSource extends SchoolAnnualStatistics {
  __school_id: string;
  __history_open: boolean;
}

export function schoolAnnualStatistics(school: SchoolRow, rows: SchoolStatRow[]): SchoolAnnualStatistics {
  const entries = rows as unknown as SchoolStatisticsEntry[];
  const block: SchoolAnnualStatisticsSource = {
    latest: entries[entries.length - 1] ?? null,
    ...gateSeries(entries, school.__history_open),
    caveat: SCHOOL_STATISTICS_CAVEAT,
    __school_id: school.id,
    __history_open: school.__history_open,
  };
  return block;
}

@Resolver(() => SchoolAnnualStatistics)
export class SchoolAnnualStatisticsResolver {
  @FieldResolver(() => SchoolLatestBreakdowns)
  async latestBreakdowns(@Root() block: SchoolAnnualStatisticsSource, @Ctx() ctx: Context): Promise<SchoolLatestBreakdowns> {
    const rows = await ctx.loaders.schools.breakdowns.load(block.__school_id);
    return latestBreakdowns(breakdownSeries(rows, SCHOOL_BREAKDOWN_KEYS)) as unknown as SchoolLatestBreakdowns;
  }

  @FieldResolver(() => SchoolBreakdowns)
  async breakdowns(@Root() block: SchoolAnnualStatisticsSource, @Ctx() ctx: Context): Promise<SchoolBreakdowns> {
    const rows = await ctx.loaders.schools.breakdowns.load(block.__school_id);
    return breakdownHistories(breakdownSeries(rows, SCHOOL_BREAKDOWN_KEYS), block.__history_open) as unknown as SchoolBreakdowns;
  }
}
