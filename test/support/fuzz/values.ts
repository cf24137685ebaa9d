/**
 * The values the fuzzer sends, independent of any route: valid, boundary and hostile strings and numbers, raw
 * JSON tokens JSON.stringify cannot write (-0, 1e999, 2^53+1 as written), and the encoders that put them on the
 * wire as they are (lone surrogates as WTF-8 bytes in a URL, malformed percent escapes left malformed).
 */
import fc from "fast-check";

/** JSON text written verbatim into a body (a number token JSON.stringify would round or refuse, a broken fragment). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A query-string or path fragment sent without encoding (a malformed percent escape must stay malformed). */
export class RawUrl {
  constructor(readonly text: string) {}
}

export const LONG = 20_000;

/** Strings that broke parsers, databases and renderers somewhere: each is valid UTF-16 text or a lone surrogate. */
export const HOSTILE_STRINGS: readonly string[] = [
  "",
  " ",
  "   ",
  "\t\n\r",
  "\u0000",
  "a\u0000b",
  "\u0000".repeat(8),
  "\u202Eevil\u202C", // right-to-left override
  "\u200F\u05E9\u05DC\u05D5\u05DD", // RTL mark + Hebrew
  "مرحبا بالعالم",
  "😀",
  "👨‍👩‍👧‍👦",
  "🏳️‍🌈",
  "e\u0301\u0301\u0301\u0301\u0301",
  "Z\u0351\u0352\u0357\u0358\u035B\u0346\u0310\u0308",
  "\uFEFFbom",
  "\uFFFF\uFFFE",
  "\ud800", // lone high surrogate
  "\udfff", // lone low surrogate
  "a\ud800b",
  "\udbff\udfff", // U+10FFFF
  "ǅ ß ﬁ İ ı",
  "'",
  '"',
  "\\",
  "' OR '1'='1",
  "'; DROP TABLE districts; --",
  "%",
  "_",
  "%_%",
  "\\%",
  "*",
  "$1",
  "${process.env}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "null",
  "undefined",
  "true",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e308",
  "-0",
  "9007199254740993",
  "0x1F",
  "[]",
  "{}",
  '{"a":1}',
  "__proto__",
  "constructor",
  "a,b,,c,",
  ",",
  ",,,",
  "latest",
  "x".repeat(201),
  "x".repeat(1001),
  "é".repeat(5000),
  "😀".repeat(3000),
];

/** Random text over all of Unicode (graphemes, any code point, ASCII), built once. */
let randomText: fc.Arbitrary<string> | undefined;
const anyText = (): fc.Arbitrary<string> =>
  (randomText ??= fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 30 }),
    // Any code point, lone surrogates included (fast-check's "binary" unit takes seconds to build).
    fc.array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 30 }).map((codes) => String.fromCodePoint(...codes)),
    fc.string({ unit: "grapheme-ascii", maxLength: 12 }),
  ));

/** Hostile strings a string parameter may well accept (no NUL, not long): what gets past validation to the database. */
const ACCEPTABLE_STRINGS = HOSTILE_STRINGS.filter((s) => !s.includes("\u0000") && s.length <= 200);

/**
 * Strings of many alphabets: plain words (`words`: values the data holds), Unicode text, the hostile strings a
 * parameter may accept; hostile: also NUL, empty and very long ones.
 */
export function anyString(words: readonly string[], hostile: boolean): fc.Arbitrary<string> {
  const plain = fc.constantFrom("NE", "IA", "TX", "a", "school", "District", "Superintendent", "2024", ...words);
  return fc.oneof(
    { arbitrary: plain, weight: 6 },
    { arbitrary: anyText(), weight: 4 },
    { arbitrary: fc.constantFrom(...(hostile ? HOSTILE_STRINGS : ACCEPTABLE_STRINGS)), weight: hostile ? 4 : 2 },
    { arbitrary: fc.constantFrom(LONG, 70_000).map((n) => "y".repeat(n)), weight: hostile ? 1 : 0 },
  );
}

/** Valid values, or (hostile) now and then one of `bad`. */
const mixed = <T>(hostile: boolean, valid: fc.Arbitrary<T>, bad: fc.Arbitrary<T>, weight = 2): fc.Arbitrary<T> =>
  hostile ? fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: bad, weight }) : valid;

