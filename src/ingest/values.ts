/**
 * Field parsers shared by the ingestors. A value problem throws RowError, which rejects that one row
 * (counted and listed by line) instead of failing the file.
 */

export class RowError extends Error {}

/** Why a published value is absent; kept in the schema's *_status columns next to the null value. */
export type ValueStatus = "reported" | "missing" | "not_applicable" | "suppressed" | "below_standards";

/**
 * NCES/Census special codes: -1 / M / – missing, -2 / N / † not applicable, -3 suppressed,
 * -9 / ‡ fails data quality standards; an empty field is missing.
 */
const SPECIAL_CODES: Record<string, ValueStatus> = {
  "": "missing",
  "-1": "missing",
  M: "missing",
  "–": "missing",
  "-2": "not_applicable",
  N: "not_applicable",
  "†": "not_applicable",
  "-3": "suppressed",
  "-9": "below_standards",
  "‡": "below_standards",
};

export interface Measured {
  value: number | null;
  status: ValueStatus;
}

export interface NumberOptions {
  integer?: boolean;
  /** Negative amounts are real values (IRS revenue); otherwise -1/-2/-3/-9 are codes and others errors. */
  allowNegative?: boolean;
  /** A publisher's own spellings of absent values (Indiana's "NA", Urban's "Missing/not reported"). */
  codes?: Readonly<Record<string, ValueStatus>>;
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** A code table's own entry: a field reading "constructor" or "toString" is not a code (plain-object lookups inherit those). */
const ownCode = (codes: Readonly<Record<string, ValueStatus>> | undefined, text: string): ValueStatus | undefined =>
  codes && Object.hasOwn(codes, text) ? codes[text] : undefined;

/** A number or a special code; throws RowError for anything else. */
export function measure(raw: string, column: string, options: NumberOptions = {}): Measured {
  const text = raw.trim();
  const own = ownCode(options.codes, text);
  if (own) return { value: null, status: own };
  if (!options.allowNegative || text === "") {
    const code = ownCode(SPECIAL_CODES, text);
    if (code) return { value: null, status: code };
  }
  const plain = text.replace(/,/g, "");
  if (!NUMBER.test(plain)) throw new RowError(`${column} "${raw}" is not a number`);
  const value = Number(plain);
  if (value < 0 && !options.allowNegative) throw new RowError(`${column} "${raw}" is negative`);
  if (options.integer) {
    if (!Number.isInteger(value)) throw new RowError(`${column} "${raw}" is not a whole number`);
    if (Math.abs(value) > 2147483647) throw new RowError(`${column} "${raw}" is out of range`);
  }
  return { value, status: "reported" };
}

export const int = (raw: string, column: string, options: Omit<NumberOptions, "integer"> = {}): number | null =>
  measure(raw, column, { ...options, integer: true }).value;

export const float = (raw: string, column: string, options: NumberOptions = {}): number | null => measure(raw, column, options).value;

/** Trimmed text, or null when empty or a special code (for code-like columns such as grades and locale). */
export function text(raw: string): string | null {
  const value = raw.trim();
  return value === "" ? null : value;
}

export function code(raw: string): string | null {
  const value = raw.trim();
  return ownCode(SPECIAL_CODES, value) ? null : value;
}

const STATES = new Set(
  (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY " +
    "AS GU MP PR VI UM FM MH PW BI AA AE AP"
  ).split(" "),
);

/** A USPS state or territory code (BI is NCES's code for the Bureau of Indian Education). */
export function stateCode(raw: string, column: string): string {
  const value = raw.trim().toUpperCase();
  if (!STATES.has(value)) throw new RowError(`${column} "${raw}" is not a US state or territory code`);
  return value;
}

/** Required text: throws when empty. */
export function required(raw: string, column: string): string {
  const value = raw.trim();
  if (!value) throw new RowError(`${column} is empty`);
  return value;
}

export function digits(raw: string, column: string, length: number): string {
  const value = raw.trim();
  if (!new RegExp(`^\\d{${length}}$`).test(value)) throw new RowError(`${column} "${raw}" is not ${length} digits`);
  return value;
}

/** The 5-digit ZIP code of "68102", "68102-1885" or "681021885"; null when absent or malformed. */
export function zip5(raw: string): string | null {
  const match = /^(\d{5})(?:-?\d{4})?$/.exec(raw.trim());
  return match ? match[1]! : null;
}

/** US dates as published (M/D/YYYY, M/D/YY) to YYYY-MM-DD; two-digit years pivot on `pivotYear`. */
export function usDate(raw: string, column: string, pivotYear = 2030): string | null {
  const value = raw.trim();
  if (!value || value === "NA") return null;
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(value);
  if (!match) throw new RowError(`${column} "${raw}" is not a date (M/D/YYYY)`);
  let year = Number(match[3]);
  if (match[3]!.length === 2) year += year + 2000 > pivotYear ? 1900 : 2000;
  const month = Number(match[1]);
  const day = Number(match[2]);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw new RowError(`${column} "${raw}" is not a valid date`);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Yes/No, Y/N flags to booleans; anything else is unknown (null). */
export function yesNo(raw: string): boolean | null {
  const value = raw.trim().toLowerCase();
  if (value === "y" || value === "yes") return true;
  if (value === "n" || value === "no") return false;
  return null;
}

/** Percent with two decimals, or null when the denominator is missing or zero. */
export function percent(part: number | null, whole: number | null): number | null {
  if (part === null || whole === null || whole <= 0) return null;
  return Math.round((part / whole) * 10000) / 100;
}

/** Street lines joined with ", ", skipping empty ones. */
export function joinAddress(...lines: string[]): string | null {
  const parts = lines.map((l) => l.trim()).filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

// ---------------------------------------------------------------- grades

const GRADE_ORDER = ["PK", "KG", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13"];
const GRADE_CODES = new Set([...GRADE_ORDER, "UG", "AE"]);

/** A CCD grade code (PK, KG, 01-13, UG, AE), or null for a special code; throws for anything else. */
export function grade(raw: string, column: string): string | null {
  const value = code(raw);
  if (value === null) return null;
  const normalized = /^\d$/.test(value) ? `0${value}` : value.toUpperCase();
  if (!GRADE_CODES.has(normalized)) throw new RowError(`${column} "${raw}" is not a grade code (PK, KG, 01-13, UG, AE)`);
  return normalized;
}

export type GradeBucket = "pre_k" | "elementary" | "middle" | "high";

export function bucketOf(gradeCode: string): GradeBucket | null {
  if (gradeCode === "PK") return "pre_k";
  if (gradeCode === "KG") return "elementary";
  const n = Number(gradeCode);
  if (!Number.isInteger(n)) return null;
  if (n <= 5) return "elementary";
  if (n <= 8) return "middle";
  return "high";
}

/** Buckets covered by the span low..high (both CCD grade codes); UG/AE spans have none. */
export function bucketsOfSpan(low: string | null, high: string | null): GradeBucket[] {
  if (!low || !high) return [];
  const from = GRADE_ORDER.indexOf(low);
  const to = GRADE_ORDER.indexOf(high);
  if (from < 0 || to < 0 || to < from) return [];
  return orderBuckets(GRADE_ORDER.slice(from, to + 1).map(bucketOf));
}

export function orderBuckets(buckets: readonly (GradeBucket | null)[]): GradeBucket[] {
  const set = new Set(buckets.filter((b): b is GradeBucket => b !== null));
  return (["pre_k", "elementary", "middle", "high"] as const).filter((b) => set.has(b));
}

export function span(low: string | null, high: string | null): string | null {
  return low && high ? `${low}-${high}` : null;
}
