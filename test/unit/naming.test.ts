import { isInputObjectType, isInterfaceType, isObjectType } from "graphql";
import { camel, snake, SNAKE_CACHE_MAX, snakeCacheSize } from "../../src/graphql/naming";
import { getSchema } from "../../src/graphql/schema";

describe("the naming rule between GraphQL (camelCase) and REST (snake_case)", () => {
  it.each([
    ["id", "id"],
    ["studentCount", "student_count"],
    ["fedDataYear", "fed_data_year"],
    ["revenuePer1000", "revenue_per_1000"],
    ["f33Version", "f33_version"],
    ["ideaPartBRevenue", "idea_part_b_revenue"],
    ["vsStatePp", "vs_state_pp"],
    ["_access", "_access"],
  ])("%s <-> %s", (camelName, snakeName) => {
    expect(snake(camelName)).toBe(snakeName);
    expect(camel(snakeName)).toBe(camelName);
  });

  it("a flood of distinct client-sent names cannot grow the cache past its bound (issue 20)", () => {
    for (let i = 0; i < SNAKE_CACHE_MAX + 5_000; i++) expect(snake(`clientKey${i}X`)).toBe(`client_key_${i}_x`);
    expect(snakeCacheSize()).toBeLessThanOrEqual(SNAKE_CACHE_MAX);
  });

  it("answers the same name from its cache", () => {
    expect(snake("studentTeacherRatio")).toBe("student_teacher_ratio");
    expect(snake("studentTeacherRatio")).toBe("student_teacher_ratio");
  });

  it("round-trips every field and argument name of the schema: camel(snake(name)) === name", () => {
    const names = new Set<string>();
    for (const type of Object.values(getSchema().getTypeMap())) {
      if (type.name.startsWith("__")) continue;
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          names.add(field.name);
          for (const arg of field.args) names.add(arg.name);
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) names.add(field.name);
      }
    }
    expect(names.size).toBeGreaterThan(300);
    expect([...names].filter((name) => camel(snake(name)) !== name)).toEqual([]);
  });
});
