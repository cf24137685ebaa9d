/** The ingest's field parsers (src/ingest/values.ts): codes are the tables' own entries, never inherited names. */
import { code, measure, RowError } from "../../src/ingest/values";

describe("ingest values", () => {
  it("reads special codes and numbers", () => {
    expect(measure("-1", "x")).toEqual({ value: null, status: "missing" });
    expect(measure("‡", "x")).toEqual({ value: null, status: "below_standards" });
    expect(measure("NA", "x", { codes: { NA: "missing" } })).toEqual({ value: null, status: "missing" });
    expect(measure("1,234.5", "x")).toEqual({ value: 1234.5, status: "reported" });
    expect(code("N")).toBeNull();
    expect(code("KG")).toBe("KG");
  });

  it("a field reading an Object.prototype name is a value (or a rejected row), not a code", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(() => measure(name, "x")).toThrow(RowError);
      expect(() => measure(name, "x", { codes: { NA: "missing" } })).toThrow(RowError);
      expect(code(name)).toBe(name);
    }
  });
});
