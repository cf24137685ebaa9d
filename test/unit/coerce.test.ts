import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  getOperationAST,
  parse,
} from "graphql";
import { coerceParameters, coerceString, operationVariables, ParameterError } from "../../rest-adapter/coerce";
import { DateScalar, UUIDScalar } from "../../src/graphql/scalars";

const Color = new GraphQLEnumType({ name: "Color", values: { red: {}, dark_green: {} } });
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: "Query",
    fields: { ok: { type: GraphQLBoolean, args: { i: { type: GraphQLInt }, f: { type: GraphQLFloat }, s: { type: GraphQLString } } } },
  }),
  types: [Color, UUIDScalar, DateScalar],
});
const variables = operationVariables(
  schema,
  getOperationAST(
    parse(
      `query($limit: Int, $minRatio: Float, $ids: [UUID!], $color: Color!, $grantEndAfter: Date, $search: String, $offset: Int) { ok }`,
    ),
  )!,
);
const UUID = "0f8fad5b-d9cb-469f-a165-70867728950e";

describe("REST string parameters -> GraphQL variables (rest-adapter/coerce.ts)", () => {
  it("reads the variable types of the operation", () => {
    expect([...variables.keys()]).toEqual(["limit", "minRatio", "ids", "color", "grantEndAfter", "search", "offset"]);
    expect(String(variables.get("ids")!.type)).toBe("[UUID!]");
    expect(String(variables.get("color")!.type)).toBe("Color!");
  });

  it("integers: digits only, 32-bit", () => {
    expect(coerceString("limit", "200", GraphQLInt)).toBe(200);
    expect(coerceString("limit", "-3", GraphQLInt)).toBe(-3);
    expect(coerceString("limit", " 7 ", GraphQLInt)).toBe(7);
    expect(coerceString("limit", "2147483647", GraphQLInt)).toBe(2147483647);
    for (const raw of ["1.5", "1e3", "", "ten", "0x10", "2147483648", "99999999999999999999"]) {
      expect(() => coerceString("limit", raw, GraphQLInt)).toThrow(
        new ParameterError(`limit must be an integer from -2147483648 to 2147483647; got "${raw}"`),
      );
    }
  });

  it("floats: any finite number, not an empty string", () => {
    expect(coerceString("min_ratio", "12.5", GraphQLFloat)).toBe(12.5);
    expect(coerceString("min_ratio", "1e3", GraphQLFloat)).toBe(1000);
    expect(coerceString("min_ratio", "-0.25", GraphQLFloat)).toBe(-0.25);
    for (const raw of ["", " ", "abc", "Infinity", "NaN"]) {
      expect(() => coerceString("min_ratio", raw, GraphQLFloat)).toThrow(
        new ParameterError(`min_ratio must be a finite number; got "${raw}"`),
      );
    }
  });

  it("booleans: exactly true or false", () => {
    expect(coerceString("has_open", "true", GraphQLBoolean)).toBe(true);
    expect(coerceString("has_open", "false", GraphQLBoolean)).toBe(false);
    for (const raw of ["TRUE", "1", "yes", ""]) {
      expect(() => coerceString("has_open", raw, GraphQLBoolean)).toThrow(`has_open must be true or false; got "${raw}"`);
    }
  });

  it("strings and ids pass through untouched, except NUL", () => {
    expect(coerceString("search", "  Omaha, NE  ", GraphQLString)).toBe("  Omaha, NE  ");
    expect(coerceString("key", "abc", GraphQLID)).toBe("abc");
    expect(() => coerceString("search", "a\u0000b", GraphQLString)).toThrow("search must not contain NUL characters");
  });

  it("enums: one of the declared values, case-sensitive", () => {
    expect(coerceString("color", "dark_green", new GraphQLNonNull(Color))).toBe("dark_green");
    expect(() => coerceString("color", "Red", Color)).toThrow('color must be one of red, dark_green; got "Red"');
  });

  it("lists: comma-separated, trimmed, empty items dropped, each item coerced by its type", () => {
    expect(coerceString("ids", ` ${UUID.toUpperCase()} ,, ${UUID}`, variables.get("ids")!.type)).toEqual([UUID, UUID]);
    expect(coerceString("state", "NE,IA", new GraphQLList(GraphQLString))).toEqual(["NE", "IA"]);
    expect(coerceString("limits", "1, 2", new GraphQLNonNull(new GraphQLList(GraphQLInt)))).toEqual([1, 2]);
    expect(() => coerceString("state", " , ", new GraphQLList(GraphQLString))).toThrow("state must be a non-empty comma-separated list");
    expect(() => coerceString("limits", "1,x", new GraphQLList(GraphQLInt))).toThrow(
      'limits must be an integer from -2147483648 to 2147483647; got "x"',
    );
  });

  it("custom scalars parse with their own rules; the error names the parameter in REST words, the value clipped", () => {
    expect(coerceString("grant_end_after", "2024-06-30", DateScalar)).toBe("2024-06-30");
    expect(() => coerceString("grant_end_after", "30/06/2024", DateScalar)).toThrow(
      'grant_end_after must be a date YYYY-MM-DD; got "30/06/2024"',
    );
    // Days JavaScript's Date.parse accepts (rolling over) and PostgreSQL's date refuses (issue 26: a 500 before).
    for (const day of ["2026-02-31", "2025-02-29", "2026-04-31", "0000-01-01", "2026-13-01", "2026-00-10", "2026-01-00"])
      expect(() => coerceString("grant_end_after", day, DateScalar)).toThrow(`grant_end_after must be a date YYYY-MM-DD; got "${day}"`);
    for (const day of ["2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31"])
      expect(coerceString("grant_end_after", day, DateScalar)).toBe(day);
    expect(() => coerceString("id", "not-a-uuid", UUIDScalar)).toThrow(new ParameterError('id must be a UUID; got "not-a-uuid"'));
    expect(() => coerceString("id", "x".repeat(100), UUIDScalar)).toThrow(
      new ParameterError(`id must be a UUID; got "${"x".repeat(79)}… (102 characters)`),
    );
  });

  it("maps snake_case parameters onto camelCase variables", () => {
    expect(coerceParameters({ limit: "5", min_ratio: "0.5", color: "red", grant_end_after: "2025-01-01" }, variables, new Set())).toEqual({
      limit: 5,
      minRatio: 0.5,
      color: "red",
      grantEndAfter: "2025-01-01",
    });
    expect(coerceParameters({}, variables, new Set())).toEqual({});
  });

  it("refuses unknown and reserved parameters, naming the allowed ones in snake_case", () => {
    expect(() => coerceParameters({ colour: "red", limit: "1" }, variables, new Set(["offset"]))).toThrow(
      new ParameterError("unknown parameter colour; allowed: limit, min_ratio, ids, color, grant_end_after, search"),
    );
    expect(() => coerceParameters({ offset: "1", search: "x" }, variables, new Set(["offset"]))).toThrow(
      "unknown parameter offset; allowed: limit, min_ratio, ids, color, grant_end_after, search",
    );
    expect(() => coerceParameters({ colour: "red", shade: "dark" }, variables, new Set())).toThrow(
      /^unknown parameters colour, shade; allowed: /,
    );
  });

  it("refuses the camelCase spelling of a parameter: REST names are snake_case only", () => {
    expect(() => coerceParameters({ minRatio: "0.5" }, variables, new Set())).toThrow(
      new ParameterError("unknown parameter minRatio; allowed: limit, min_ratio, ids, color, grant_end_after, search, offset"),
    );
  });

  it("refuses a parameter given twice or not as a string", () => {
    expect(() => coerceParameters({ limit: ["1", "2"] }, variables, new Set())).toThrow("limit must be given once");
    expect(() => coerceParameters({ limit: 5 }, variables, new Set())).toThrow("limit must be a string");
  });
});

