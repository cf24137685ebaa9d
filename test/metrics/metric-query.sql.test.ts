/**
 * Semantics of compiled metric queries on the real database (PGlite, or PostgreSQL with DATABASE_URL).
 *
 * Districts (enrollment = total_enrollment, poverty = school_age_poverty_pct):
 *   A: 2019 enr 1000 pov 20.5 | 2021 enr 950 pov 22 | 2023 enr 900 pov NULL   (latest pov is 2021's)
 *   B: 2019 enr 0    pov 10   | 2023 enr 50  pov 12                            (percent change from 0)
 *   C: 2023 enr 500  pov 30                                                    (no 2019 endpoint)
 *   D: no annual rows
 *   E: 2019 enr 200           | 2022 enr 220                                   (own latest year 2022, no 2023)
 */
import { SqlParams } from "../../src/db/sql";
import { compileMetricQuery, parseMetricQuery } from "../../src/features/catalogue/metrics/metric-query";
import { createTestDb, type TestDb } from "../support/db";
import { fedIds, insertAnnual, insertAssessment, insertDistrict, insertSchool, runMetricQuery } from "./support";

const ENR = "total_enrollment";
const POV = "school_age_poverty_pct";
const change = (kind: "absolute" | "percent", from = 2019, to = 2023) => ({ from, to, kind });

let db: TestDb;
/** Every point `latest` (or none): history gating changes nothing. */
const latestOnly = (query: unknown): boolean => !/"(year|change)"/.test(JSON.stringify(query).replace(/"year":"latest"/g, ""));
/**
 * Runs the query as a paid plan and as a free organization that follows nothing (issue 20 point 3: the
 * gated form failed on PostgreSQL when no point used the gate); a latest-only query answers the same.
 */
const run = async (query: unknown) => {
  const paid = await runMetricQuery(db, "district", query);
  const free = await runMetricQuery(db, "district", query, "free");
  if (latestOnly(query)) expect(free).toEqual(paid);
  return paid;
};
const values = async (query: unknown) => Object.fromEntries((await run(query)).map((row) => [row.fed_id, row.metric_values]));

beforeAll(async () => {
  db = await createTestDb();
  const [a, b, c, , e] = await Promise.all(["A", "B", "C", "D", "E"].map((fedId) => insertDistrict(db, fedId)));
  await insertAnnual(db, "district", a, 2019, { [ENR]: 1000, [POV]: 20.5 });
  await insertAnnual(db, "district", a, 2021, { [ENR]: 950, [POV]: 22 });
  await insertAnnual(db, "district", a, 2023, { [ENR]: 900, [POV]: null });
  await insertAnnual(db, "district", b, 2019, { [ENR]: 0, [POV]: 10 });
  await insertAnnual(db, "district", b, 2023, { [ENR]: 50, [POV]: 12 });
  await insertAnnual(db, "district", c, 2023, { [ENR]: 500, [POV]: 30 });
  await insertAnnual(db, "district", e, 2019, { [ENR]: 200 });
  await insertAnnual(db, "district", e, 2022, { [ENR]: 220 });
  // Assessments: A has two years; B two sources in 2023 (the later load wins); C's 2023 lacks ELA.
  await insertAssessment(db, "district", a, 2022, "tn_tcap", { ela: 40, math: 30 });
  await insertAssessment(db, "district", a, 2023, "tn_tcap", { ela: 45, math: 33 });
  await insertAssessment(db, "district", b, 2023, "tn_tcap", { ela: 50 }, "2026-01-01T00:00:00Z");
  await insertAssessment(db, "district", b, 2023, "tn_alt", { ela: 55 }, "2026-02-01T00:00:00Z");
  await insertAssessment(db, "district", c, 2021, "tn_tcap", { ela: 30 });
  await insertAssessment(db, "district", c, 2023, "tn_tcap", { ela: null, math: 20 });
});
afterAll(async () => {
  await db?.close();
});

