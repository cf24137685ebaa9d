/**
 * Text helpers of the news analysis: sentences with their character offsets, dates relative to the publication
 * day, and the amounts, counts and vendor names a signal's payload carries. Everything here is pure.
 */

export interface Sentence {
  text: string;
  /** Offsets into the analysed text: text.slice(start, end) === sentence.text. */
  start: number;
  end: number;
}

/** Abbreviations after which a period does not end a sentence. */
const ABBREVIATIONS =
  /(?:\b(?:Mr|Mrs|Ms|Dr|St|Sr|Jr|No|Nos|Inc|Co|Corp|Ltd|vs|Gov|Sen|Rep|Supt|Prof|Gen|Mt|Ft|Jan|Feb|Mar|Apr|Aug|Sept|Sep|Oct|Nov|Dec|U\.S|Ala|Ariz|Ark|Calif|Colo|Conn|Del|Fla|Ga|Ill|Ind|Kan|Kans|Ky|La|Md|Mass|Mich|Minn|Miss|Mo|Mont|Neb|Nebr|Nev|Okla|Ore|Pa|Penn|Tenn|Tex|Va|Vt|Wash|Wis|Wyo)|\b[A-Z])\.$/;

/** Sentences of `text` (split on . ! ? followed by space and a capital, a quote or a digit, and on blank lines). */
export function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text[start])) start += 1;
    while (end > start && /\s/.test(text[end - 1])) end -= 1;
    if (end > start) out.push({ text: text.slice(start, end), start, end });
  };
  let start = 0;
  const boundary = /([.!?]["'\u201d\u2019)]?)(\s+)(?=["'\u201c\u2018(]?[A-Z0-9])|\n\s*\n/g;
  for (let m = boundary.exec(text); m; m = boundary.exec(text)) {
    const end = m.index + (m[1]?.length ?? 0);
    if (m[1] && ABBREVIATIONS.test(text.slice(Math.max(start, end - 12), end))) continue;
    push(start, end);
    start = m.index + m[0].length;
  }
  push(start, text.length);
  return out;
}

// ------------------------------------------------------------------------------------------------ dates

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6, jul: 7, july: 7,
  aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11, dec: 12, december: 12,
}; // prettier-ignore

const MONTH_WORD =
  "(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?";
