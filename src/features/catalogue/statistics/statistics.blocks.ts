/**
 * The annual_statistics block of districts and schools, and its breakdowns (latest_breakdowns,
 * breakdowns): their own rows, read only when asked for, nested in annual_statistics.
 */
import { columnsOf } from "../../../graphql/fields";
import { defineBlock, type EntityKind } from "../../kits/blocks/block";
import { jsonRowsSql, rowDecoder, type JsonColumn } from "../../kits/common/json-rows";
import {
  breakdownHistories,
  breakdownSeries,
  districtAnnualStatistics,
  DISTRICT_BREAKDOWN_KEYS,
  latestBreakdowns,
  schoolAnnualStatistics,
  SCHOOL_BREAKDOWN_KEYS,
  type BreakdownRowData,
} from "./statistics.service";
import {
  DistrictAnnualStatistics,
  DistrictBreakdowns,
  DistrictLatestBreakdowns,
  DistrictStatisticsEntry,
  SchoolAnnualStatistics,
  SchoolBreakdowns,
  SchoolLatestBreakdowns,
  SchoolStatisticsEntry,
} from "./statistics.type";

const DISTRICT_STAT_COLUMNS = columnsOf(DistrictStatisticsEntry);
const SCHOOL_STAT_COLUMNS = columnsOf(SchoolStatisticsEntry);
const decodeDistrictStats = rowDecoder<DistrictStatisticsEntry>(DISTRICT_STAT_COLUMNS).all;
const decodeSchoolStats = rowDecoder<SchoolStatisticsEntry>(SCHOOL_STAT_COLUMNS).all;

export const districtAnnualStatisticsBlock = defineBlock({
  name: "district_annual_stats",
  kinds: ["district"],
  sql: ({ record }) =>
    jsonRowsSql("sa", DISTRICT_STAT_COLUMNS, `district_annual_stats sa WHERE sa.district_id = ${record}.id`, "sa.school_year_start"),
  decode: (json) => decodeDistrictStats(json as unknown[][] | null),
  fields: [
    {
      name: "annualStatistics",
      type: () => DistrictAnnualStatistics,
      shape: (rows, record) => districtAnnualStatistics(rows, record.__history_open),
    },
  ],
});

export const schoolAnnualStatisticsBlock = defineBlock({
  name: "school_annual_stats",
  kinds: ["school"],
  sql: ({ record }) =>
    jsonRowsSql("sa", SCHOOL_STAT_COLUMNS, `school_annual_stats sa WHERE sa.school_id = ${record}.id`, "sa.school_year_start"),
  decode: (json) => decodeSchoolStats(json as unknown[][] | null),
  fields: [
    {
      name: "annualStatistics",
      type: () => SchoolAnnualStatistics,
      shape: (rows, record) => schoolAnnualStatistics(rows, record.__history_open),
    },
  ],
});

const BREAKDOWN_COLUMNS: JsonColumn[] = [
  { property: "school_year_start", kind: "int" },
  { property: "breakdown_key", kind: "string" },
  { property: "category", kind: "string" },
  { property: "subgroup", kind: "string" },
  { property: "value", kind: "float" },
  { property: "value_status", kind: "string" },
  { property: "source_version", kind: "string" },
  { property: "source_url", kind: "string" },
];
const decodeBreakdownRows = rowDecoder<BreakdownRowData>(BREAKDOWN_COLUMNS).all;

/** The breakdown rows of the record, by key, year, category and subgroup, as year series per key. */
function breakdownsBlock(kind: EntityKind, keys: readonly string[], types: { annual: Function; latest: Function; histories: Function }) {
  return defineBlock({
    name: `${kind}_breakdowns`,
    kinds: [kind],
    under: { field: "annualStatistics", type: () => types.annual },
    sql: ({ record }) =>
      jsonRowsSql(
        "sb",
        BREAKDOWN_COLUMNS,
        `${kind}_stat_breakdowns sb WHERE sb.${kind}_id = ${record}.id`,
        "sb.breakdown_key, sb.school_year_start, sb.category, sb.subgroup",
      ),
    decode: (json) => breakdownSeries(decodeBreakdownRows(json as unknown[][] | null), keys),
    fields: [
      { name: "latestBreakdowns", type: () => types.latest, shape: (series) => latestBreakdowns(series) },
      { name: "breakdowns", type: () => types.histories, shape: (series, record) => breakdownHistories(series, record.__history_open) },
    ],
  });
}

export const districtBreakdownsBlock = breakdownsBlock("district", DISTRICT_BREAKDOWN_KEYS, {
  annual: DistrictAnnualStatistics,
  latest: DistrictLatestBreakdowns,
  histories: DistrictBreakdowns,
});

export const schoolBreakdownsBlock = breakdownsBlock("school", SCHOOL_BREAKDOWN_KEYS, {
  annual: SchoolAnnualStatistics,
  latest: SchoolLatestBreakdowns,
  histories: SchoolBreakdowns,
});
