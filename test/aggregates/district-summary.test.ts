/**
 * GET /districts/summary and `districtAggregates` (issue 27, contract section 7 "aggregates"): every stat
 * checked against values computed here from the inserted rows, group order, latest vs a given year, the
 * list's filters (plain, range, metric_query), one statement, and both faces agreeing.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { countStatements } from "../support/statements";

type Stat = "count" | "sum" | "avg" | "min" | "max" | "median";

/** The statistics as the contract defines them, over the non-null values (null when there is none). */
function stat(kind: Stat, values: (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (kind === "count") return v.length;
  if (!v.length) return null;
  const sum = v.reduce((s, x) => s + x, 0);
  switch (kind) {
    case "sum":
      return sum;
    case "avg":
      return sum / v.length;
    case "min":
      return v[0];
    case "max":
      return v[v.length - 1];
    case "median":
      return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}

interface Fixture {
  state: string;
  locale_code: string | null;
  district_type: string | null;
  county: string;
  student_count: number;
  /** total_enrollment by school year; a missing year has no row. */
  enrollment: Record<number, number | null>;
  teachers: Record<number, number | null>;
}

// Named "Aggfix ...", so `search=Aggfix` (a list filter) keeps other rows of the database out of every group.
const FIXTURES: Fixture[] = [
  {
    state: "VT",
    locale_code: "11",
    district_type: "Regular",
    county: "Addison",
    student_count: 900,
    enrollment: { 2022: 880, 2023: 900 },
    teachers: { 2022: 60.5, 2023: 61.25 },
  },
  {
    state: "VT",
    locale_code: "41",
    district_type: "Regular",
    county: "Addison",
    student_count: 120,
    enrollment: { 2022: 118, 2023: 120 },
    teachers: { 2022: 9, 2023: 9.5 },
  },
  {
    state: "VT",
    locale_code: "42",
    district_type: "Charter",
    county: "Bennington",
    student_count: 45,
    enrollment: { 2022: 47 },
    teachers: { 2022: 4 },
  },
  {
    state: "VT",
    locale_code: null,
    district_type: null,
    county: "Bennington",
    student_count: 300,
    enrollment: { 2022: 310, 2023: null },
    teachers: { 2022: 21, 2023: 22 },
  },
  {
    state: "WY",
    locale_code: "21",
    district_type: "Regular",
    county: "Albany",
    student_count: 2500,
    enrollment: { 2022: 2450, 2023: 2500 },
    teachers: { 2022: 150, 2023: 152.75 },
  },
  {
    state: "WY",
    locale_code: "32",
    district_type: "Regular",
    county: "Albany",
    student_count: 700,
    enrollment: { 2022: 690, 2023: 700 },
    teachers: { 2022: 50, 2023: 51 },
  },
  {
    state: "WY",
    locale_code: "43",
    district_type: "Regular",
    county: "Big Horn",
    student_count: 33,
    enrollment: { 2023: 33 },
    teachers: { 2023: 60 },
  },
  {
    state: "WY",
    locale_code: "41",
    district_type: "Regular",
    county: "Big Horn",
    student_count: 1500,
    enrollment: { 2022: 1490, 2023: 1500 },
    teachers: { 2022: 41, 2023: 40 },
  },
  {
    state: "NH",
    locale_code: "12",
    district_type: "Supervisory Union",
    county: "Coös",
    student_count: 5000,
    enrollment: { 2022: 5100, 2023: 5000 },
    teachers: { 2022: 300, 2023: 290 },
  },
];
const MINE = "search=Aggfix";
const LOCALE: Record<string, string> = { "1": "city", "2": "suburban", "3": "town", "4": "rural" };
const YEARS = [2022, 2023];

/** A record's value as the metric query defines it: the given year's, or its own latest non-null one. */
function valueOf(series: Record<number, number | null>, year: number | "latest"): number | null {
  if (year !== "latest") return series[year] ?? null;
  const years = Object.keys(series)
    .map(Number)
    .sort((a, b) => b - a);
  for (const y of years) if (series[y] !== null && series[y] !== undefined) return series[y];
  return null;
}

/** The expected summary: groups by `keyOf`, sorted by key, every stat of both metrics. */
function expected(
  rows: Fixture[],
  keyOf: (f: Fixture) => Record<string, string | null>,
  year: number | "latest",
  stats: Stat[] = ["count", "sum", "avg", "min", "max", "median"],
) {
  const groups = new Map<string, Fixture[]>();
  for (const row of rows) {
    const key = JSON.stringify(keyOf(row));
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const sortKey = (key: string) => Object.values(JSON.parse(key) as Record<string, string | null>);
  const ordered = [...groups.keys()].sort((a, b) => {
    const [ka, kb] = [sortKey(a), sortKey(b)];
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] === kb[i]) continue;
      if (ka[i] === null) return 1; // nulls last
      if (kb[i] === null) return -1;
      return Buffer.compare(Buffer.from(ka[i] as string), Buffer.from(kb[i] as string)); // byte order
    }
    return 0;
  });
  return ordered.map((key) => {
    const members = groups.get(key)!;
    const values: Record<string, number | null> = {};
    for (const s of stats) {
      values[`${s}:total_enrollment`] = stat(
        s,
        members.map((m) => valueOf(m.enrollment, year)),
      );
      values[`${s}:teachers_fte`] = stat(
        s,
        members.map((m) => valueOf(m.teachers, year)),
      );
    }
    return { group: JSON.parse(key), count: members.length, values };
  });
}