/** Int parameters as text: small valid values, the int4 and 2^53 edges, and things that are not integers. */
export const INT_TEXTS = [
  "0",
  "1",
  "-1",
  "2147483647",
  "2147483648",
  "-2147483648",
  "-2147483649",
  "9007199254740993",
  "99999999999999999999",
  "1.5",
  "1e3",
  "-0",
  "0x10",
  " 7",
  "7 ",
  "+7",
  "NaN",
  "Infinity",
  "",
];
export const FLOAT_TEXTS = [
  "0",
  "-0",
  "0.5",
  "1e308",
  "-1e308",
  "1e309",
  "5e-324",
  "2.2250738585072014e-308",
  "NaN",
  "Infinity",
  "-Infinity",
  "1,5",
  ".",
];

export const intText = (hostile: boolean): fc.Arbitrary<string> =>
  mixed(
    hostile,
    fc.oneof({ arbitrary: fc.integer({ min: 0, max: 300 }).map(String), weight: 8 }, fc.constantFrom("0", "1", "2147483647", "-1")),
    fc.constantFrom(...INT_TEXTS),
  );

export const floatText = (hostile: boolean): fc.Arbitrary<string> =>
  mixed(
    hostile,
    fc.oneof(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }).map(String),
      fc.integer({ min: 0, max: 100 }).map(String),
      fc.constantFrom("0", "-0", "1e308", "5e-324"),
    ),
    fc.constantFrom(...FLOAT_TEXTS, ...INT_TEXTS),
  );

/** Int values in a JSON body or GraphQL variable: numbers past every edge, and number tokens written verbatim. */
export const intValue = (hostile: boolean): fc.Arbitrary<unknown> =>
  mixed<unknown>(
    hostile,
    fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 300 }), weight: 8 },
      fc.constantFrom(-1, 2147483647, -2147483648),
      fc.constant(new RawJson("-0")),
    ),
    fc.constantFrom(
      2147483648,
      -2147483649,
      2 ** 53,
      1.5,
      1e308,
      ...["9007199254740993", "1e999", "-1e999", "1E2", "0.0000001"].map((t) => new RawJson(t)),
    ),
  );

export const floatValue = (hostile: boolean): fc.Arbitrary<unknown> =>
  mixed<unknown>(
    hostile,
    fc.oneof(
      { arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }), weight: 6 },
      fc.constantFrom(0, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, new RawJson("-0"), new RawJson("9007199254740993")),
    ),
    fc.constantFrom(new RawJson("1e999"), new RawJson("-1e999"), "1", true),
    1,
  );

export const BOOLEAN_TEXTS = ["TRUE", "False", "1", "0", "yes", "on", "", "true ", "null"];

/** Dates: valid days, days JavaScript accepts and PostgreSQL does not (valid for the scalar), and (hostile) malformed ones. */
const EDGE_DATES = ["2026-02-31", "2026-02-30", "2025-02-29", "2026-04-31", "0000-01-01", "0001-01-01", "9999-12-31", "1970-01-01"];
export const DATE_TEXTS = [...EDGE_DATES, "2026-13-01", "2026-00-10", "2026-1-1", "20260101", "2026-01-01T00:00:00Z"];
export const dateText = (hostile: boolean): fc.Arbitrary<string> =>
  mixed(
    hostile,
    fc.oneof(
      {
        arbitrary: fc
          .date({ min: new Date("2000-01-01"), max: new Date("2035-12-31"), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10)),
        weight: 3,
      },
      { arbitrary: fc.constantFrom(...EDGE_DATES), weight: 1 },
    ),
    fc.constantFrom(...DATE_TEXTS),
  );

