/**
 * Summaries of the district and school lists (GET /districts/summary, /schools/summary; docs/aggregates.md):
 * the list's records, filtered by the list's own filter clauses and metric query, grouped, with statistics
 * of metric values, in one statement. A metric's value per record is the metric query's (same SQL, same
 * history gating), so a summary never shows what the metric query would withhold.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { BadRequestError, echo } from "../../../graphql/errors";
import type { Notice } from "../../../graphql/notices";
import { accessJoinSql, historyOpenSql } from "../../account/access/access.service";
import type { Viewer } from "../../account/auth/viewer";
import type { Records } from "../../kits/blocks/record.service";
import { LOCALE_CODE_PREFIX } from "../../kits/common/enums";
import { checkColumns, runChecks, type FilterCheck } from "../../kits/common/list-kit";
import {
  compileMetricQuery,
  historyGatedNotice,
  MAX_YEAR,
  MIN_YEAR,
  parseMetricQuery,
  type MetricPoint,
  type MetricQuery,
} from "../metrics/metric-query";
import { findMetric, type MetricEntity } from "../metrics/metrics.catalog";
import { AGGREGATE_MAX_ITEMS, type AggregateArgs } from "./aggregate.inputs";
import { AggregateGroupKey, type AggregateGroup } from "./aggregate.type";

export const AGGREGATE_STATS = ["count", "sum", "avg", "min", "max", "median"] as const;
export type AggregateStat = (typeof AGGREGATE_STATS)[number];
const GROUP_KEYS = Object.values(AggregateGroupKey);
/** The access join's alias, the one the lists' filter SQL names (record.service.ts). */
const UNLOCK = "u";

/** The statistic over one group's non-null values `v` (SQL aggregate). */
const STAT_SQL: Record<AggregateStat, (v: string) => string> = {
  count: (v) => `count(${v})`,
  sum: (v) => `sum(${v})`,
  avg: (v) => `avg(${v})`,
  min: (v) => `min(${v})`,
  max: (v) => `max(${v})`,
  median: (v) => `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${v}::float8)`,
};

const LOCALE_BUCKET_SQL = (column: string): string =>
  `CASE left(${column}, 1) ${Object.entries(LOCALE_CODE_PREFIX)
    .map(([bucket, prefix]) => `WHEN '${prefix}' THEN '${bucket}'`)
    .join(" ")} END`;

/**
 * The SQL of each group key per entity, over the record alias (`d` districts, `s` schools). A school's
 * district type is its district's (schools carry no type of their own in that vocabulary).
 */
const GROUP_SQL: Record<MetricEntity, Record<AggregateGroupKey, string>> = {
  district: {
    state: "d.state",
    locale: LOCALE_BUCKET_SQL("d.locale_code"),
    district_type: "d.district_type",
    county: "d.county",
  },
  school: {
    state: "s.state",
    locale: LOCALE_BUCKET_SQL("s.locale_code"),
    district_type: "(SELECT sd.district_type FROM districts sd WHERE sd.id = s.district_id)",
    county: "s.county",
  },
};

export interface AggregateItem {
  /** `stat:metric`, the key in `values`. */
  key: string;
  stat: AggregateStat;
  metric: string;
}

export interface AggregateResult {
  data: AggregateGroup[];
  notices?: Notice[];
}

const fail = (message: string): never => {
  throw new BadRequestError(message);
};

/** `group_by`: distinct keys, in the order given (that is the groups' sort order). */
export function parseGroupBy(groupBy: readonly string[] | null | undefined): AggregateGroupKey[] {
  const keys = groupBy ?? [];
  if (keys.length > GROUP_KEYS.length) fail(`group_by has ${keys.length} keys; at most ${GROUP_KEYS.length} (${GROUP_KEYS.join(", ")})`);
  const seen = new Set<string>();
  for (const key of keys) {
    if (!GROUP_KEYS.includes(key as AggregateGroupKey)) fail(`group_by ${echo(key)} is not one of ${GROUP_KEYS.join(", ")}`);
    if (seen.has(key)) fail(`group_by ${echo(key)} is given twice`);
    seen.add(key);
  }
  return keys as AggregateGroupKey[];
}

/** `aggregates`: `stat:metric` items, each a stat of AGGREGATE_STATS over a metric of the entity's catalogue. */
export function parseAggregates(entity: MetricEntity, aggregates: readonly string[] | null | undefined): AggregateItem[] {
  const items = aggregates ?? [];
  if (items.length > AGGREGATE_MAX_ITEMS) fail(`aggregates has ${items.length} items; at most ${AGGREGATE_MAX_ITEMS} are allowed`);
  const seen = new Set<string>();
  return items.map((key) => {
    const colon = key.indexOf(":");
    if (colon < 0) fail(`aggregates ${echo(key)} must be stat:metric, e.g. sum:total_enrollment`);
    const [stat, metric] = [key.slice(0, colon), key.slice(colon + 1)];
    if (!AGGREGATE_STATS.includes(stat as AggregateStat))
      fail(`aggregates ${echo(key)}: stat ${echo(stat)} is not one of ${AGGREGATE_STATS.join(", ")}`);
    if (!findMetric(entity, metric))
      fail(
        `aggregates ${echo(key)}: ${echo(metric)} is not a ${entity} metric; GET /metrics?entity_type=${entity} lists the allowed metrics`,
      );
    if (seen.has(key)) fail(`aggregates ${echo(key)} is given twice`);
    seen.add(key);
    return { key, stat: stat as AggregateStat, metric };
  });
}