describe("values", () => {
  it("latest (the default) is each record's own latest year that has the metric", async () => {
    const expected = {
      A: { enr: 900, pov: 22, enr_latest: 900 },
      B: { enr: 50, pov: 12, enr_latest: 50 },
      C: { enr: 500, pov: 30, enr_latest: 500 },
      D: { enr: null, pov: null, enr_latest: null },
      E: { enr: 220, pov: null, enr_latest: 220 },
    };
    expect(
      await values({
        select: [
          { metric: ENR, as: "enr" },
          { metric: POV, as: "pov" },
          { metric: ENR, year: "latest", as: "enr_latest" },
        ],
      }),
    ).toEqual(expected);
  });

  it("year N is the value of exactly that school year, null where the row is missing", async () => {
    expect(
      await values({
        select: [
          { metric: ENR, year: 2021, as: "y2021" },
          { metric: ENR, year: 2019, as: "y2019" },
          { metric: POV, year: 2023, as: "pov2023" },
        ],
      }),
    ).toEqual({
      A: { y2021: 950, y2019: 1000, pov2023: null },
      B: { y2021: null, y2019: 0, pov2023: 12 },
      C: { y2021: null, y2019: null, pov2023: 30 },
      D: { y2021: null, y2019: null, pov2023: null },
      E: { y2021: null, y2019: 200, pov2023: null },
    });
  });

  it("change uses exact endpoints; percent is null when from is 0 or an endpoint is missing", async () => {
    expect(
      await values({
        select: [
          { metric: ENR, change: change("absolute"), as: "abs" },
          { metric: ENR, change: change("percent"), as: "pct" },
          { metric: POV, change: change("percent"), as: "pov_pct" },
        ],
      }),
    ).toEqual({
      A: { abs: -100, pct: -10, pov_pct: null }, // A's 2023 poverty is NULL
      B: { abs: 50, pct: null, pov_pct: 20 }, // from = 0 => null percent
      C: { abs: null, pct: null, pov_pct: null }, // no 2019 row
      D: { abs: null, pct: null, pov_pct: null },
      E: { abs: null, pct: null, pov_pct: null }, // no 2023 row (its latest is 2022)
    });
  });

  it("assessment metrics: latest non-null year, the most recently loaded source within a year", async () => {
    expect(
      await values({
        select: [
          { metric: "ela_proficiency_pct", as: "ela" },
          { metric: "math_proficiency_pct", year: 2023, as: "math2023" },
          { metric: "ela_proficiency_pct", change: { from: 2022, to: 2023, kind: "absolute" }, as: "ela_change" },
          { metric: "science_proficiency_pct", as: "science" },
        ],
      }),
    ).toEqual({
      A: { ela: 45, math2023: 33, ela_change: 5, science: null },
      B: { ela: 55, math2023: null, ela_change: null, science: null },
      C: { ela: 30, math2023: 20, ela_change: null, science: null },
      D: { ela: null, math2023: null, ela_change: null, science: null },
      E: { ela: null, math2023: null, ela_change: null, science: null },
    });
  });

  it("returns integers and numbers as JSON numbers", async () => {
    const [a] = await run({
      select: [
        { metric: ENR, as: "enr" },
        { metric: POV, year: 2019, as: "pov" },
        { metric: ENR, change: change("percent"), as: "pct" },
      ],
    });
    expect(a.metric_values).toEqual({ enr: 900, pov: 20.5, pct: -10 });
    for (const value of Object.values(a.metric_values)) expect(typeof value).toBe("number");
  });
});