const EDGE_DATE_TIMES = [
  "2026-02-31T00:00:00Z",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00.000Z",
  "9999-12-31T23:59:59.999Z",
  "2026-01-01T00:00:00+14:00",
  "2026-01-01T00:00:00-12:59",
  "1970-01-01T00:00:00.000000001Z",
  "2026-01-01T23:59:60Z",
];
export const DATE_TIME_TEXTS = [
  ...EDGE_DATE_TIMES,
  "275760-09-13T00:00:00.000Z",
  "+275760-09-13T00:00:00.000Z",
  "-000001-01-01T00:00:00Z",
  "2026-01-01T24:00:00Z",
  "2026-01-01T00:00:61Z",
  "2026-01-01T00:00:00",
  "2026-01-01",
];
export const dateTimeText = (hostile: boolean): fc.Arbitrary<string> =>
  mixed(
    hostile,
    fc.oneof(
      {
        arbitrary: fc.date({ min: new Date("1990-01-01"), max: new Date("2035-12-31"), noInvalidDate: true }).map((d) => d.toISOString()),
        weight: 3,
      },
      { arbitrary: fc.constantFrom(...EDGE_DATE_TIMES), weight: 1 },
    ),
    fc.constantFrom(...DATE_TIME_TEXTS),
  );

export const BAD_UUIDS = [
  "not-a-uuid",
  "00000000-0000-4000-8000-00000000000",
  "00000000-0000-4000-8000-0000000000000",
  "00000000000040008000000000000000",
  "0",
  "-1",
  "",
  " ",
  "00000000-0000-4000-8000-00000000000\u0000",
];

/** Ids: known ones (of the right kind first), in other letter cases, nil and random UUIDs; hostile: malformed ones. */
export function uuidText(known: readonly string[], others: readonly string[], hostile: boolean): fc.Arbitrary<string> {
  const options: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fc.uuid({ version: 4 }), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
        "{00000000-0000-4000-8000-000000000000}",
      ),
      weight: 1,
    },
  ];
  if (known.length) {
    options.push({ arbitrary: fc.constantFrom(...known), weight: 8 });
    options.push({ arbitrary: fc.constantFrom(...known).map((id) => id.toUpperCase()), weight: 1 });
  }
  if (others.length) options.push({ arbitrary: fc.constantFrom(...others), weight: 1 });
  return mixed(hostile, fc.oneof(...options), fc.constantFrom(...BAD_UUIDS), 1);
}

/** `arb` one time in `n`, else undefined (fc.option's `freq` is the odds of the nil value, the other way round). */
export const rarely = <T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: n - 1 }, { arbitrary: arb, weight: 1 });

/** Any JSON value, nested up to a few levels, with the raw tokens: what goes where a value of another type was declared. */
export const wrongJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1e308, "", "x", [], {}, [[]], { a: { b: { c: {} } } }, [1, "a", null]),
      weight: 6,
    },
    { arbitrary: fc.constantFrom(new RawJson("-0"), new RawJson("1e999"), new RawJson("9007199254740993")), weight: 2 },
    { arbitrary: fc.json({ depthSize: "small", maxDepth: 3 }).map((text) => new RawJson(text)), weight: 3 },
    { arbitrary: fc.constant(nested(40)), weight: 1 },
  );

/** `{"a":{"a":...}}` `depth` levels deep, as text (over the server's 64-level limit when depth > 64). */
export function nested(depth: number, key = "a"): RawJson {
  return new RawJson(`${`{"${key}":`.repeat(depth)}1${"}".repeat(depth)}`);
}

/** JSON text of a value holding RawJson tokens (written verbatim); lone surrogates are escaped as JSON.stringify does. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/**
 * Percent-encoding of every UTF-16 unit sequence, lone surrogates included (as their WTF-8 bytes, which are not
 * valid UTF-8: encodeURIComponent would throw). A RawUrl is sent as it is.
 */
export function pct(value: string | RawUrl): string {
  if (value instanceof RawUrl) return value.text;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (UNRESERVED.test(ch)) {
      out += ch;
      continue;
    }
    let code = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    for (const byte of utf8Bytes(code)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function utf8Bytes(code: number): number[] {
  if (code < 0x80) return [code];
  if (code < 0x800) return [0xc0 | (code >> 6), 0x80 | (code & 63)];
  if (code < 0x10000) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
  return [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
}

/** Malformed or surprising URL fragments: bad escapes, encoded NUL and slashes, invalid UTF-8. */
export const RAW_URL_FRAGMENTS = [
  "%",
  "%zz",
  "%E0%A4%A",
  "%00",
  "%2F",
  "%2e%2e",
  "..",
  "%C0%AF",
  "%FF%FE",
  "%ED%A0%80",
  "a%20b",
  "+",
  "%2B",
].map((text) => new RawUrl(text));
