/**
 * The field dictionary check: every type, field, argument, input field and enum value of the public
 * schema takes its description from the dictionary and nowhere else (no decorator, registerEnumType or
 * scalar description), and the dictionary names nothing the schema lacks. No database.
 */
import { buildSchema, printSchema, type GraphQLObjectType, type GraphQLScalarType } from "graphql";
import { FIELD_DICTIONARY, TYPE, dictionaryProblems } from "../../src/graphql/dictionary";
import { applyDictionary, mergeDictionaries } from "../../src/graphql/dictionary/dictionary";
import { getSchema, printSchemaSdl } from "../../src/graphql/schema";

describe("the public schema's descriptions", () => {
  const problems = dictionaryProblems(getSchema(), FIELD_DICTIONARY);

  it("describes every type, field, argument, input field and enum value", () => {
    const report = problems.missing.length
      ? `${problems.missing.length} elements have no dictionary entry; add them to src/graphql/dictionary/:\n  ${problems.missing.join("\n  ")}`
      : "";
    expect(report).toBe("");
  });

  it("has no dictionary entry for a member the schema lacks", () => {
    expect(problems.unknown).toEqual([]);
  });

  it("takes no description from anywhere but the dictionary (decorators, registerEnumType, scalars)", () => {
    const report = problems.foreign.length
      ? `${problems.foreign.length} elements are described outside the dictionary; move the text to src/graphql/dictionary/:\n  ${problems.foreign.join("\n  ")}`
      : "";
    expect(report).toBe("");
  });

  it("serves exactly the dictionary's text on every element", () => {
    const schema = getSchema();
    const district = schema.getType("District") as GraphQLObjectType;
    expect(district.getFields().contacts.args.find((a) => a.name === "limit")?.description).toBe(
      FIELD_DICTIONARY.District["contacts(limit)"],
    );
    expect((schema.getType("UUID") as GraphQLScalarType).description).toBe(FIELD_DICTIONARY.UUID[TYPE]);
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

  it("lists each element without a dictionary entry by path, a blank entry included", () => {
    const schema = buildSchema(sdl);
    const dictionary = { Query: { [TYPE]: "Reads.", a: "An a.", "a(x)": " " }, Color: { [TYPE]: "A color.", RED: "Red." } };
    applyDictionary(schema, dictionary);
    expect(dictionaryProblems(schema, dictionary).missing).toEqual(["Query.a(x)", "Query.b", "Color.GREEN"]);
  });

  it("writes the dictionary's text over any other, and reports foreign descriptions and unknown entries", () => {
    const schema = buildSchema(sdl);
    const dictionary = {
      Query: { [TYPE]: "Reads.", a: "An a.", "a(x)": "An x.", b: "The color.", c: "No such field." },
      Color: { [TYPE]: "A color.", RED: "Red.", GREEN: "Green." },
    };
    applyDictionary(schema, dictionary);
    expect(schema.getQueryType()?.getFields().a.description).toBe("An a.");
    expect(printSchema(schema)).toContain('"""An x."""');
    expect(printSchema(schema)).not.toContain("Described by its decorator.");
    // The SDL's own "A thing." and "Described by its decorator." stand for decorator descriptions.
    expect(dictionaryProblems(schema, dictionary)).toEqual({ missing: [], unknown: ["Query.c"], foreign: ["Query", "Query.a"] });
  });

  it("reports a description set outside the dictionary after it was applied", () => {
    const schema = buildSchema("type Query { a: Int }");
    const dictionary = { Query: { [TYPE]: "Reads.", a: "An a." } };
    applyDictionary(schema, dictionary);
    expect(dictionaryProblems(schema, dictionary).foreign).toEqual([]);
    schema.getQueryType()!.getFields().a.description = "Written later.";
    expect(dictionaryProblems(schema, dictionary).foreign).toEqual(["Query.a"]);
  });

  it("counts every description of a schema never passed through the dictionary as foreign when it differs", () => {
    const schema = buildSchema(sdl);
    expect(dictionaryProblems(schema, { Query: { [TYPE]: "A thing." } }).foreign).toEqual(["Query.a"]);
  });

  it("refuses the same key in two area dictionaries", () => {
    expect(() => mergeDictionaries({ District: { name: "one" } }, { District: { name: "two" } })).toThrow(
      /District name is described twice/,
    );
  });
});
