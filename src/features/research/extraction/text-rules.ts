/**
 * Small text rules the extractors share: sentences, dates ("October 14, 2026", "Oct. 14, 2026",
 * "10/14/2026", "2026-10-14"), times ("2:00 p.m."), dollar amounts ("$1.2 million", "$450,000"),
 * fiscal years ("FY2026", "FY 2025-26", "2025-2026 school year"), and a state's time zone for deadlines.
 */

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const MONTH_NAMES =
  "(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)";
const DATE_SOURCE = [
  `${MONTH_NAMES}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})`,
  `(\\d{1,2})/(\\d{1,2})/(\\d{4})`,
  `(\\d{4})-(\\d{2})-(\\d{2})`,
].join("|");

export interface FoundDate {
  /** YYYY-MM-DD */
  date: string;
  index: number;
  end: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

function validDate(y: number, m: number, d: number): string | null {
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const at = new Date(Date.UTC(y, m - 1, d));
  if (at.getUTCMonth() !== m - 1) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** Every date in `text`, in order. */
export function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  const re = new RegExp(DATE_SOURCE, "gi");
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let date: string | null = null;
    if (m[1]) date = validDate(Number(m[3]), MONTHS[m[1].toLowerCase().slice(0, m[1].toLowerCase() === "sept" ? 4 : 3)]!, Number(m[2]));
    else if (m[4]) date = validDate(Number(m[6]), Number(m[4]), Number(m[5]));
    else if (m[7]) date = validDate(Number(m[7]), Number(m[8]), Number(m[9]));
    if (date) found.push({ date, index: m.index, end: m.index + m[0].length });
  }
  return found;
}

export const firstDate = (text: string): string | null => findDates(text)[0]?.date ?? null;

/** A time of day right after `from` in `text` ("at 2:00 p.m.", "2 PM", "14:00"), as [hours, minutes]. */
export function timeAfter(text: string, from: number): [number, number] | null {
  const m = /^[\s,]*(?:at\s+|by\s+|@\s*)?(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|noon)?/i.exec(text.slice(from, from + 40));
  if (!m || (!m[2] && !m[3])) return null;
  let hours = Number(m[1]);
  const minutes = Number(m[2] ?? 0);
  const half = (m[3] ?? "").toLowerCase().replace(/\./g, "");
  if (half === "pm" && hours < 12) hours += 12;
  if (half === "am" && hours === 12) hours = 0;
  if (hours > 23 || minutes > 59) return null;
  return [hours, minutes];
}

/** The UTC instant of a wall-clock time in an IANA zone. */
export function zonedToUtc(date: string, hours: number, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, hours, minutes);
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    }).formatToParts(new Date(instant));
    const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute")) - instant;
  };
  const first = guess - offsetAt(guess);
  return new Date(guess - offsetAt(first));
}

/** The main time zone of each state (a deadline's "2:00 p.m." is local time). */
const STATE_ZONES: Record<string, string> = {
  AL: "America/Chicago",
  AK: "America/Anchorage",
  AZ: "America/Phoenix",
  AR: "America/Chicago",
  CA: "America/Los_Angeles",
  CO: "America/Denver",
  CT: "America/New_York",
  DE: "America/New_York",
  DC: "America/New_York",
  FL: "America/New_York",
  GA: "America/New_York",
  HI: "Pacific/Honolulu",
  ID: "America/Boise",
  IL: "America/Chicago",
  IN: "America/Indiana/Indianapolis",
  IA: "America/Chicago",
  KS: "America/Chicago",
  KY: "America/New_York",
  LA: "America/Chicago",
  ME: "America/New_York",
  MD: "America/New_York",
  MA: "America/New_York",
  MI: "America/Detroit",
  MN: "America/Chicago",
  MS: "America/Chicago",
  MO: "America/Chicago",
  MT: "America/Denver",
  NE: "America/Chicago",
  NV: "America/Los_Angeles",
  NH: "America/New_York",
  NJ: "America/New_York",
  NM: "America/Denver",
  NY: "America/New_York",
  NC: "America/New_York",
  ND: "America/Chicago",
  OH: "America/New_York",
  OK: "America/Chicago",
  OR: "America/Los_Angeles",
  PA: "America/New_York",
  RI: "America/New_York",
  SC: "America/New_York",
  SD: "America/Chicago",
  TN: "America/Chicago",
  TX: "America/Chicago",
  UT: "America/Denver",
  VT: "America/New_York",
  VA: "America/New_York",
  WA: "America/Los_Angeles",
  WV: "America/New_York",
  WI: "America/Chicago",
  WY: "America/Denver",
  PR: "America/Puerto_Rico",
  GU: "Pacific/Guam",
  VI: "America/St_Thomas",
  AS: "Pacific/Pago_Pago",
  MP: "Pacific/Saipan",
};

