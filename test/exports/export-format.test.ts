/** The export's pure parts: Accept negotiation and CSV cells (rest-adapter/export.ts, docs/exports.md). */
import { csvCell, negotiate } from "../../rest-adapter/export";

describe("Accept negotiation", () => {
  const lists = ["json", "csv", "ndjson"] as const;
  it.each([
    [undefined, "json"],
    ["", "json"],
    ["*/*", "json"],
    ["application/*", "json"],
    ["text/csv", "csv"],
    ["text/*", "csv"],
    ["application/x-ndjson", "ndjson"],
    ["text/csv;q=0.5, */*;q=0.1", "csv"],
    ["text/csv;q=0.5, application/json;q=0.9", "json"],
    ["application/x-ndjson, */*", "ndjson"], // equal q: the more specific range
    ["text/csv;q=0, */*", "json"],
    ["application/xml", null],
    ["text/html, application/xml;q=0.9", null],
  ])("%j -> %j", (accept, format) => {
    expect(negotiate(accept, [...lists])).toBe(format);
  });
  it("a route answering JSON only refuses CSV and takes */*", () => {
    expect(negotiate("text/csv", ["json"])).toBeNull();
    expect(negotiate("text/csv, */*;q=0.1", ["json"])).toBe("json");
  });
});

describe("CSV cells", () => {
  it.each([
    [null, ""],
    [undefined, ""],
    ["plain", "plain"],
    [3.5, "3.5"],
    [-2, "-2"], // a number is never a formula
    [true, "true"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["=SUM(A1:A2)", "'=SUM(A1:A2)"],
    ["+1 555", "'+1 555"],
    ["-x", "'-x"],
    ["@cmd", "'@cmd"],
    ["\tx", "'\tx"],
    ['=HYPERLINK("u","x")', `"'=HYPERLINK(""u"",""x"")"`],
    [["KG", "01", null], "KG;01;"],
    [[{ a: 1 }], '"[{""a"":1}]"'],
    [{ a: "b" }, '"{""a"":""b""}"'],
  ])("%j -> %s", (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});
