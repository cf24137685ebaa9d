/** src/db/sql-template.ts: values are parameters in the order they appear, fragments compose, shared values are written once. */
import { SqlParams } from "../../src/db/sql";
import { compile, sql } from "../../src/db/sql-template";

describe("sql tagged template", () => {
  it("turns every interpolated value into a parameter, never text", () => {
    const p = new SqlParams();
    const evil = "x'; DROP TABLE districts; --";
    expect(compile(sql`d.name = ${evil} AND d.student_count >= ${10}`, p)).toBe("d.name = $1 AND d.student_count >= $2");
    expect(p.values).toEqual([evil, 10]);
  });

  it("composes fragments and joins them, numbering parameters after the statement's own", () => {
    const p = new SqlParams();
    p.add("org");
    const parts = [sql`d.state = ${"NE"}`, sql`d.county = ${"Lancaster"}`];
    expect(compile(sql`(${sql.join(parts, " OR ")}) AND ${sql.raw("d.id")} IS NOT NULL`, p)).toBe(
      "(d.state = $2 OR d.county = $3) AND d.id IS NOT NULL",
    );
    expect(p.values).toEqual(["org", "NE", "Lancaster"]);
    expect(compile(sql.join([], " AND "), p)).toBe("");
  });

  it("writes a shared value once per statement, however many fragments use it", () => {
    const p = new SqlParams();
    const pattern = sql.value("%omaha%");
    expect(compile(sql`(c.name ILIKE ${pattern} OR c.title ILIKE ${pattern})`, p)).toBe("(c.name ILIKE $1 OR c.title ILIKE $1)");
    expect(compile(sql`c.email ILIKE ${pattern}`, p)).toBe("c.email ILIKE $1");
    expect(p.values).toEqual(["%omaha%"]);
    const other = new SqlParams();
    expect(compile(sql`c.name ILIKE ${pattern}`, other)).toBe("c.name ILIKE $1");
    expect(other.values).toEqual(["%omaha%"]);
  });
});
