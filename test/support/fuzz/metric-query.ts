/**
 * Metric queries (contract section 8) and summary items (`stat:metric`) generated from their grammar as the
 * service defines it: the keys of each part (METRIC_QUERY_KEYS), the operators and the value each takes
 * (FILTER_OP_VALUES), change kinds, sort directions, the metric catalogue of the entity, the year range and the
 * size limits. A new metric, operator or key is generated with no change here.
 *
 * `hostile: false` builds only queries the grammar accepts (they reach the SQL compiler and the database);
 * `hostile: true` breaks some part of most of them: unknown keys and metrics, wrong JSON types, years out of
 * range, too many items, broken JSON, too long.
 */
import fc from "fast-check";
import { AGGREGATE_STATS } from "../../../src/features/catalogue/aggregates/aggregate.service";
import {
  CHANGE_KINDS,
  FILTER_OP_VALUES,
  FILTER_OPS,
  MAX_YEAR,
  METRIC_QUERY_KEYS,
  METRIC_QUERY_MAX_ITEMS,
  METRIC_QUERY_MAX_LENGTH,
  MIN_YEAR,
  SORT_DIRECTIONS,
} from "../../../src/features/catalogue/metrics/metric-query";
import { METRICS, type MetricEntity } from "../../../src/features/catalogue/metrics/metrics.catalog";
import { anyString, floatValue, HOSTILE_STRINGS, jsonText, rarely, RawJson, wrongJson } from "./values";

/** The entity whose metrics a field's metric query names (`districts`, `schoolAggregates` ...), if its name says. */
export const metricEntityOf = (field: string | undefined): MetricEntity | undefined =>
  (Object.keys(METRICS) as MetricEntity[]).find((entity) => field?.startsWith(entity));

const metricNames = (entity: MetricEntity | undefined): string[] => [
  ...new Set((entity ? [METRICS[entity]] : Object.values(METRICS)).flatMap((defs) => defs.map((d) => d.metric))),
];

/** Valid values, or (hostile) now and then something else. */
const mix = <T>(hostile: boolean, valid: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>, weight = 8): fc.Arbitrary<T | unknown> =>
  hostile ? fc.oneof({ arbitrary: valid, weight }, { arbitrary: bad, weight: 1 }) : valid;

/** School years: those the data holds, and (hostile) the range's edges and beyond and values that are not years. */
const year = (years: readonly number[], hostile: boolean): fc.Arbitrary<unknown> =>
  mix(
    hostile,
    fc.oneof({ arbitrary: fc.constantFrom(...years), weight: 6 }, fc.constantFrom(MIN_YEAR, MAX_YEAR)),
    fc.constantFrom<unknown>(MIN_YEAR - 1, MAX_YEAR + 1, 0, -2020, 2020.5, 2 ** 31, "2020", null, new RawJson("1e999"), [2020]),
    4,
  );

/** An object of some of `keys`: `required` always (hostile: now and then not), others now and then; hostile: an unknown key now and then. */
function item(
  keys: readonly string[],
  required: readonly string[],
  values: Record<string, fc.Arbitrary<unknown>>,
  hostile: boolean,
): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(keys.map((key) => [key, values[key] ?? wrongJson()]));
  const object = fc.record(model, { requiredKeys: hostile ? [] : [...required] });
  if (!hostile) return object;
  return fc
    .tuple(object, rarely(fc.tuple(fc.constantFrom("metrics", "Metric", "values", "__proto__", "limit", ""), wrongJson()), 12))
    .map(([o, extra]) => (extra ? { ...o, [extra[0]]: extra[1] } : o));
}

const list = <T>(arb: fc.Arbitrary<T>, hostile: boolean): fc.Arbitrary<T[]> =>
  hostile
    ? fc.oneof(
        { arbitrary: fc.array(arb, { maxLength: 4 }), weight: 10 },
        { arbitrary: fc.array(arb, { minLength: METRIC_QUERY_MAX_ITEMS, maxLength: METRIC_QUERY_MAX_ITEMS + 1 }), weight: 1 },
      )
    : fc.array(arb, { maxLength: 3 });