export const stateZone = (state: string | null | undefined): string => STATE_ZONES[(state ?? "").toUpperCase()] ?? "America/New_York";

/**
 * A deadline: the date, and the time after it when given (else the end of that day), in the state's zone.
 */
export function deadlineAt(text: string, found: FoundDate, state: string | null | undefined): Date {
  const time = timeAfter(text, found.end) ?? timeBefore(text, found.index);
  const [h, m] = time ?? [23, 59];
  return zonedToUtc(found.date, h, m, stateZone(state));
}

function timeBefore(text: string, index: number): [number, number] | null {
  const m = /(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)\s*(?:on\s+)?(?:\w+day,?\s+)?$/i.exec(text.slice(Math.max(0, index - 30), index));
  if (!m) return null;
  return timeAfter(m[0], 0);
}

/** Dollar amounts in a sentence, in order. */
export function findAmounts(text: string): number[] {
  const out: number[] = [];
  const re = /\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(million|billion|thousand|m\b|k\b|b\b)?/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let value = Number(`${m[1]!.replace(/,/g, "")}${m[2] ?? ""}`);
    const scale = (m[3] ?? "").toLowerCase();
    if (scale === "million" || scale === "m") value *= 1e6;
    else if (scale === "billion" || scale === "b") value *= 1e9;
    else if (scale === "thousand" || scale === "k") value *= 1e3;
    if (Number.isFinite(value) && value > 0) out.push(Math.round(value * 100) / 100);
  }
  return out;
}

/** The fiscal year a sentence names (the year it ends: FY 2025-26 is 2026), else null. */
export function findFiscalYear(text: string): number | null {
  const fy = /\b(?:FY|fiscal year)\s?'?(\d{4}|\d{2})(?:\s?[-–/]\s?(\d{4}|\d{2}))?\b/i.exec(text);
  if (fy) {
    const end = fy[2] ?? fy[1]!;
    const year = end.length === 2 ? 2000 + Number(end) : Number(end);
    if (year >= 1990 && year <= 2100) return year;
  }
  const span = /\b(20\d{2})\s?[-–]\s?(20\d{2}|\d{2})\b(?!-\d)/.exec(text);
  if (span) {
    const start = Number(span[1]);
    const end = span[2]!.length === 2 ? Math.floor(start / 100) * 100 + Number(span[2]) : Number(span[2]);
    if (end === start + 1) return end;
  }
  return null;
}

// A sentence ends at . ! ? before a capital, digit or quote, but not after a title or month abbreviation.
const ABBREVIATION_SAFE_BREAK =
  /(?<!\b(?:Dr|Mr|Mrs|Ms|St|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|No|Inc|Co|Corp|Ltd|Jr|Sr|vs|U\.S|a\.m|p\.m)\.)(?<=[.!?])\s+(?=[A-Z0-9"“(])/;

/** Sentences of a text (lines are kept apart: a heading never runs into the next paragraph). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const parts = line.split(ABBREVIATION_SAFE_BREAK);
    for (const part of parts) {
      const s = part.trim();
      if (s.length >= 12) out.push(s);
    }
  }
  return out;
}

export const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);
