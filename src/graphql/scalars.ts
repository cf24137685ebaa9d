import { GraphQLScalarType, Kind } from "graphql";
import { DateTimeISOResolver, JSONResolver, UUIDResolver } from "graphql-scalars";

// graphql-scalars' own descriptions are dropped: the field dictionary describes every scalar (src/graphql/dictionary).
/** Timestamps: ISO 8601 UTC with milliseconds (contract section 9). */
export const DateTimeScalar = new GraphQLScalarType({ ...DateTimeISOResolver.toConfig(), description: undefined });
/** Free-form objects (key_facts, source_urls, evidence ...): passed through untouched. */
export const JSONScalar = new GraphQLScalarType({ ...JSONResolver.toConfig(), description: undefined });
const uuid = { ...UUIDResolver.toConfig(), description: undefined };
const lowerCase = (value: unknown) => (typeof value === "string" ? value.toLowerCase() : value);
/**
 * UUIDs in any letter case (and graphql-scalars' braces) are read as the canonical lower-case form the
 * database returns, so ids compare equal wherever they are matched in JavaScript (loaders, path params).
 */
export const UUIDScalar = new GraphQLScalarType<unknown, unknown>({
  ...uuid,
  parseValue: (value) => lowerCase(uuid.parseValue!(value)),
  parseLiteral: (ast, variables) => lowerCase(uuid.parseLiteral!(ast, variables)),
});

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * A day that exists, from year 1: Date.parse rolls 2026-02-31 over to March 3rd and takes year 0 (1 BC), both of
 * which PostgreSQL's date refuses (a 500 where the caller's input was wrong).
 */
function isCalendarDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return year >= 1 && days !== undefined && day >= 1 && day <= days;
}
/** Calendar dates `YYYY-MM-DD`; the database returns them as strings or UTC-midnight Dates. */
export const DateScalar = new GraphQLScalarType<string | null, string>({
  name: "Date",
  serialize(value) {
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    if (typeof value === "string" && DATE_RE.test(value.slice(0, 10))) return value.slice(0, 10);
    throw new TypeError(`Date cannot represent ${String(value)}`);
  },
  parseValue(value) {
    if (typeof value !== "string" || !isCalendarDate(value)) {
      throw new TypeError(`must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`);
    }
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING || !isCalendarDate(ast.value)) throw new TypeError("must be a date YYYY-MM-DD");
    return ast.value;
  },
});