/** `year`: "latest" (default: each record's own latest year with the metric, as in the metric query) or a school_year_start. */
export function parseYear(year: string | null | undefined): MetricPoint {
  if (year == null || year === "latest") return { at: "latest" };
  const n = /^\d{4}$/.test(year) ? Number(year) : NaN;
  if (!(n >= MIN_YEAR && n <= MAX_YEAR)) fail(`year ${echo(year)} must be "latest" or a four-digit school year (school_year_start)`);
  return { at: "year", year: n };
}

/** The list's metric query, filters only: a summary has no page to select values into or to sort. */
function summaryMetricQuery(entity: MetricEntity, raw: string | null | undefined): MetricQuery["filters"] {
  if (raw == null) return [];
  const query = parseMetricQuery(entity, raw);
  if (query.select.length || query.sort) fail(`metric_query: a summary takes only "filters" (select and sort have no page to apply to)`);
  return query.filters;
}

/**
 * The summary of `records` for the viewer: one statement (the list's filter checks included), groups
 * sorted by their keys (byte order, nulls last), `count` the group's records, each `values[stat:metric]`
 * the stat over the group's non-null values (null when none; `count:` counts them).
 */
export async function aggregateRecords<F, O extends string>(
  db: Db,
  viewer: Viewer,
  records: Records<F, O>,
  args: AggregateArgs<F>,
): Promise<AggregateResult> {
  const { kind, alias: a, table } = records;
  // Every parameter is checked before anything runs, in the order of the contract row.
  const groupBy = parseGroupBy(args.groupBy);
  const items = parseAggregates(kind, args.aggregates);
  const point = parseYear(args.year);
  const p = new SqlParams();
  const checks: FilterCheck[] = [];
  const where = records.list.where(args.filter, p, viewer, checks);
  const metrics = [...new Set(items.map((item) => item.metric))];
  // The metric values and the metric_query filters compiled together, through the metric query's history gate.
  const query: MetricQuery = {
    select: metrics.map((metric, i) => ({ metric, point, as: `m${i}` })),
    filters: summaryMetricQuery(kind, args.metricQuery),
    sort: null,
  };
  const compiled = compileMetricQuery(kind, query, p, a, () => historyOpenSql(viewer, records.access, a, p));
  where.push(...compiled.where);
  const value = (metric: string): string => `r.__m${metrics.indexOf(metric)}`;
  const inner = [
    ...groupBy.map((key, i) => `${GROUP_SQL[kind][key]} AS __g${i}`),
    ...compiled.selects.map((s, i) => `${s.sql} AS __m${i}`),
  ];
  const groups = groupBy.map((_, i) => `r.__g${i}`);
  const outer = [
    ...groups.map((g, i) => `${g} AS __g${i}`),
    "count(*) AS __count",
    ...items.map((item, i) => `${STAT_SQL[item.stat](value(item.metric))} AS __v${i}`),
  ];
  // Hand-written: aggregate query. The one-row `c` carries the filter's checks (the caller's lists) and
  // makes an empty grouped result one row of nulls instead of none, so the checks always run.
  const sql = `SELECT a.*${checkColumns(checks)}
    FROM (SELECT 1 AS __one) c
    LEFT JOIN (
      SELECT ${outer.join(", ")}
        FROM (SELECT ${["1 AS __one", ...inner].join(", ")}
                FROM ${table} ${a} ${accessJoinSql(records.access, a, UNLOCK, p.add(viewer.organizationId))}
               WHERE ${where.length ? where.join(" AND ") : "true"}) r
       ${groups.length ? `GROUP BY ${groups.join(", ")}` : ""}
    ) a ON true
    ${groupBy.length ? `ORDER BY ${groupBy.map((_, i) => `a.__g${i} COLLATE "C" ASC NULLS LAST`).join(", ")}` : ""}`;
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  runChecks(checks, rows[0]);
  const data = rows
    .filter((row) => row.__count != null)
    .map((row) => ({
      group: Object.fromEntries(groupBy.map((key, i) => [key, (row[`__g${i}`] as string | null) ?? null])),
      count: Number(row.__count),
      values: Object.fromEntries(items.map((item, i) => [item.key, row[`__v${i}`] == null ? null : Number(row[`__v${i}`])])),
    }));
  return { data, ...(compiled.historyGated ? { notices: [historyGatedNotice(kind, query, "the summary")] } : {}) };
}
