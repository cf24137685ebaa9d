/**
 * Dates as feeds write them: RFC 822 (RSS, with named US zones, two-digit years, a wrong or missing day name),
 * ISO 8601 / RFC 3339 (Atom, Dublin Core), `2026-11-20 14:05:00` without a zone (read as UTC), and the prose
 * dates some generators emit ("November 20, 2026 2:05 PM"). Null when nothing sensible comes out.
 */

const ZONES: Record<string, string> = {
  UT: "+0000",
  UTC: "+0000",
  GMT: "+0000",
  Z: "+0000",
  EST: "-0500",
  EDT: "-0400",
  CST: "-0600",
  CDT: "-0500",
  MST: "-0700",
  MDT: "-0600",
  PST: "-0800",
  PDT: "-0700",
  AKST: "-0900",
  AKDT: "-0800",
  HST: "-1000",
  CET: "+0100",
  CEST: "+0200",
  BST: "+0100",
  IST: "+0530",
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Dates outside these bounds are generator bugs (year 0001, 2099), not news. */
const EARLIEST = Date.UTC(1990, 0, 1);
const latest = () => Date.now() + 2 * 24 * 3600 * 1000;

const sane = (ms: number): Date | null => (Number.isFinite(ms) && ms >= EARLIEST && ms <= latest() ? new Date(ms) : null);

export function parseFeedDate(raw: unknown): Date | null {
  if (typeof raw !== "string" && typeof raw !== "number") return null;
  const text = String(raw).trim().replace(/\s+/g, " ");
  if (!text) return null;

  // ISO 8601 / RFC 3339, with or without zone (no zone: UTC), with a space instead of T.
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}:?\d{2}|[A-Z]{2,4})?)?$/i.exec(text);
  if (iso) {
    const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "0", zone] = iso;
    const offset = zoneOffset(zone ?? "Z");
    if (offset === null) return null;
    const ms = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s, Math.round(Number(`0.${frac}`) * 1000)) - offset;
    return sane(ms);
  }

  // RFC 822 and relatives: [Day,] DD Mon YY[YY] HH:MM[:SS] [zone]
  const rfc =
    /^(?:[a-z]+,?\s*)?(\d{1,2})[\s-]([a-z]{3,})\.?[\s-](\d{2,4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?\s*([A-Z]{1,5}|[+-]\d{2}:?\d{2})?$/i.exec(
      text,
    );
  if (rfc) return fromParts(rfc[3]!, rfc[2]!, rfc[1]!, rfc[4], rfc[5], rfc[6], rfc[7], rfc[8]);

  // Prose: [Day,] Month DD[,] YYYY [HH:MM[:SS] [AM|PM]] [zone]
  const prose =
    /^(?:[a-z]+,?\s+)?([a-z]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?:,?\s+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?)?\s*([A-Z]{1,5}|[+-]\d{2}:?\d{2})?$/i.exec(
      text,
    );
  if (prose) return fromParts(prose[3]!, prose[1]!, prose[2]!, prose[4], prose[5], prose[6], prose[7], prose[8]);

  // US numeric: MM/DD/YYYY [HH:MM]
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?$/i.exec(text);
  if (us) return fromParts(us[3]!, MONTHS[+us[1]! - 1] ?? "", us[2]!, us[4], us[5], us[6], us[7], undefined);

  return null;
}

function zoneOffset(zone: string): number | null {
  const z = zone.toUpperCase();
  const named = ZONES[z];
  const numeric = named ?? (/^[+-]\d{2}:?\d{2}$/.test(z) ? z.replace(":", "") : null);
  if (numeric === null) return /^[A-Z]$/.test(z) ? 0 : null; // military single letters: treated as UTC
  const sign = numeric.startsWith("-") ? -1 : 1;
  return sign * (Number(numeric.slice(1, 3)) * 60 + Number(numeric.slice(3, 5))) * 60_000;
}

function fromParts(
  year: string,
  monthName: string,
  day: string,
  hour?: string,
  minute?: string,
  second?: string,
  ampm?: string,
  zone?: string,
): Date | null {
  const month = MONTHS.indexOf(monthName.slice(0, 3).toLowerCase());
  if (month < 0) return null;
  let y = Number(year);
  if (year.length === 2) y += y < 70 ? 2000 : 1900;
  let h = Number(hour ?? 0);
  const meridiem = ampm?.toLowerCase().replace(/\./g, "");
  if (meridiem === "pm" && h < 12) h += 12;
  if (meridiem === "am" && h === 12) h = 0;
  const offset = zoneOffset(zone ?? "GMT");
  if (offset === null) return null;
  const d = Number(day);
  if (d < 1 || d > 31 || h > 23) return null;
  return sane(Date.UTC(y, month, d, h, Number(minute ?? 0), Number(second ?? 0)) - offset);
}
