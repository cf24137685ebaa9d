/**
 * The field dictionary check: every type, field, argument, input field and enum value of the public
 * schema has a description, written once (decorator or dictionary, never both), and the dictionary
 * names nothing the schema lacks. No database.
 */
import { buildSchema, printSchema } from "graphql";
import { FIELD_DICTIONARY, TYPE, dictionaryProblems } from "../../src/graphql/dictionary";
import { applyDictionary, mergeDictionaries } from "../../src/graphql/dictionary/dictionary";
import { getSchema, printSchemaSdl } from "../../src/graphql/schema";

describe("the public schema's descriptions", () => {
  const problems = dictionaryProblems(getSchema(), FIELD_DICTIONARY);

  it("describes every type, field, argument, input field and enum value", () => {
    const report = problems.missing.length
      ? `${problems.missing.length} elements have no description; add them to src/graphql/dictionary/:\n  ${problems.missing.join("\n  ")}`
      : "";
    expect(report).toBe("");
  });

  it("has no dictionary entry for a member the schema lacks", () => {
    expect(problems.unknown).toEqual([]);
  });

  it("describes nothing twice (decorator and dictionary)", () => {
    expect(problems.conflicts).toEqual([]);
  });

  it("prints the dictionary's text in the SDL (schema.graphql)", () => {
    const sdl = printSchemaSdl();
    expect(sdl).toContain(FIELD_DICTIONARY.DistrictStatisticsEntry.schoolAgePovertyPct);
    expect(sdl).toContain(FIELD_DICTIONARY.LocaleBucket.rural);
    expect(getSchema().getType("District")?.description).toBe(FIELD_DICTIONARY.District[TYPE]);
  });

  it("states units and the school-year convention on statistics fields", () => {
    const entry = FIELD_DICTIONARY.DistrictStatisticsEntry;
    expect(entry.totalRevenue).toMatch(/USD/);
    expect(entry.totalRevenue).toMatch(/fiscal year N .* school year N-1/);
    expect(entry.teachersFte).toMatch(/FTE/);
    expect(entry.schoolAgePovertyPct).toMatch(/percent \(0-100\)/);
    expect(entry.schoolAgePopulation).toMatch(/income year Y .* school year Y/);
  });
});

describe("the check itself", () => {
  const sdl = `
    """A thing."""
    type Query {
      """Described by its decorator."""
      a(x: Int): Int
      b: Color
    }
    enum Color { RED GREEN }
  `;

  it("lists each undescribed element by path", () => {
    const schema = buildSchema(sdl);
    applyDictionary(schema, { Color: { [TYPE]: "A color.", RED: "Red." } });
    expect(dictionaryProblems(schema, {}).missing).toEqual(["Query.a(x)", "Query.b", "Color.GREEN"]);
  });

  it("fills missing descriptions, keeps existing ones, and reports conflicts and unknown entries", () => {
    const schema = buildSchema(sdl);
    const dictionary = {
      Query: { "a(x)": "An x.", b: "The color.", a: "Second definition.", c: "No such field." },
      Color: { [TYPE]: "A color.", RED: "Red.", GREEN: "Green." },
    };
    applyDictionary(schema, dictionary);
    expect(schema.getQueryType()?.getFields().a.description).toBe("Described by its decorator.");
    expect(printSchema(schema)).toContain('"""An x."""');
    expect(dictionaryProblems(schema, dictionary)).toEqual({ missing: [], unknown: ["Query.c"], conflicts: ["Query.a"] });
  });

  it("refuses the same key in two area dictionaries", () => {
    expect(() => mergeDictionaries({ District: { name: "one" } }, { District: { name: "two" } })).toThrow(
      /District name is described twice/,
    );
  });
});
