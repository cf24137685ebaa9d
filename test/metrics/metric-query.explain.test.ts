/**
 * The compiled metric query reads annual rows through the (entity_id, school_year_start) indexes, not by
 * scanning the annual tables. Plans come from the real planner on a few thousand generated rows after
 * ANALYZE; no planner settings are changed.
 */
import { SqlParams } from "../../src/db/sql";
import { compileMetricQuery, parseMetricQuery } from "../../src/features/catalogue/metrics/metric-query";
import type { MetricEntity } from "../../src/features/catalogue/metrics/metrics.catalog";
import { createTestDb, type TestDb } from "../support/db";

const ENTITIES = 1000;
const YEARS = [2018, 2023] as const; // 6 years => 6,000 annual rows per entity kind

let db: TestDb;

beforeAll(async () => {
  db = await createTestDb();
  await db.exec(`
    INSERT INTO districts (fed_id, name, state, data_source)
      SELECT lpad(g::text, 7, '0'), 'District ' || g, CASE WHEN g % 3 = 0 THEN 'TN' ELSE 'NE' END, 'test'
        FROM generate_series(1, ${ENTITIES}) g;
    INSERT INTO district_annual_stats (district_id, school_year_start, total_enrollment, school_age_poverty_pct, total_revenue)
      SELECT d.id, y, 500 + abs(hashtext(d.fed_id || y)) % 400, 5 + abs(hashtext(d.fed_id || y || 'p')) % 30,
             CASE WHEN y < 2023 THEN 1e6 + abs(hashtext(d.fed_id || y || 'r')) % 1000000 END
        FROM districts d CROSS JOIN generate_series(${YEARS[0]}, ${YEARS[1]}) y;
    INSERT INTO schools (fed_id, name, state, data_source, district_id)
      SELECT 's' || d.fed_id, 'School of ' || d.name, d.state, 'test', d.id FROM districts d;
    INSERT INTO school_annual_stats (school_id, school_year_start, total_enrollment, free_or_reduced_price_lunch_pct)
      SELECT s.id, y, 100 + abs(hashtext(s.fed_id || y)) % 400, abs(hashtext(s.fed_id || y || 'f')) % 100
        FROM schools s CROSS JOIN generate_series(${YEARS[0]}, ${YEARS[1]}) y;
    ANALYZE districts; ANALYZE district_annual_stats; ANALYZE schools; ANALYZE school_annual_stats;`);
});
afterAll(async () => {
  await db?.close();
});

/** The text plan of a list query the way the list services build it, with a metric query compiled into it. */
async function explain(entity: MetricEntity, metricQuery: unknown): Promise<string> {
  const params = new SqlParams();
  const state = params.add("TN");
  const compiled = compileMetricQuery(entity, parseMetricQuery(entity, JSON.stringify(metricQuery)), params, "e");
  const sql = `SELECT e.*${compiled.selects.map((s) => `, ${s.sql} AS ${s.column}`).join("")}
    FROM ${entity === "district" ? "districts" : "schools"} e
    WHERE ${[`e.state = ${state}`, ...compiled.where].join(" AND ")}
    ORDER BY ${compiled.orderBy ?? "e.name"}, e.id LIMIT 50`;
  const rows = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params.values);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

const CHANGE = { from: 2019, to: 2023, kind: "percent" };

describe("EXPLAIN of compiled metric queries", () => {
  it("district: latest, exact year and change all use the (district_id, school_year_start) indexes", async () => {
    const plan = await explain("district", {
      select: [
        { metric: "total_enrollment", as: "enrollment" },
        { metric: "total_enrollment", change: CHANGE, as: "enrollment_change" },
      ],
      filters: [
        { metric: "school_age_poverty_pct", year: 2023, op: "gte", value: 20 },
        { metric: "total_revenue", op: "not_null" },
      ],
      sort: { metric: "total_enrollment", change: CHANGE, direction: "asc" },
    });
    // "latest" is a backward scan of the unique (district_id, school_year_start) index.
    expect(plan).toMatch(
      /Index (Only )?Scan( Backward)? using district_annual_stats_district_id_school_year_start_key on district_annual_stats/,
    );
    expect(plan).not.toMatch(/Seq Scan on district_annual_stats/);
    // Every read of the annual table is an index lookup (exact years may use either composite index,
    // both have district_id and school_year_start as equality keys).
    const annualReads = plan.split("\n").filter((line) => / on district_annual_stats /.test(line));
    expect(annualReads.length).toBeGreaterThanOrEqual(4);
    for (const line of annualReads) expect(line).toMatch(/(Index|Index Only|Bitmap Index) Scan/);
  });

  it("district: an exact-year-only query reads annual rows by index too", async () => {
    const plan = await explain("district", { filters: [{ metric: "total_enrollment", year: 2021, op: "between", value: [600, 700] }] });
    expect(plan).toMatch(/Index (Only )?Scan using district_annual_stats_\w+ on district_annual_stats/);
    expect(plan).not.toMatch(/Seq Scan on district_annual_stats/);
  });

  it("school: latest and change use the (school_id, school_year_start) indexes", async () => {
    const plan = await explain("school", {
      select: [{ metric: "free_or_reduced_price_lunch_pct", as: "frl" }],
      filters: [{ metric: "total_enrollment", change: CHANGE, op: "lt", value: 0 }],
      sort: { metric: "free_or_reduced_price_lunch_pct", direction: "desc" },
    });
    expect(plan).toMatch(/Index (Only )?Scan( Backward)? using school_annual_stats_school_id_school_year_start_key on school_annual_stats/);
    expect(plan).not.toMatch(/Seq Scan on school_annual_stats/);
  });
});