const ALL_STATS: Stat[] = ["count", "sum", "avg", "min", "max", "median"];
const AGGREGATES = ALL_STATS.flatMap((s) => [`${s}:total_enrollment`, `${s}:teachers_fte`]).join(",");

/** Floating-point sums and averages: equal to 9 significant digits. */
function expectClose(actual: { values: Record<string, number | null> }[], wanted: { values: Record<string, number | null> }[]) {
  expect(actual.map((g) => ({ ...g, values: undefined }))).toEqual(wanted.map((g) => ({ ...g, values: undefined })));
  actual.forEach((group, i) => {
    expect(Object.keys(group.values).sort()).toEqual(Object.keys(wanted[i].values).sort());
    for (const [key, value] of Object.entries(wanted[i].values)) {
      if (value === null) expect([key, group.values[key]]).toEqual([key, null]);
      else expect([key, group.values[key]]).toEqual([key, expect.closeTo(value, 6)]);
    }
  });
}

describe("GET /districts/summary", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    for (const f of FIXTURES) {
      const id = await insertDistrict(t.db, {
        name: `Aggfix ${f.state} ${f.county} ${f.student_count}`,
        state: f.state,
        locale_code: f.locale_code,
        district_type: f.district_type,
        county: f.county,
        student_count: f.student_count,
      });
      for (const year of YEARS) {
        if (!(year in f.enrollment) && !(year in f.teachers)) continue;
        await insertDistrictStats(t.db, id, year, { total_enrollment: f.enrollment[year] ?? null, teachers_fte: f.teachers[year] ?? null });
      }
    }
  });
  afterAll(() => t.close());

  const summary = (query: string, plan: "pro" | "free" = "pro") => t.get(`/api/v1/districts/summary?${query}`, plan);

  it("computes every stat per state for a given year, groups sorted by their keys", async () => {
    const res = await summary(`${MINE}&group_by=state&year=2023&aggregates=${AGGREGATES}`).expect(200);
    expect(res.body.data.map((g: { group: unknown }) => g.group)).toEqual([{ state: "NH" }, { state: "VT" }, { state: "WY" }]);
    expectClose(
      res.body.data,
      expected(FIXTURES, (f) => ({ state: f.state }), 2023),
    );
    expect(Object.keys(res.body)).toEqual(["data"]);
  });

  it("reads each record's own latest year by default, and year=latest is the same", async () => {
    const byDefault = await summary(`${MINE}&group_by=state&aggregates=${AGGREGATES}`).expect(200);
    expectClose(
      byDefault.body.data,
      expected(FIXTURES, (f) => ({ state: f.state }), "latest"),
    );
    const latest = await summary(`${MINE}&group_by=state&aggregates=${AGGREGATES}&year=latest`).expect(200);
    expect(latest.body).toEqual(byDefault.body);
    // The 2023 and latest answers differ where a record has no 2023 value (the VT charter and the VT null).
    const y2023 = await summary(`state=VT&aggregates=sum:total_enrollment,count:total_enrollment&year=2023`).expect(200);
    const vtLatest = await summary(`state=VT&aggregates=sum:total_enrollment,count:total_enrollment`).expect(200);
    expect(y2023.body.data).toEqual([{ group: {}, count: 4, values: { "sum:total_enrollment": 1020, "count:total_enrollment": 2 } }]);
    expect(vtLatest.body.data).toEqual([{ group: {}, count: 4, values: { "sum:total_enrollment": 1377, "count:total_enrollment": 4 } }]);
    // A year no record has: every group still counts its records, every value is null (count: 0).
    const empty = await summary(`state=VT&aggregates=sum:total_enrollment,count:teachers_fte&year=1999`).expect(200);
    expect(empty.body.data).toEqual([{ group: {}, count: 4, values: { "sum:total_enrollment": null, "count:teachers_fte": 0 } }]);
  });

  it("groups by several keys in the order given (locale buckets, nulls last; district type; county in byte order)", async () => {
    const res = await summary(`${MINE}&group_by=locale,state&aggregates=${AGGREGATES}&year=2022`).expect(200);
    const locale = (f: Fixture) => (f.locale_code ? LOCALE[f.locale_code[0]] : null);
    expectClose(
      res.body.data,
      expected(FIXTURES, (f) => ({ locale: locale(f), state: f.state }), 2022),
    );
    expect(res.body.data.at(-1).group).toEqual({ locale: null, state: "VT" });
    const types = await summary(`${MINE}&group_by=district_type,county&aggregates=sum:total_enrollment,median:teachers_fte`).expect(200);
    const wanted = expected(FIXTURES, (f) => ({ district_type: f.district_type, county: f.county }), "latest", ["sum", "median"]).map(
      (g) => ({
        ...g,
        values: { "sum:total_enrollment": g.values["sum:total_enrollment"], "median:teachers_fte": g.values["median:teachers_fte"] },
      }),
    );
    expectClose(types.body.data, wanted);
    expect(types.body.data.map((g: { group: { county: string } }) => g.group.county)).toContain("Coös");
  });

  it("applies the list's filters: state, a range filter and a metric_query filter", async () => {
    const query = encodeURIComponent(JSON.stringify({ filters: [{ metric: "teachers_fte", year: 2023, op: "gte", value: 50 }] }));
    const res = await summary(`state=WY&min_enrollment=600&metric_query=${query}&group_by=state&aggregates=${AGGREGATES}&year=2023`).expect(
      200,
    );
    const rows = FIXTURES.filter((f) => f.state === "WY" && f.student_count >= 600 && (f.teachers[2023] ?? -1) >= 50);
    // Each filter removes a row the others keep: the VT 900 (state), the WY 33 (range), the WY 1500 (metric).
    expect(rows.map((f) => f.student_count)).toEqual([2500, 700]);
    expectClose(
      res.body.data,
      expected(rows, (f) => ({ state: f.state }), 2023),
    );
    const nothing = await summary(`state=VT&min_enrollment=100000&group_by=state&aggregates=sum:total_enrollment`).expect(200);
    expect(nothing.body.data).toEqual([]);
    const ungrouped = await summary(`state=VT&min_enrollment=100000&aggregates=sum:total_enrollment`).expect(200);
    expect(ungrouped.body.data).toEqual([{ group: {}, count: 0, values: { "sum:total_enrollment": null } }]);
  });

  it("answers in one statement (plus the API key lookup), like a list page", async () => {
    const q = `${MINE}&group_by=state,locale&aggregates=${AGGREGATES}&year=2023&min_enrollment=1`;
    const list = await countStatements(t.db, () => t.get(`/api/v1/districts?${MINE}`).expect(200));
    expect(await countStatements(t.db, () => summary(q).expect(200))).toBe(list);
    expect(list).toBe(2);
  });

  it("gives GraphQL the same answer as REST", async () => {
    const rest = await summary(`${MINE}&group_by=state,district_type&aggregates=${AGGREGATES}&year=2023`).expect(200);
    const gql = await t.graphql(
      `query($a: [String!]) { districtAggregates(filter: { search: "aggfix" }, groupBy: [state, district_type], aggregates: $a, year: "2023") {
         data { group count values } } }`,
      { a: AGGREGATES.split(",") },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.districtAggregates.data).toEqual(rest.body.data);
  });
});
