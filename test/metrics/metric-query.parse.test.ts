import { BadRequestError } from "../../src/graphql/errors";
import { METRIC_QUERY_MAX_LENGTH, parseMetricQuery } from "../../src/features/catalogue/metrics/metric-query";
import type { MetricEntity } from "../../src/features/catalogue/metrics/metrics.catalog";

/** The BadRequestError message that parsing `raw` (a string, or a value to JSON-encode) throws. */
function rejection(raw: unknown, entity: MetricEntity = "district"): string {
  try {
    parseMetricQuery(entity, typeof raw === "string" ? raw : JSON.stringify(raw));
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe("BAD_USER_INPUT");
    const message = (error as Error).message;
    expect(message.startsWith("metric_query: ")).toBe(true);
    return message;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be rejected`);
}

const CHANGE = { from: 2019, to: 2023, kind: "percent" };

describe("parseMetricQuery: accepted queries", () => {
  it("parses the contract's example", () => {
    const query = parseMetricQuery(
      "district",
      JSON.stringify({
        select: [
          { metric: "total_enrollment", year: "latest", as: "enrollment" },
          { metric: "total_enrollment", change: CHANGE, as: "enrollment_change" },
        ],
        filters: [
          { metric: "school_age_poverty_pct", op: "gte", value: 20 },
          { metric: "total_enrollment", change: { from: 2019, to: 2023, kind: "absolute" }, op: "lt", value: 0 },
        ],
        sort: { metric: "total_enrollment", change: CHANGE, direction: "asc" },
      }),
    );
    expect(query).toEqual({
      select: [
        { metric: "total_enrollment", point: { at: "latest" }, as: "enrollment" },
        { metric: "total_enrollment", point: { at: "change", from: 2019, to: 2023, kind: "percent" }, as: "enrollment_change" },
      ],
      filters: [
        { metric: "school_age_poverty_pct", point: { at: "latest" }, op: "gte", value: 20 },
        { metric: "total_enrollment", point: { at: "change", from: 2019, to: 2023, kind: "absolute" }, op: "lt", value: 0 },
      ],
      sort: { metric: "total_enrollment", point: { at: "change", from: 2019, to: 2023, kind: "percent" }, direction: "asc" },
    });
  });

  it("defaults: as = metric name, year = latest, sort direction asc, missing parts empty", () => {
    expect(parseMetricQuery("district", "{}")).toEqual({ select: [], filters: [], sort: null });
    const query = parseMetricQuery(
      "school",
      JSON.stringify({ select: [{ metric: "free_or_reduced_price_lunch_pct", year: 2022 }], sort: { metric: "math_proficiency_pct" } }),
    );
    expect(query.select).toEqual([
      { metric: "free_or_reduced_price_lunch_pct", point: { at: "year", year: 2022 }, as: "free_or_reduced_price_lunch_pct" },
    ]);
    expect(query.sort).toEqual({ metric: "math_proficiency_pct", point: { at: "latest" }, direction: "asc" });
  });

  it("accepts between, is_null and not_null in their own shapes", () => {
    const query = parseMetricQuery(
      "district",
      JSON.stringify({
        filters: [
          { metric: "total_revenue", op: "between", value: [1, 2.5] },
          { metric: "ela_proficiency_pct", op: "is_null" },
          { metric: "title_i_revenue", year: 2021, op: "not_null" },
        ],
      }),
    );
    expect(query.filters.map((f) => f.op)).toEqual(["between", "is_null", "not_null"]);
  });

  it("accepts exactly 16,000 characters", () => {
    const body = JSON.stringify({ select: [{ metric: "total_enrollment" }] });
    const raw = body + " ".repeat(METRIC_QUERY_MAX_LENGTH - body.length);
    expect(raw).toHaveLength(16_000);
    expect(parseMetricQuery("district", raw).select).toHaveLength(1);
  });
});

describe("parseMetricQuery: every grammar rule is a 400 naming the problem", () => {
  it("rejects over 16,000 characters", () => {
    const body = JSON.stringify({ select: [{ metric: "total_enrollment" }] });
    expect(rejection(body + " ".repeat(METRIC_QUERY_MAX_LENGTH + 1 - body.length))).toBe(
      "metric_query: is 16001 characters long; at most 16000 are allowed",
    );
  });

  it("rejects invalid JSON", () => {
    expect(rejection('{"select": [')).toMatch(/^metric_query: is not valid JSON \(/);
    expect(rejection("")).toMatch(/^metric_query: is not valid JSON/);
  });

  it("rejects JSON that is not an object", () => {
    expect(rejection("[]")).toBe('metric_query: must be a JSON object with "select", "filters" and/or "sort", got an array');
    expect(rejection("null")).toMatch(/got null$/);
    expect(rejection('"total_enrollment"')).toMatch(/got string "total_enrollment"$/);
    expect(rejection("42")).toMatch(/got number 42$/);
  });

  it("rejects unknown keys at every level", () => {
    expect(rejection({ selects: [] })).toBe('metric_query: the query has unknown key "selects"; allowed: select, filters, sort');
    expect(rejection({ select: [{ metric: "total_enrollment", alias: "x" }] })).toBe(
      'metric_query: select[0] has unknown key "alias"; allowed: metric, year, change, as',
    );
    expect(rejection({ filters: [{ metric: "total_enrollment", op: "gt", value: 1, years: 2 }] })).toMatch(
      /filters\[0\] has unknown key "years"/,
    );
    expect(rejection({ sort: { metric: "total_enrollment", order: "asc" } })).toMatch(/sort has unknown key "order"/);
    expect(rejection({ select: [{ metric: "total_enrollment", change: { ...CHANGE, by: 1 } }] })).toMatch(
      /select\[0\]\.change has unknown key "by"/,
    );
  });

  it("rejects an unknown metric and says where the allowed ones are", () => {
    expect(rejection({ select: [{ metric: "enrollment" }] })).toBe(
      'metric_query: select[0].metric "enrollment" is not a district metric; GET /metrics?entity_type=district lists the allowed metrics',
    );
    expect(
      rejection({
        filters: [
          { metric: "total_enrollment", op: "gt", value: 1 },
          { metric: "nope", op: "gt", value: 1 },
        ],
      }),
    ).toMatch(/^metric_query: filters\[1\]\.metric "nope" is not a district metric/);
    expect(rejection({ sort: { metric: "id" } })).toMatch(/^metric_query: sort\.metric "id" is not a district metric/);
    expect(rejection({ select: [{}] })).toBe("metric_query: select[0].metric is required");
    expect(rejection({ select: [{ metric: 7 }] })).toBe("metric_query: select[0].metric must be a string, got number 7");
  });

  it("keeps the allowlists per entity", () => {
    expect(rejection({ select: [{ metric: "total_revenue" }] }, "school")).toMatch(
      /"total_revenue" is not a school metric; GET \/metrics\?entity_type=school/,
    );
    expect(rejection({ select: [{ metric: "free_lunch_eligible" }] }, "district")).toMatch(
      /"free_lunch_eligible" is not a district metric/,
    );
    // The year key and string columns of the annual rows are not metrics.
    expect(rejection({ select: [{ metric: "school_year_start" }] })).toMatch(/is not a district metric/);
    expect(rejection({ select: [{ metric: "enrollment_status" }] })).toMatch(/is not a district metric/);
  });

  it("rejects a missing or malformed change endpoint", () => {
    expect(rejection({ select: [{ metric: "total_enrollment", change: { to: 2023, kind: "absolute" } }] })).toBe(
      "metric_query: select[0].change.from is required (a school_year_start integer)",
    );
    expect(rejection({ filters: [{ metric: "total_enrollment", change: { from: 2019, kind: "absolute" }, op: "lt", value: 0 }] })).toBe(
      "metric_query: filters[0].change.to is required (a school_year_start integer)",
    );
    expect(rejection({ sort: { metric: "total_enrollment", change: { from: "2019", to: 2023, kind: "percent" } } })).toBe(
      'metric_query: sort.change.from must be an integer school year, got string "2019"',
    );
    expect(rejection({ select: [{ metric: "total_enrollment", change: { from: 2019.5, to: 2023, kind: "percent" } }] })).toMatch(
      /change\.from must be an integer school year/,
    );
    expect(rejection({ select: [{ metric: "total_enrollment", change: { from: 2019, to: 2023 } }] })).toBe(
      "metric_query: select[0].change.kind is required (one of absolute, percent)",
    );
    expect(rejection({ select: [{ metric: "total_enrollment", change: { from: 2019, to: 2023, kind: "ratio" } }] })).toBe(
      'metric_query: select[0].change.kind "ratio" is not one of absolute, percent',
    );
    expect(rejection({ select: [{ metric: "total_enrollment", change: [2019, 2023] }] })).toBe(
      "metric_query: select[0].change must be an object, got an array",
    );
  });

  it("rejects bad years and year together with change", () => {
    expect(rejection({ select: [{ metric: "total_enrollment", year: "2019" }] })).toBe(
      'metric_query: select[0].year "2019" must be "latest" or an integer school year',
    );
    expect(rejection({ select: [{ metric: "total_enrollment", year: 2019.5 }] })).toMatch(
      /select\[0\]\.year must be an integer school year/,
    );
    expect(rejection({ select: [{ metric: "total_enrollment", year: null }] })).toMatch(
      /select\[0\]\.year must be an integer school year, got null/,
    );
    expect(rejection({ select: [{ metric: "total_enrollment", year: 99999999999 }] })).toMatch(/is not a four-digit school year/);
    expect(rejection({ select: [{ metric: "total_enrollment", year: 2019, change: CHANGE }] })).toBe(
      'metric_query: select[0] has both "year" and "change"; give one of them',
    );
  });

  it("rejects an unknown, missing or misplaced op and bad values", () => {
    expect(
      rejection({
        filters: [
          { metric: "total_enrollment", op: "gt", value: 1 },
          { metric: "total_enrollment", op: "gtx", value: 1 },
        ],
      }),
    ).toBe('metric_query: filters[1].op "gtx" is not one of eq, neq, gt, gte, lt, lte, between, is_null, not_null');
    expect(rejection({ filters: [{ metric: "total_enrollment", value: 1 }] })).toMatch(/filters\[0\]\.op is required \(one of eq, neq/);
    expect(rejection({ filters: [{ metric: "total_enrollment", op: "gt" }] })).toBe(
      'metric_query: filters[0].value is required for op "gt"',
    );
    expect(rejection({ filters: [{ metric: "total_enrollment", op: "gt", value: "20" }] })).toBe(
      'metric_query: filters[0].value must be a finite number, got string "20"',
    );
    expect(rejection('{"filters":[{"metric":"total_enrollment","op":"lt","value":1e999}]}')).toMatch(
      /filters\[0\]\.value must be a finite number/,
    );
    expect(rejection({ filters: [{ metric: "total_enrollment", op: "is_null", value: 0 }] })).toBe(
      'metric_query: filters[0].value is not allowed with op "is_null"',
    );
    expect(rejection({ filters: [{ metric: "total_enrollment", op: "between", value: [1] }] })).toMatch(
      /filters\[0\]\.value must be \[lo, hi\]/,
    );
    expect(rejection({ filters: [{ metric: "total_enrollment", op: "between", value: 5 }] })).toMatch(
      /filters\[0\]\.value must be \[lo, hi\]/,
    );
    expect(rejection({ filters: [{ metric: "total_enrollment", op: "between", value: [1, "2"] }] })).toMatch(
      /filters\[0\]\.value\[1\] must be a finite number/,
    );
    expect(rejection({ filters: [{ metric: "total_enrollment", op: "between", value: [5, 1] }] })).toMatch(/has lo greater than hi/);
    expect(rejection({ filters: { metric: "total_enrollment" } })).toBe("metric_query: filters must be an array, got an object");
    expect(rejection({ filters: ["total_enrollment"] })).toMatch(/filters\[0\] must be an object, got string/);
  });

  it("rejects a bad or duplicate `as`", () => {
    expect(rejection({ select: [{ metric: "total_enrollment", as: "enrollment-2023" }] })).toMatch(
      /select\[0\]\.as "enrollment-2023" must be a simple identifier/,
    );
    expect(rejection({ select: [{ metric: "total_enrollment", as: "2023" }] })).toMatch(/must be a simple identifier/);
    expect(rejection({ select: [{ metric: "total_enrollment", as: 5 }] })).toMatch(/select\[0\]\.as 5 must be a simple identifier/);
    expect(rejection({ select: [{ metric: "total_enrollment", as: 'x" FROM pg_user --' }] })).toMatch(/must be a simple identifier/);
    expect(
      rejection({
        select: [
          { metric: "total_enrollment", as: "e" },
          { metric: "teachers_fte", as: "e" },
        ],
      }),
    ).toBe('metric_query: select[1].as "e" is already used by an earlier select item; give each item a distinct "as"');
    // The default `as` is the metric name, so the same metric twice needs an explicit `as`.
    expect(rejection({ select: [{ metric: "total_enrollment" }, { metric: "total_enrollment", year: 2019 }] })).toMatch(
      /select\[1\]\.as "total_enrollment" is already used/,
    );
  });

  it("rejects a bad sort", () => {
    expect(rejection({ sort: { metric: "total_enrollment", direction: "up" } })).toBe(
      'metric_query: sort.direction "up" is not one of asc, desc',
    );
    expect(rejection({ sort: [{ metric: "total_enrollment" }] })).toBe("metric_query: sort must be an object, got an array");
  });

  it("bounds the number of select and filter items", () => {
    const select = Array.from({ length: 51 }, (_, i) => ({ metric: "total_enrollment", as: `e${i}` }));
    expect(rejection({ select })).toBe("metric_query: select has 51 items; at most 50 are allowed");
    const filters = Array.from({ length: 51 }, () => ({ metric: "total_enrollment", op: "not_null" }));
    expect(rejection({ filters })).toBe("metric_query: filters has 51 items; at most 50 are allowed");
    expect(
      parseMetricQuery("district", JSON.stringify({ select: select.slice(0, 50), filters: filters.slice(0, 50) })).select,
    ).toHaveLength(50);
  });
});