describe("filters", () => {
  it("compare with every operator; a null value fails them all", async () => {
    expect(fedIds(await run({ filters: [{ metric: ENR, op: "eq", value: 900 }] }))).toEqual(["A"]);
    expect(fedIds(await run({ filters: [{ metric: ENR, op: "neq", value: 900 }] }))).toEqual(["B", "C", "E"]); // not D (null)
    expect(fedIds(await run({ filters: [{ metric: ENR, op: "gt", value: 220 }] }))).toEqual(["A", "C"]);
    expect(fedIds(await run({ filters: [{ metric: ENR, op: "gte", value: 220 }] }))).toEqual(["A", "C", "E"]);
    expect(fedIds(await run({ filters: [{ metric: ENR, op: "lt", value: 220 }] }))).toEqual(["B"]);
    expect(fedIds(await run({ filters: [{ metric: ENR, op: "lte", value: 220 }] }))).toEqual(["B", "E"]);
  });

  it("accept a fractional bound on an integer metric", async () => {
    expect(fedIds(await run({ filters: [{ metric: ENR, op: "gt", value: 899.5 }] }))).toEqual(["A"]);
    expect(fedIds(await run({ filters: [{ metric: ENR, year: 2019, op: "lt", value: 0.5 }] }))).toEqual(["B"]);
  });

  it("between is inclusive and excludes nulls", async () => {
    expect(fedIds(await run({ filters: [{ metric: POV, op: "between", value: [12, 22] }] }))).toEqual(["A", "B"]);
    expect(fedIds(await run({ filters: [{ metric: ENR, change: change("absolute"), op: "between", value: [-100, 0] }] }))).toEqual(["A"]);
  });

  it("is_null and not_null split the records, missing rows counting as null", async () => {
    expect(fedIds(await run({ filters: [{ metric: POV, op: "is_null" }] }))).toEqual(["D", "E"]);
    expect(fedIds(await run({ filters: [{ metric: POV, op: "not_null" }] }))).toEqual(["A", "B", "C"]);
    expect(fedIds(await run({ filters: [{ metric: ENR, change: change("percent"), op: "is_null" }] }))).toEqual(["B", "C", "D", "E"]);
  });

  it("a change endpoint year no record has: every value null, failing every comparison", async () => {
    const never = change("absolute", 2019, 2031);
    expect(await values({ select: [{ metric: ENR, change: never, as: "c" }] })).toEqual({
      A: { c: null },
      B: { c: null },
      C: { c: null },
      D: { c: null },
      E: { c: null },
    });
    for (const op of ["eq", "neq", "gt", "gte", "lt", "lte"]) {
      expect(fedIds(await run({ filters: [{ metric: ENR, change: never, op, value: 0 }] }))).toEqual([]);
    }
    expect(fedIds(await run({ filters: [{ metric: ENR, change: never, op: "between", value: [-1e12, 1e12] }] }))).toEqual([]);
    expect(fedIds(await run({ filters: [{ metric: ENR, change: never, op: "not_null" }] }))).toEqual([]);
    expect(fedIds(await run({ filters: [{ metric: ENR, change: never, op: "is_null" }] }))).toEqual(["A", "B", "C", "D", "E"]);
    expect(fedIds(await run({ filters: [{ metric: ENR, year: 1990, op: "is_null" }] }))).toEqual(["A", "B", "C", "D", "E"]);
  });

  it("combine with AND, and with the list's own conditions", async () => {
    expect(
      fedIds(
        await run({
          filters: [
            { metric: ENR, op: "gte", value: 50 },
            { metric: POV, op: "lte", value: 22 },
          ],
        }),
      ),
    ).toEqual(["A", "B"]);
  });
});

describe("sort", () => {
  it("puts nulls last ascending and descending", async () => {
    const sorted = (direction: string) => run({ sort: { metric: ENR, change: change("absolute"), direction } });
    expect(fedIds(await sorted("asc"))).toEqual(["A", "B", "C", "D", "E"]);
    expect(fedIds(await sorted("desc"))).toEqual(["B", "A", "C", "D", "E"]);
    expect(fedIds(await run({ sort: { metric: POV, direction: "desc" } }))).toEqual(["C", "A", "B", "D", "E"]);
    expect(fedIds(await run({ sort: { metric: POV } }))).toEqual(["B", "A", "C", "D", "E"]);
  });

  it("combines with select and filters in one statement", async () => {
    const rows = await run({
      select: [{ metric: ENR, as: "enr" }],
      filters: [{ metric: ENR, op: "not_null" }],
      sort: { metric: ENR, year: 2019, direction: "desc" },
    });
    expect(rows.map((r) => [r.fed_id, r.metric_values.enr])).toEqual([
      ["A", 900],
      ["E", 220],
      ["B", 50],
      ["C", 500],
    ]);
  });
});

