/**
 * The field dictionary check: every type, field, argument, input field and enum value of the public
 * schema takes its description from the dictionary and nowhere else (no decorator, registerEnumType or
 * scalar description), and the dictionary names nothing the schema lacks. No database.
 */
import { buildSchema, isObjectType, printSchema, type GraphQLObjectType, type GraphQLScalarType } from "graphql";
import { TYPE, dictionaryProblems } from "../../src/graphql/dictionary";
import { FIELD_DICTIONARY } from "../../src/graphql/features";
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

  it("says what each gated contact field is and that it is null until the contact is unlocked", () => {
    const contact = FIELD_DICTIONARY.Contact;
    for (const field of ["email", "phone", "linkedinUrl", "profileSummary", "keyFacts"]) {
      expect(contact[field]).toMatch(/null until the caller's organization unlocks this contact/);
      expect(contact[field]).toMatch(/PARENT_ENTITY_LOCKED/);
      // More than the gating note: the text starts by saying what the field holds.
      expect(contact[field]).not.toMatch(/^Gated/);
    }
    expect(FIELD_DICTIONARY.District.aiSummary).toMatch(/null until the caller's organization unlocks this district or school/);
  });

  it("states the unit and source of operator money, and the values and default of status filters", () => {
    const operator = FIELD_DICTIONARY.Operator;
    expect(operator.totalRevenue).toMatch(/USD/);
    expect(operator.totalRevenue).toMatch(/Form 990/);
    expect(operator.totalRevenue).toMatch(/IRS EO BMF .*Apr 2026/);
    expect(operator.governmentGrants).toMatch(/USD/);
    expect(FIELD_DICTIONARY.OperatorFilter.minTotalRevenue).toMatch(/USD/);
    for (const text of [FIELD_DICTIONARY.HeadStartFilter.status, FIELD_DICTIONARY.ChildcareFilter.status]) {
      expect(text).toMatch(/active \(default\)/);
      expect(text).toMatch(/all: both/);
    }
    expect(FIELD_DICTIONARY.HeadStartFilter.status).toMatch(/no_open_site/);
    expect(FIELD_DICTIONARY.ChildcareFilter.status).toMatch(/inactive/);
  });

  it("describes every limit argument as the page size with its default, maximum and the 400 out of range", () => {
    const schema = getSchema();
    const limits = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .flatMap((type) =>
        Object.values(type.getFields()).flatMap((field) =>
          field.args.filter((arg) => arg.name === "limit").map((arg) => ({ at: `${type.name}.${field.name}`, arg })),
        ),
      );
    expect(limits.length).toBeGreaterThan(10);
    for (const { at, arg } of limits) {
      expect(`${at}: ${arg.description}`).toMatch(
        new RegExp(`^${at}: Page size: .* 1 to [\\d,]+ \\(default ${String(arg.defaultValue)}\\)\\. .*400 bad_request`),
      );
    }
    expect(FIELD_DICTIONARY.Query["operators(limit)"]).toMatch(/1 to 10,000/);
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