const DATE_PATTERN = new RegExp(`\\b${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, "g");
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

export interface FoundDate {
  /** YYYY-MM-DD */
  date: string;
  /** Offsets into the text. */
  start: number;
  end: number;
  /** How sure the date is the one meant: an explicit year 0.9, a year inferred from publication 0.75, a weekday 0.6. */
  confidence: number;
  text: string;
}

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
const valid = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};

/**
 * Dates written in the text: "May 4", "Sept. 25, 2023", "2024-03-01", weekdays ("on Tuesday"). A date without a year
 * takes the publication year, or the year before when that would put it more than 60 days after publication.
 */
export function findDates(text: string, publishedAt: Date | null): FoundDate[] {
  const out: FoundDate[] = [];
  const pub = publishedAt ?? null;
  for (const m of text.matchAll(DATE_PATTERN)) {
    const month = MONTHS[m[1].toLowerCase().replace(/\.$/, "")];
    const day = Number(m[2]);
    let year = m[3] ? Number(m[3]) : NaN;
    let confidence = 0.9;
    if (!m[3]) {
      if (!pub) continue;
      year = pub.getUTCFullYear();
      if (Date.UTC(year, month - 1, day) - pub.getTime() > 60 * 86_400_000) year -= 1;
      confidence = 0.75;
    }
    if (!month || !valid(year, month, day)) continue;
    out.push({ date: iso(year, month, day), start: m.index, end: m.index + m[0].length, confidence, text: m[0] });
  }
  for (const m of text.matchAll(ISO_DATE)) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (valid(y, mo, d)) out.push({ date: iso(y, mo, d), start: m.index, end: m.index + m[0].length, confidence: 0.9, text: m[0] });
  }
  if (pub) {
    for (const m of text.matchAll(/\b(?:on|last|this)\s+(Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday)\b/gi)) {
      const target = WEEKDAYS.indexOf(m[1].toLowerCase());
      const back = (pub.getUTCDay() - target + 7) % 7;
      const t = new Date(pub.getTime() - back * 86_400_000);
      out.push({
        date: iso(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()),
        start: m.index,
        end: m.index + m[0].length,
        confidence: 0.6,
        text: m[0],
      });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

// ------------------------------------------------------------------------------------------------ amounts

export interface Amount {
  text: string;
  value: number;
  start: number;
  end: number;
}

const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, b: 1e9, bn: 1e9 };

/** Dollar amounts: "$45 million", "$2,669,500", "$1.2 billion", "$600K". */
export function findAmounts(text: string): Amount[] {
  const out: Amount[] = [];
  for (const m of text.matchAll(/\$\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s?(thousand|million|billion|mn|bn|[kmb])\b)?/gi)) {
    const base = Number(m[1].replace(/,/g, ""));
    const value = Math.round(base * (m[2] ? SCALE[m[2].toLowerCase()] : 1));
    if (Number.isFinite(value)) out.push({ text: m[0], value, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

export interface Count {
  text: string;
  value: number;
  noun: string;
}

const COUNT_NOUNS =
  "students|teachers|positions|jobs|employees|staff|vacancies|openings|schools|campuses|buses|drivers|devices|chromebooks|laptops|ipads|classrooms|portables|layoffs|teams|members|districts|families|absences";

/** Counts of things a vendor sizes a deal by: "8,500 Chromebooks", "130 more portables", "400 faculty positions". */
export function findCounts(text: string): Count[] {
  const out: Count[] = [];
  const re = new RegExp(
    `\\b(\\d{1,3}(?:,\\d{3})+|\\d+)\\s+(?:(?:more|new|additional|fewer|full-time|part-time|open|certified|unfilled|teaching|[a-z]+-time)\\s+){0,2}(${COUNT_NOUNS})\\b`,
    "gi",
  );
  for (const m of text.matchAll(re)) {
    if (text[m.index - 1] === "$") continue;
    out.push({ text: m[0], value: Number(m[1].replace(/,/g, "")), noun: m[2].toLowerCase() });
  }
  return out;
}

/** Percentages: "57.3%", "45 percent". */
export function findPercents(text: string): { text: string; value: number }[] {
  return [...text.matchAll(/\b(\d+(?:\.\d+)?)\s?(?:%|percent\b)/gi)].map((m) => ({ text: m[0], value: Number(m[1]) }));
}

/** Companies the K-12 market knows by name (vendor lexicon); a name is reported only when the text says it. */
const VENDORS = [
  "Apple", "Google", "Microsoft", "Dell", "HP", "Lenovo", "Acer", "Chromebook", "Infinite Campus", "PowerSchool", "Skyward",
  "Tyler Technologies", "Canvas", "Instructure", "Schoology", "Blackboard", "Clever", "ClassLink", "Securly", "GoGuardian",
  "Gaggle", "Raptor", "Verkada", "Motorola", "Savvas", "Pearson", "McGraw Hill", "McGraw-Hill", "Houghton Mifflin", "HMH",
  "Amplify", "Curriculum Associates", "i-Ready", "Carnegie Learning", "Great Minds", "Eureka Math", "Wit & Wisdom", "UFLI",
  "Illustrative Mathematics", "Imagine Learning", "Renaissance", "NWEA", "Newsela", "IXL", "Zearn", "Khan Academy",
  "Edgenuity", "Cengage", "Benchmark Education", "EL Education", "Heinemann", "Lexia", "Istation", "Zoom", "Cisco",
  "Aramark", "Sodexo", "Chartwells", "Opaa", "First Student", "Durham School Services", "Student Transportation of America",
  "Valley Lines", "Promethean", "SMART Technologies", "Frontline", "Edulog", "Transfinder", "K12", "Stride", "Zum",
]; // prettier-ignore
const VENDOR_RE = new RegExp(
  `\\b(${VENDORS.map((v) => v.replace(/[.*+?^${}()|[\]\\&]/g, (c) => (c === "&" ? "&" : `\\${c}`))).join("|")})\\b`,
  "g",
);

export function findVendors(text: string): string[] {
  return [...new Set([...text.matchAll(VENDOR_RE)].map((m) => m[1]))];
}
