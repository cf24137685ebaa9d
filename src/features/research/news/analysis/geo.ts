/**
 * Places in an article's text: US states (names, postal codes after a comma, AP abbreviations such as "Neb."),
 * datelines ("OMAHA, Neb. —"), and signs the article is about another country (Canadian provinces, UK school
 * bodies) — districts of other countries must not resolve to a US district.
 */
import { escapeRegExp } from "../../../kits/common/text";

export const STATES: Readonly<Record<string, { name: string; ap: readonly string[] }>> = {
  AL: { name: "Alabama", ap: ["Ala."] }, AK: { name: "Alaska", ap: [] }, AZ: { name: "Arizona", ap: ["Ariz."] },
  AR: { name: "Arkansas", ap: ["Ark."] }, CA: { name: "California", ap: ["Calif.", "Cal."] }, CO: { name: "Colorado", ap: ["Colo."] },
  CT: { name: "Connecticut", ap: ["Conn."] }, DE: { name: "Delaware", ap: ["Del."] }, DC: { name: "District of Columbia", ap: ["D.C."] },
  FL: { name: "Florida", ap: ["Fla."] }, GA: { name: "Georgia", ap: ["Ga."] }, HI: { name: "Hawaii", ap: [] },
  ID: { name: "Idaho", ap: [] }, IL: { name: "Illinois", ap: ["Ill."] }, IN: { name: "Indiana", ap: ["Ind."] },
  IA: { name: "Iowa", ap: [] }, KS: { name: "Kansas", ap: ["Kan.", "Kans."] }, KY: { name: "Kentucky", ap: ["Ky."] },
  LA: { name: "Louisiana", ap: ["La."] }, ME: { name: "Maine", ap: [] }, MD: { name: "Maryland", ap: ["Md."] },
  MA: { name: "Massachusetts", ap: ["Mass."] }, MI: { name: "Michigan", ap: ["Mich."] }, MN: { name: "Minnesota", ap: ["Minn."] },
  MS: { name: "Mississippi", ap: ["Miss."] }, MO: { name: "Missouri", ap: ["Mo."] }, MT: { name: "Montana", ap: ["Mont."] },
  NE: { name: "Nebraska", ap: ["Neb.", "Nebr."] }, NV: { name: "Nevada", ap: ["Nev."] }, NH: { name: "New Hampshire", ap: ["N.H."] },
  NJ: { name: "New Jersey", ap: ["N.J."] }, NM: { name: "New Mexico", ap: ["N.M."] }, NY: { name: "New York", ap: ["N.Y."] },
  NC: { name: "North Carolina", ap: ["N.C."] }, ND: { name: "North Dakota", ap: ["N.D."] }, OH: { name: "Ohio", ap: [] },
  OK: { name: "Oklahoma", ap: ["Okla."] }, OR: { name: "Oregon", ap: ["Ore."] }, PA: { name: "Pennsylvania", ap: ["Pa.", "Penn."] },
  RI: { name: "Rhode Island", ap: ["R.I."] }, SC: { name: "South Carolina", ap: ["S.C."] }, SD: { name: "South Dakota", ap: ["S.D."] },
  TN: { name: "Tennessee", ap: ["Tenn."] }, TX: { name: "Texas", ap: ["Tex."] }, UT: { name: "Utah", ap: [] },
  VT: { name: "Vermont", ap: ["Vt."] }, VA: { name: "Virginia", ap: ["Va."] }, WA: { name: "Washington", ap: ["Wash."] },
  WV: { name: "West Virginia", ap: ["W.Va.", "W. Va."] }, WI: { name: "Wisconsin", ap: ["Wis.", "Wisc."] }, WY: { name: "Wyoming", ap: ["Wyo."] },
  PR: { name: "Puerto Rico", ap: ["P.R."] },
}; // prettier-ignore

export interface StateMention {
  state: string;
  /** name, ap, postal, dateline */
  how: string;
  index: number;
}

/** The US states the text names, in order of appearance. */
export function findStates(text: string): StateMention[] {
  const out: StateMention[] = [];
  for (const [code, { name, ap }] of Object.entries(STATES)) {
    // "Washington" is a state only as "in/of/across Washington (state)", ", Washington", "Washington state", never "Washington County".
    const nameRe =
      code === "WA"
        ? /(?:(?:,|\bin|\bof|\bacross|\bwestern|\beastern)\s+Washington\b(?!\s+(?:County|City|Elementary|School|High|Middle|Community|Local|Township|Parish|Unified|D\.C)))|\bWashington state\b/g
        : code === "VA"
          ? /(?<!West\s)\bVirginia\b(?!\s+Beach)/g
          : code === "DC"
            ? /\b(?:District of Columbia|Washington,? D\.C\.)/g
            : new RegExp(`\\b${escapeRegExp(name)}\\b${code === "NY" ? "(?!\\s+City)" : ""}`, "g");
    for (const m of text.matchAll(nameRe)) out.push({ state: code, how: "name", index: m.index });
    for (const a of ap) {
      const re = new RegExp(`(?:,\\s*|\\b)${escapeRegExp(a)}(?=\\s|$|,|\\))`, "g");
      for (const m of text.matchAll(re)) out.push({ state: code, how: "ap", index: m.index });
    }
    // A postal code after "City, ": "Omaha, NE" (not the ambiguous two-letter words alone).
    const postal = new RegExp(`[A-Z][a-z]+,\\s+${code}\\b(?![a-z])`, "g");
    for (const m of text.matchAll(postal)) out.push({ state: code, how: "postal", index: m.index });
  }
  // Datelines: "OMAHA, Neb. (AP) —", "LINCOLN, Neb. —" at the start of a paragraph.
  for (const m of text.matchAll(/(?:^|\n)\s*([A-Z][A-Z .'-]{2,}),\s+([A-Z][a-z.]+\.?(?: [A-Z][a-z.]+)?)\s*(?:\([^)]*\)\s*)?[—–-]/g)) {
    const st = stateFromWord(m[2]);
    if (st) out.push({ state: st, how: "dateline", index: m.index });
  }
  return out.sort((a, b) => a.index - b.index);
}

function stateFromWord(word: string): string | null {
  for (const [code, { name, ap }] of Object.entries(STATES)) if (name === word || ap.includes(word) || code === word) return code;
  return null;
}

/** Signs the article is about schools outside the US (its districts must not resolve to US ones). */
export const FOREIGN =
  /\b(Ontario|Toronto|Ottawa|Quebec|Québec|Manitoba|Winnipeg|Alberta|Calgary|Edmonton|British Columbia|Vancouver|Saskatchewan|Nova Scotia|New Brunswick|Canada|Canadian|Ofsted|academy trusts?|multi-academy|United Kingdom|England|Scotland|Wales|Britain|British|Australia|New Zealand|Ireland|District School Board|Catholic District School Board|School Division|education authority|local authority)\b/;

/** Bodies that are not public school districts: their names must never resolve to one. */
export const NOT_A_DISTRICT =
  /\b(Catholic|Diocese|Archdiocese|Parish School|Episcopal|Lutheran|Christian|Baptist|Jewish|Hebrew|Yeshiva|Islamic|Montessori School|Preparatory|Prep School|Friends School|Day School|Country Day|Private|Independent School(?!\s+District)|University|College|Community College|Seminary|State Board of Education|Department of Education|Education Department|State Superintendent|Board of Regents)\b/;