/** A metric query's JSON value over the entity's metrics (both entities' when unknown). */
export function metricQueryValue(
  entity: MetricEntity | undefined,
  years: readonly number[],
  hostile: boolean,
): fc.Arbitrary<Record<string, unknown>> {
  const metric = mix(
    hostile,
    fc.constantFrom(...metricNames(entity)),
    fc.oneof(fc.constantFrom(...metricNames(undefined), ...HOSTILE_STRINGS), wrongJson()),
  );
  const change = item(
    METRIC_QUERY_KEYS.change,
    METRIC_QUERY_KEYS.change,
    { from: year(years, hostile), to: year(years, hostile), kind: mix(hostile, fc.constantFrom(...CHANGE_KINDS), wrongJson()) },
    hostile,
  );
  // `year` and `change` together are refused; the default point is the latest year.
  const points: fc.Arbitrary<Record<string, unknown>>[] = [
    fc.constant({}),
    year(years, hostile).map((y) => ({ year: y })),
    fc.constant({ year: "latest" }),
    change.map((c) => ({ change: c })),
  ];
  if (hostile) points.push(fc.tuple(year(years, hostile), change).map(([y, c]) => ({ year: y, change: c })));
  const point = fc.oneof(...points);
  const shape = (keys: readonly string[], values: Record<string, fc.Arbitrary<unknown>>, required: readonly string[] = ["metric"]) =>
    fc
      .tuple(
        item(
          keys.filter((k) => k !== "year" && k !== "change"),
          required,
          values,
          hostile,
        ),
        point,
      )
      .map(([object, at]) => ({ ...object, ...at }));

  const select = shape(METRIC_QUERY_KEYS.select, {
    metric,
    as: mix(
      hostile,
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/),
      fc.constantFrom<unknown>("1a", "a-b", "x".repeat(64), "", null, 7, ...HOSTILE_STRINGS.slice(0, 20)),
      6,
    ),
  });
  const value = (op: unknown): fc.Arbitrary<unknown> => {
    const kind = typeof op === "string" ? FILTER_OP_VALUES[op as keyof typeof FILTER_OP_VALUES] : undefined;
    const number = floatValue(hostile);
    const valid =
      kind === "range"
        ? fc.tuple(number, number).map(([a, b]) => (typeof a === "number" && typeof b === "number" && a > b ? [b, a] : [a, b]))
        : kind === "number"
          ? number
          : fc.constant(undefined);
    return mix(hostile, valid, fc.oneof(number, fc.array(number, { maxLength: 3 }), wrongJson()), 4);
  };
  const filter = fc
    .tuple(
      shape(
        METRIC_QUERY_KEYS.filter.filter((k) => k !== "value"),
        { metric, op: mix(hostile, fc.constantFrom(...FILTER_OPS), fc.constantFrom<unknown>("EQ", "=", "like", null)) },
        ["metric", "op"],
      ),
      fc.constant(null),
    )
    .chain(([f]) => value(f.op).map((v) => (v === undefined ? f : { ...f, value: v })));
  const sort = shape(METRIC_QUERY_KEYS.sort, {
    metric,
    direction: mix(hostile, fc.constantFrom(...SORT_DIRECTIONS), fc.constantFrom<unknown>("ASC", "up", null)),
  });
  const query = item(
    METRIC_QUERY_KEYS.query,
    [],
    {
      // Each select a distinct `as` unless hostile (a repeated one is refused).
      select: mix(
        hostile,
        list(select, hostile).map((items) => (hostile ? items : items.map((s, i) => ({ ...s, as: `${String(s.as ?? "m")}_${i}` })))),
        wrongJson(),
      ),
      filters: mix(hostile, list(filter, hostile), wrongJson()),
      sort: mix(hostile, sort, wrongJson()),
    },
    hostile,
  );
  return query;
}

/** `metric_query` as sent: its JSON text, or (hostile) text that is not a query (broken JSON, another JSON type, too long). */
export function metricQueryText(entity: MetricEntity | undefined, years: readonly number[], hostile: boolean): fc.Arbitrary<string> {
  const text = metricQueryValue(entity, years, hostile).map(jsonText);
  if (!hostile) return text;
  return fc.oneof(
    { arbitrary: text, weight: 12 },
    { arbitrary: text.map((t) => t.slice(0, -1)), weight: 1 },
    { arbitrary: fc.constantFrom("", "{", "[]", "null", "1", '"x"', "{}", "{'select':[]}", '{"select":[],}'), weight: 1 },
    { arbitrary: anyString([], true), weight: 1 },
    {
      arbitrary: fc
        .constantFrom(METRIC_QUERY_MAX_LENGTH - 20, METRIC_QUERY_MAX_LENGTH + 1)
        .map((n) => jsonText({ select: [{ metric: metricNames(entity)[0], as: "a" }], pad: "x".repeat(n) })),
      weight: 1,
    },
  );
}

/** Summary items `stat:metric` (AGGREGATE_STATS over the entity's catalogue), and (hostile) items that are not. */
export const aggregateItem = (entity: MetricEntity | undefined, hostile: boolean): fc.Arbitrary<string> =>
  mix(
    hostile,
    fc.tuple(fc.constantFrom(...AGGREGATE_STATS), fc.constantFrom(...metricNames(entity))).map(([s, m]) => `${s}:${m}`),
    fc.oneof(
      fc.constantFrom(
        ...AGGREGATE_STATS.map((s) => `${s}:`),
        "count",
        ":",
        "avg:avg:x",
        "p99:total_enrollment",
        ...metricNames(undefined).map((m) => `sum:${m}`),
      ),
      anyString([], true),
    ),
  ) as fc.Arbitrary<string>;

/** A summary's `year`: "latest" or a school year, and (hostile) what is not a year. */
export const summaryYear = (years: readonly number[], hostile: boolean): fc.Arbitrary<string> =>
  mix(
    hostile,
    fc.constantFrom("latest", ...years.map(String)),
    fc.constantFrom(String(MIN_YEAR - 1), String(MAX_YEAR + 1), "20201", "２０２０", "2020.0", "LATEST", ""),
    6,
  ) as fc.Arbitrary<string>;