describe("compiled SQL", () => {
  it("carries every user value as a parameter and every identifier from the catalogue", () => {
    const params = new SqlParams();
    params.add("already there");
    const query = parseMetricQuery(
      "district",
      JSON.stringify({
        select: [{ metric: ENR, year: 2017, as: "my_alias" }],
        filters: [{ metric: POV, change: change("percent", 2011, 2013), op: "between", value: [12.345, 67.89] }],
        sort: { metric: ENR, year: 2015, direction: "desc" },
      }),
    );
    const compiled = compileMetricQuery("district", query, params, "d");
    const sql = [...compiled.selects.map((s) => s.sql), ...compiled.where, compiled.orderBy].join("\n");
    for (const literal of ["2017", "2011", "2013", "12.345", "67.89", "2015", "my_alias"]) expect(sql).not.toContain(literal);
    expect(params.values).toEqual(["already there", 2017, 2013, 2011, 12.345, 67.89, 2015]);
    expect(compiled.selects).toEqual([{ as: "my_alias", column: "__metric_0", sql: expect.stringContaining('d."id"') }]);
    expect(compiled.orderBy).toMatch(/ DESC NULLS LAST$/);
    expect(compileMetricQuery("district", { select: [], filters: [], sort: null }, params, "d")).toEqual({
      selects: [],
      where: [],
      orderBy: null,
      historyGated: false,
    });
  });

  it("uses one placeholder per distinct year, so a sort equal to a select has the same SQL text", () => {
    const params = new SqlParams();
    const window = change("percent");
    const query = parseMetricQuery(
      "district",
      JSON.stringify({
        select: [{ metric: ENR, change: window }],
        filters: [{ metric: ENR, year: 2019, op: "gt", value: 0 }],
        sort: { metric: ENR, change: window },
      }),
    );
    const compiled = compileMetricQuery("district", query, params, "d");
    expect(params.values).toEqual([2023, 2019, 0]);
    expect(compiled.orderBy).toBe(`${compiled.selects[0].sql} ASC NULLS LAST`);
  });

  it("binds a parameter only where the SQL uses it, the history gate's included (issue 20 point 3)", () => {
    const queries = [
      {},
      { select: [{ metric: ENR }] },
      { filters: [{ metric: ENR, op: "gt", value: 1 }], sort: { metric: POV, direction: "desc" } },
      { select: [{ metric: ENR, year: 2019 }] },
      { filters: [{ metric: ENR, change: change("absolute"), op: "lt", value: 0 }], sort: { metric: ENR, year: 2021 } },
    ];
    for (const query of queries) {
      const params = new SqlParams();
      let gateCalls = 0;
      const gate = () => {
        gateCalls += 1;
        return `e.id <> ${params.add("00000000-0000-4000-8000-000000000000")}::uuid`;
      };
      const compiled = compileMetricQuery("district", parseMetricQuery("district", JSON.stringify(query)), params, "e", gate);
      const sql = [...compiled.selects.map((s) => s.sql), ...compiled.where, compiled.orderBy].join("\n");
      const used = new Set([...sql.matchAll(/\$(\d+)\b/g)].map((m) => Number(m[1])));
      expect({ query, used: [...used].sort() }).toEqual({ query, used: params.values.map((_, i) => i + 1) });
      expect({ query, gateCalls, historyGated: compiled.historyGated }).toEqual({
        query,
        gateCalls: latestOnly(query) ? 0 : 1,
        historyGated: !latestOnly(query),
      });
    }
  });

  it("refuses an alias that is not a plain identifier", () => {
    expect(() => compileMetricQuery("district", { select: [], filters: [], sort: null }, new SqlParams(), "d; DROP TABLE x")).toThrow(
      /alias/,
    );
  });
});

describe("schools", () => {
  it("use the school statistics and the school's own assessments", async () => {
    const district = await insertDistrict(db, "PARENT");
    const s1 = await insertSchool(db, "S1", district);
    const s2 = await insertSchool(db, "S2", district);
    await insertAnnual(db, "school", s1, 2022, { free_or_reduced_price_lunch_pct: 40, total_enrollment: 300 });
    await insertAnnual(db, "school", s1, 2023, { free_or_reduced_price_lunch_pct: 45, total_enrollment: 330 });
    await insertAnnual(db, "school", s2, 2023, { free_or_reduced_price_lunch_pct: 70, total_enrollment: 120 });
    await insertAssessment(db, "school", s2, 2023, "tn_tcap", { math: 61 });
    // A district-level assessment of the parent must not leak into its schools.
    await insertAssessment(db, "district", district, 2023, "tn_tcap", { math: 99 });
    const rows = await runMetricQuery(db, "school", {
      select: [
        { metric: "free_or_reduced_price_lunch_pct", as: "frl" },
        { metric: "total_enrollment", change: { from: 2022, to: 2023, kind: "percent" }, as: "growth" },
        { metric: "math_proficiency_pct", as: "math" },
      ],
      filters: [{ metric: "free_or_reduced_price_lunch_pct", op: "gte", value: 45 }],
      sort: { metric: "math_proficiency_pct", direction: "desc" },
    });
    expect(rows).toEqual([
      { fed_id: "S2", metric_values: { frl: 70, growth: null, math: 61 } },
      { fed_id: "S1", metric_values: { frl: 45, growth: 10, math: null } },
    ]);
  });
});
