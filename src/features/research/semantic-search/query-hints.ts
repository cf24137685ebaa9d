/**
 * Structured hints in a natural-language query (docs/semantic-search.md, "How ranking works"): a state (name or
 * postal code), locale words (rural, town, suburban, urban), size words (large, small), grade levels
 * (elementary, middle, high school) and poverty words. A state narrows the search like the `state` filter
 * (a person asking for "districts in Nebraska" wants none elsewhere); the others boost matching records.
 * What is left after the hint words are removed is the lexical query (names and places).
 */
import { STATES } from "../news/analysis/geo";

export type Locale = "Rural" | "Town" | "Suburb" | "City";
export type Size = "large" | "small";
export type GradeBand = "elementary" | "middle" | "high";

export interface QueryHints {
  state: string | null;
  locale: Locale | null;
  size: Size | null;
  grade: GradeBand | null;
  highPoverty: boolean;
  /** The query without the hint words and filler words: what names and places are matched against. */
  lexical: string;
}

const LOCALE_WORDS: [RegExp, Locale][] = [
  [/\brural\b/i, "Rural"],
  [/\b(small[- ]town|towns?)\b/i, "Town"],
  [/\b(suburban|suburbs?)\b/i, "Suburb"],
  [/\b(urban|big[- ]city|inner[- ]city)\b/i, "City"],
];
const SIZE_WORDS: [RegExp, Size][] = [
  [/\b(large|largest|big|biggest)\b/i, "large"],
  [/\b(small|smallest|tiny)\b/i, "small"],
];
const GRADE_WORDS: [RegExp, GradeBand][] = [
  [/\b(elementary|primary|grade school|k-5)\b/i, "elementary"],
  [/\b(middle|junior high)\b/i, "middle"],
  [/\b(high school|high schools|secondary)\b/i, "high"],
];
const POVERTY = /\b(high[- ]poverty|poverty|low[- ]income|title i|disadvantaged)\b/i;
/** Words that say what is wanted, not which one: never part of a name match. */
const FILLER =
  /\b(districts?|schools?|public|in|of|the|a|an|and|with|for|about|at|near|on|to|who|is|are|that|high|low|large|largest|big|biggest|small|smallest|rural|urban|suburban|town|towns|elementary|middle|secondary|superintendent|principal|contacts?)\b/gi;

/** The hints of `query`. Postal codes count only in upper case ("IN", "OR" and "ME" are words too). */
export function parseQueryHints(query: string): QueryHints {
  let rest = ` ${query} `;
  let state: string | null = null;
  // Longest names first: "West Virginia" before "Virginia", "North Dakota" before nothing shorter.
  const names = Object.entries(STATES).sort((a, b) => b[1].name.length - a[1].name.length);
  for (const [code, { name }] of names) {
    const re = new RegExp(`\\b${name.replace(/ /g, "\\s+")}\\b`, "i");
    if (re.test(rest)) {
      state = code;
      rest = rest.replace(re, " ");
      break;
    }
  }
  if (!state)
    for (const code of Object.keys(STATES)) {
      const re = new RegExp(`(?<![A-Za-z])${code}(?![A-Za-z])`);
      if (re.test(rest)) {
        state = code;
        rest = rest.replace(re, " ");
        break;
      }
    }
  const first = <T>(pairs: [RegExp, T][]): T | null => pairs.find(([re]) => re.test(query))?.[1] ?? null;
  const grade = first(GRADE_WORDS);
  const highPoverty = POVERTY.test(query);
  rest = rest.replace(POVERTY, " ");
  for (const [re] of [...LOCALE_WORDS, ...GRADE_WORDS]) rest = rest.replace(re, " ");
  const lexical = rest.replace(FILLER, " ").replace(/\s+/g, " ").trim();
  return { state, locale: first(LOCALE_WORDS), size: first(SIZE_WORDS), grade, highPoverty, lexical };
}