describe("a list's filter variable stands for its fields (restParameters, src/features/kits/common/define-list.ts)", () => {
  const Filter = new GraphQLInputObjectType({
    name: "ThingFilter",
    extensions: { restParameters: true },
    fields: {
      state: { type: GraphQLString },
      minCount: { type: GraphQLInt },
      ids: { type: new GraphQLList(new GraphQLNonNull(UUIDScalar)) },
    },
  });
  const listSchema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: { things: { type: GraphQLBoolean, args: { filter: { type: Filter } } } } }),
  });
  const listVariables = operationVariables(
    listSchema,
    getOperationAST(parse(`query($filter: ThingFilter, $limit: Int) { things(filter: $filter) }`))!,
  );

  it("expands the filter into one parameter per field, in field order, each gathered back into $filter", () => {
    expect([...listVariables.keys()]).toEqual(["state", "minCount", "ids", "limit"]);
    expect(listVariables.get("minCount")).toMatchObject({ parent: "filter", field: Filter.getFields().minCount });
    expect(coerceParameters({ state: "NE", min_count: "3", ids: UUID, limit: "5" }, listVariables, new Set())).toEqual({
      filter: { state: "NE", minCount: 3, ids: [UUID] },
      limit: 5,
    });
    expect(coerceParameters({ limit: "5" }, listVariables, new Set())).toEqual({ limit: 5 });
  });

  it("names the field's parameter in its 400s, and lists the fields among the allowed parameters", () => {
    expect(() => coerceParameters({ min_count: "many" }, listVariables, new Set())).toThrow(
      new ParameterError('min_count must be an integer from -2147483648 to 2147483647; got "many"'),
    );
    expect(() => coerceParameters({ filter: "x" }, listVariables, new Set())).toThrow(
      new ParameterError("unknown parameter filter; allowed: state, min_count, ids, limit"),
    );
  });
});
