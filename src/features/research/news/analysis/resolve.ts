/**
 * Entity resolution: the districts and schools an article is about, from its text.
 *
 * 1. Mentions: names with a district suffix ("Eanes ISD", "Hope Elementary School District", "Omaha Public
 *    Schools", "Springfield R-XII", "Johnson County School District No. 1"), names before a lower-case cue ("the
 *    Anacortes school board"), numbered districts ("District 833", "USD 415"), acronyms (the alias table,
 *    aliases.ts) and school names ("James Logan High School").
 * 2. Candidates: districts whose name contains the mention's core words by trigram word similarity in PostgreSQL
 *    (`core <% name`, pg_trgm's word_similarity_threshold 0.6, GIN index on districts.name), then compared on
 *    normalised cores: equal cores score 1, equal after dropping "County"/"City" 0.85, trigram similarity of the
 *    cores >= TRGM_MIN (0.75) scores 0.8 x similarity. Numbers and Roman numerals must agree.
 * 3. Context: the states the text names (or its dateline), the candidate's city named in the text (+0.1), the
 *    outlet's domain equal to the district's website domain (+0.3), regular districts before supervisory unions
 *    and charters.
 * 4. One candidate clearly ahead (by MARGIN) -> resolved; several -> ambiguous, never a guess; none -> unresolved.
 *    Without any state in the text, only a suffixed name or alias that is unique nationally resolves.
 * Private and parochial schools, universities, state agencies (NOT_A_DISTRICT) and foreign systems (FOREIGN,
 * when no US state is named) never resolve.
 */
import type { Db } from "../../../../db/client";
import { escapeRegExp } from "../../../kits/common/text";
import { DISTRICT_ALIASES } from "./aliases";
import { FOREIGN, NOT_A_DISTRICT, STATES, findStates } from "./geo";
import { sentences } from "./text";

/** Cores whose trigram similarity reaches this are a fuzzy match (typos, "Mt."/"Mount" variants). */
export const TRGM_MIN = 0.75;
/** The best candidate must lead the next by this much to resolve. */
export const MARGIN = 0.1;
/** District types a news mention can mean: regular (1, 2), supervisory union (3), charter LEA (7). */
const DISTRICT_TYPES = ["1", "2", "3", "7"];

export interface Candidate {
  id: string;
  fed_id: string;
  name: string;
  state: string;
  physical_city: string | null;
  website_url: string | null;
  district_type_code: string | null;
  state_district_id: string | null;
}

export interface Mention {
  text: string;
  index: number;
  kind: "suffixed" | "cue" | "numbered" | "alias" | "school";
  /** The words to look up (suffixes dropped). */
  core: string;
  numbers: string[];
  suffix: string;
}

export interface Resolution {
  status: "resolved" | "ambiguous" | "unresolved";
  districts: { id: string; fed_id: string; name: string; state: string; confidence: number; reason: string; school_id?: string }[];
  reason: string;
  confidence: number;
}

// ------------------------------------------------------------------------------------------------ names

const GENERIC = new Set(
  (
    "school schools district dist public independent isd cisd usd unified sd consolidated community unit cusd ccsd chsd csd ufsd " +
    "union free local exempted village area regional joint system board education of the no number r re j c elem reorganized " +
    "municipal separate special township twp central borough parish co inc department schs sch comm cmty cons consol dist elem hs jt un " +
    "reorg corp corporation unit hsd esd ud cesd msd psd cs pcs chtr chrtr schl h s"
  ).split(" "),
);
const PLACE = new Set(["county", "city"]);
const LEVEL = new Set(["elementary", "high", "middle", "junior", "primary"]);
const ROMAN: Record<string, number> = {
  i: 1,
  ii: 2,
  iii: 3,
  iv: 4,
  v: 5,
  vi: 6,
  vii: 7,
  viii: 8,
  ix: 9,
  x: 10,
  xi: 11,
  xii: 12,
  xiii: 13,
  xiv: 14,
  xv: 15,
};

export interface NameKey {
  core: string;
  loose: string;
  numbers: string[];
  levels: string[];
}

/** "Springfield R-XII" -> core "springfield", numbers ["12"]; "Johnson County School District No. 1" -> "johnson county", ["1"]. */
export function nameKey(name: string): NameKey {
  const words = name
    .toLowerCase()
    .replace(/\bsaint\b/g, "st")
    .replace(/\bmount\b/g, "mt")
    .replace(/\bfort\b/g, "ft")
    .replace(/[’']s\b/g, "s")
    .replace(/\bco\b/g, "county")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const core: string[] = [];
  const numbers: string[] = [];
  const levels: string[] = [];
  for (const [i, w] of words.entries()) {
    // "5", "26j", "10jt" (Colorado's joint districts): the number; the letters are a kind, not a name.
    if (/^\d+[a-z]{0,3}$/.test(w)) numbers.push(String(parseInt(w, 10)));
    else if (ROMAN[w] && w !== "i" && w !== "x" && w !== "v" && w !== "c") numbers.push(String(ROMAN[w]));
    else if (ROMAN[w] && words.length > 1 && (w === "v" || w === "x")) numbers.push(String(ROMAN[w]));
    // Missouri's "R-I", "C-I": after R/C even "I" is a numeral.
    else if (ROMAN[w] && i > 0 && /^(r|re|c)$/.test(words[i - 1])) numbers.push(String(ROMAN[w]));
    else if (LEVEL.has(w)) levels.push(w);
    else if (!GENERIC.has(w)) core.push(w);
  }
  return { core: core.join(" "), loose: core.filter((w) => !PLACE.has(w)).join(" "), numbers, levels };
}

// ------------------------------------------------------------------------------------------------ mentions

const CAP = "(?:[A-Z][A-Za-z'’.&/-]*|Mc[A-Z][a-z]+)";
const SUFFIXES =
  "Consolidated Independent School District|Independent School District|Unified School District|Union Free School District|Community Unit School District|Community School District|Consolidated School District|Elementary School District|Union High School District|High School District|Public School District|Area School District|Local School District|City School District|County School District|School District|Public Schools|County Schools|City Schools|Community Schools|Local Schools|Area Schools|School System|Schools|ISD|CISD|USD|UFSD|CUSD|CSD|SD|Unified|Union|School Corporation|Parish Schools|R-[IVX]+|\\d+-R";
const NUMBER_TAIL = "(?:\\s+(?:No\\.?\\s*|Number\\s+)?(?:\\d+[A-Z]?(?:-\\d+)?|[IVX]+|R-?[IVX]+|\\d+-R)\\b)?";
const SUFFIXED = new RegExp(`((?:${CAP} +){0,4}${CAP}) +(${SUFFIXES})${NUMBER_TAIL}`, "g");
/**
 * A name before a cue: lower case ("the Anacortes school board", "Baltimore city schools") or a capitalised body
 * ("Franklin County School Board", "Charlotte-Mecklenburg Board of Education").
 */
const CUE = new RegExp(
  `((?:${CAP} +){0,3}${CAP}(?: (?:city|county))?) +(school district|school board|schools|school system|board of education|superintendent|district|trustees|school committee|board|School Board|Board of Education|School Committee|Board of Trustees)\\b`,
  "g",
);
/** "the St. Joseph, Missouri, district", "the Springfield, Mo., school board": a city with its state, then a cue. */
const CITY_STATE_CUE = new RegExp(
  `((?:${CAP} +){0,2}${CAP}), ((?:[A-Z][a-z]+\\.?)(?: [A-Z][a-z]+\\.?)?),? +(school district|school board|school system|schools|district)\\b`,
  "g",
);
/** Names joined before a plural cue: "with Crookston and Fertile-Beltrami districts", "the Wayland, Weston and Sudbury school boards". */
const LIST_CUE = new RegExp(
  `((?:(?:${CAP} +){0,2}${CAP}, +)*(?:${CAP} +){0,2}${CAP}) +and +((?:${CAP} +){0,2}${CAP}) +(school districts|districts|school boards|school systems)\\b`,
  "g",
);
/** Words before a name saying it is a past employer or a place, not the district the article is about. */
const NOT_THE_SUBJECT = /\b(?:former|formerly(?: of| at| with)?|ex-)\s*$/i;
const POSSESSIVE = /\b(?:its|their|his|her|our)\s+$/i;
const NUMBERED = /\b(District|USD|ISD|Unit|SAD|MSAD|RSU|CUSD|CCSD|SD|Independent School District|School District No\.?)\s+(\d{1,4})\b/g;
const ACRONYM = /\b[A-Z][A-Z-]{1,6}[A-Z]\b/g;
const SCHOOL = new RegExp(
  `((?:${CAP} +){0,3}${CAP}) +((?:Senior |Junior )?High|Middle|Elementary(?:-Middle)?|Intermediate|Primary)\\s+School\\b`,
  "g",
);
/** The level words ending a school's name: "High School", "Elementary-Middle School". */
const SCHOOL_LEVEL_TAIL = /\s+(?:(?:Senior |Junior )?High|Middle|Elementary(?:-Middle)?|Intermediate|Primary)\s+School$/;
/** Words that start a sentence or a clause, not a name. */
const LEAD =
  /^(The|A|An|In|At|For|By|Of|On|And|But|After|Before|When|While|With|Voters|Officials|Trustees|Members|Leaders|Parents|Students|Teachers|Nearby|Neighboring|Both|All|Each|Several|Two|Three|Many|Some|This|That|Its|Their|His|Her|Our|Local|Rural|Suburban|Urban|Area|Public|Former|Interim|Acting|Superintendent|Board|Several|Other|Every|Last|Next|State|Federal|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Says|Said|(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Eleven|Twelve|Twenty|Thirty|Forty|Fifty)(?:-[a-z]+)?)\s+/;

function trimLead(name: string): { name: string; offset: number } {
  let offset = 0;
  for (let m = LEAD.exec(name); m && name.length > m[0].length; m = LEAD.exec(name)) {
    name = name.slice(m[0].length);
    offset += m[0].length;
  }
  return { name, offset };
}

export function findMentions(doc: string): Mention[] {
  const out: Mention[] = [];
  const seen = new Set<string>();
  const add = (m: Mention) => {
    const key = `${m.kind}|${m.core}|${m.numbers.join(",")}`;
    if (!m.core && !m.numbers.length) return;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(m);
  };
  const excluded = (index: number, text: string) =>
    NOT_A_DISTRICT.test(text) ||
    NOT_A_DISTRICT.test(doc.slice(Math.max(0, index - 30), index)) ||
    NOT_THE_SUBJECT.test(doc.slice(Math.max(0, index - 20), index));
  for (const m of doc.matchAll(SUFFIXED)) {
    const { offset } = trimLead(m[1]);
    const full = doc.slice(m.index + offset, m.index + m[0].length);
    if (excluded(m.index + offset, full)) continue;
    const key = nameKey(full);
    add({ text: full, index: m.index + offset, kind: "suffixed", core: key.core, numbers: key.numbers, suffix: m[2] });
  }
  for (const m of doc.matchAll(CUE)) {
    const { offset } = trimLead(m[1]);
    // "Dublin's schools", "Fort Worth ISD's board": the possessive is not part of the name.
    const full = doc.slice(m.index + offset, m.index + m[1].length).replace(/['’]s$/, "");
    if (excluded(m.index + offset, `${full} ${m[2]}`)) continue;
    // "its Los Angeles schools" (a charter network's): the place of someone's schools, not a district.
    if (m[2] === "schools" && POSSESSIVE.test(doc.slice(Math.max(0, m.index + offset - 8), m.index + offset))) continue;
    const key = nameKey(full);
    if (!key.core || key.core.split(" ").length > 4) continue;
    add({ text: full, index: m.index + offset, kind: "cue", core: key.core, numbers: key.numbers, suffix: m[2] });
  }
  for (const m of doc.matchAll(LIST_CUE)) {
    let at = m.index;
    for (const name of [...m[1].split(/, +/), m[2]]) {
      const index = doc.indexOf(name, at);
      at = index + name.length;
      const { name: trimmed, offset } = trimLead(name);
      if (excluded(index + offset, trimmed)) continue;
      const key = nameKey(trimmed);
      if (!key.core || key.core.split(" ").length > 4) continue;
      add({ text: trimmed, index: index + offset, kind: "cue", core: key.core, numbers: key.numbers, suffix: m[3] });
    }
  }
  for (const m of doc.matchAll(CITY_STATE_CUE)) {
    if (!findStates(`${m[1]}, ${m[2]},`).length) continue;
    const { offset } = trimLead(m[1]);
    const full = doc.slice(m.index + offset, m.index + m[1].length);
    if (excluded(m.index + offset, full)) continue;
    const key = nameKey(full);
    if (!key.core || key.core.split(" ").length > 4) continue;
    add({ text: full, index: m.index + offset, kind: "cue", core: key.core, numbers: key.numbers, suffix: m[3] });
  }
  for (const m of doc.matchAll(NUMBERED))
    add({ text: m[0], index: m.index, kind: "numbered", core: "", numbers: [String(Number(m[2]))], suffix: m[1] });
  for (const m of doc.matchAll(ACRONYM)) {
    const alias = m[0].replace(/-/g, "") === "MDCPS" ? "MDCPS" : m[0];
    if (DISTRICT_ALIASES.some((a) => a.alias === alias))
      add({ text: m[0], index: m.index, kind: "alias", core: alias, numbers: [], suffix: "" });
  }
  for (const m of doc.matchAll(SCHOOL)) {
    const { offset } = trimLead(m[1]);
    const full = doc.slice(m.index + offset, m.index + m[0].length);
    if (excluded(m.index + offset, full) || /^(St|Saint|Holy|Our Lady|Sacred)\b/.test(full)) continue;
    add({ text: full, index: m.index + offset, kind: "school", core: full, numbers: [], suffix: m[2] });
  }
  return out.sort((a, b) => a.index - b.index);
}

// ------------------------------------------------------------------------------------------------ resolution

const hostOf = (url: string | null | undefined): string | null => {
  if (!url) return null;
  try {
    return new URL(/^https?:/i.test(url) ? url : `http://${url}`).hostname.replace(/^www\./, "").toLowerCase();
  } catch {
    return null;
  }
};

const COLUMNS = "id, fed_id, name, state, physical_city, website_url, district_type_code, state_district_id";

function trigrams(s: string): Set<string> {
  const out = new Set<string>();
  for (const w of s.split(" ")) {
    const p = `  ${w} `;
    for (let i = 0; i < p.length - 2; i += 1) out.add(p.slice(i, i + 3));
  }
  return out;
}
/** pg_trgm's similarity, computed here on normalised cores (the SQL narrows, this compares). */
export function similarity(a: string, b: string): number {
  const x = trigrams(a);
  const y = trigrams(b);
  let shared = 0;
  for (const t of x) if (y.has(t)) shared += 1;
  return shared / (x.size + y.size - shared || 1);
}

/** Words naming a kind of district; shared ones between mention and name are evidence (0.1 each, at most 0.2). */
const KIND_WORDS =
  /\b(isd|cisd|usd|unified|ufsd|cusd|union|joint|public schools|community|consolidated|county|city|area|local|elementary|high|municipal|metropolitan|parish|regional)\b/g;

interface Scored {
  c: Candidate;
  score: number;
  why: string[];
  /** The normalised core of the name equals the mention's (not a County/City-aside or trigram match). */
  exact?: boolean;
}

function scoreCandidate(mention: Mention, c: Candidate): Scored | null {
  const key = nameKey(c.name);
  const m = nameKey(mention.text);
  let score: number;
  const why: string[] = [];
  let exact = false;
  if (key.core && key.core === m.core) {
    score = 1;
    exact = true;
    why.push(`name "${c.name}" matches "${mention.text}"`);
  } else if (key.loose && key.loose === m.loose) {
    score = 0.85;
    why.push(`name "${c.name}" matches "${mention.text}" (County/City aside)`);
  } else {
    const sim = similarity(m.core, key.core);
    if (sim < TRGM_MIN) return null;
    score = 0.8 * sim;
    why.push(`name "${c.name}" is similar to "${mention.text}" (trigram ${sim.toFixed(2)})`);
  }
  if (m.numbers.length) {
    const sdi = (c.state_district_id ?? "").replace(/^[A-Z]{2}-/, "");
    const numberOk = m.numbers.some((n) => key.numbers.includes(n) || new RegExp(`(^|\\D)0*${n}(\\D|$)`).test(sdi));
    if (!numberOk && key.numbers.length) return null;
    if (!numberOk) score -= 0.15;
    else why.push("number agrees");
  } else if (key.numbers.length && mention.kind !== "cue") score -= 0.05;
  if (m.levels.length && key.levels.length && !m.levels.some((l) => key.levels.includes(l))) score -= 0.2;
  // A high school district is called one ("Escondido Union High"); "Escondido Union" is the other district.
  else if (!m.levels.length && key.levels.includes("high")) score -= 0.1;
  // "Franklin County" is not "Franklin City Public Schools" (nor the reverse); a bare "Douglas" may be either.
  const words = (k: NameKey) => new Set(k.core.split(" "));
  const [mw, kw] = [words(m), words(key)];
  if ((mw.has("county") && kw.has("city") && !kw.has("county")) || (mw.has("city") && kw.has("county") && !kw.has("city"))) {
    score -= 0.2;
    why.push("County and City disagree");
  }
  // The kind of district the mention says ("ISD", "Unified", "Public Schools", "Joint Union High") agreeing with the name.
  const kinds = (s: string) => new Set(s.toLowerCase().match(KIND_WORDS) ?? []);
  const mentionKinds = kinds(mention.text);
  const shared = [...kinds(c.name)].filter((k) => mentionKinds.has(k));
  if (shared.length) {
    score += Math.min(0.2, 0.1 * shared.length);
    why.push(`both say ${shared.join(", ")}`);
  }
  if (m.numbers.length && m.numbers.some((n) => key.numbers.includes(n))) score += 0.1;
  return { c, score, why, exact };
}

export interface ResolveInput {
  doc: string;
  domain: string | null;
  url: string;
  origin_district_id?: string | null;
}

// ------------------------------------------------------------------------------------------------ state inference

/** An abbreviation in a directory name, spelt out to compare with the words around a numbered mention. */
const SPELLED: Record<string, string> = {
  hsd: "high school district", chsd: "community high school district", ccsd: "community consolidated school district",
  cusd: "community unit school district", esd: "elementary school district", cesd: "community elementary school district",
  ud: "unit district", sd: "school district", isd: "independent school district", usd: "unified school district",
  twp: "township", cons: "consolidated", comm: "community", elem: "elementary", rsu: "regional school unit",
  msad: "maine school administrative district", sad: "school administrative district", h: "high", s: "school",
}; // prettier-ignore
const CONTEXT_STOP = new Set(["school", "schools", "district", "of", "the", "no", "public", "unit"]);

/** The words of a directory name, abbreviations spelt out ("Township HSD 211" -> township, high). */
function spelledWords(name: string): Set<string> {
  const words = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ");
  return new Set(words.flatMap((w) => (SPELLED[w] ?? w).split(" ")).filter((w) => w.length > 1 && !/^\d/.test(w) && !CONTEXT_STOP.has(w)));
}

/** Hosts an outlet's own domain and its parents down to two labels ("bhs.bayfield.k12.co.us" -> ..., "bayfield.k12.co.us"). */
function hostChain(host: string): string[] {
  const labels = host.split(".");
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i += 1) out.push(labels.slice(i).join("."));
  return out;
}

interface SiteIndex {
  stamp: string;
  at: number;
  /** Districts by their website's host (without www); root: the website is a site's root, not a page on it. */
  byHost: Map<string, (Candidate & { root: boolean })[]>;
}
const siteIndexes = new WeakMap<Db, SiteIndex>();
/** The host index is rebuilt when a district is added or updated (max last_updated_at) and at least this often. */
const SITE_INDEX_MS = 10 * 60_000;

/** Districts by website host, read once per database and kept while the directory is unchanged (one indexed max). */
async function siteIndex(db: Db): Promise<SiteIndex> {
  const [{ t }] = await db.query<{ t: Date | string | null }>("SELECT max(last_updated_at) AS t FROM districts");
  const stamp = t ? new Date(t).toISOString() : "";
  const cached = siteIndexes.get(db);
  if (cached && cached.stamp === stamp && Date.now() - cached.at < SITE_INDEX_MS) return cached;
  const byHost: SiteIndex["byHost"] = new Map();
  for (const c of await db.query<Candidate>(`SELECT ${COLUMNS} FROM districts WHERE website_url IS NOT NULL`)) {
    const host = hostOf(c.website_url);
    if (!host) continue;
    const root = /^([a-z]+:\/\/)?[^/?#]+\/?$/i.test(c.website_url?.trim() ?? "");
    byHost.set(host, [...(byHost.get(host) ?? []), { ...c, root }]);
  }
  const index = { stamp, at: Date.now(), byHost };
  siteIndexes.set(db, index);
  return index;
}

/**
 * The district whose own website the outlet is: its website's host (without www) equals the outlet's host or a
 * parent of it ("fhs.fusdaz.com" -> fusdaz.com), the website is a site's root (not a page on a shared host such as
 * a social network), and no other district gives the same host.
 */
async function outletDistrict(db: Db, outlet: string | null): Promise<Candidate | null> {
  if (!outlet) return null;
  const chain = hostChain(outlet).filter((h) => h.split(".").length >= 2 && !/^(k12\.)?[a-z]{2}\.us$/.test(h));
  if (!chain.length) return null;
  const { byHost } = await siteIndex(db);
  // The most specific host that names exactly one district, and that district's site is the host's root.
  for (const host of chain) {
    const mine = byHost.get(host) ?? [];
    if (mine.length === 1 && mine[0].root && DISTRICT_TYPES.includes(mine[0].district_type_code ?? "")) return mine[0];
    if (mine.length) return null;
  }
  return null;
}

/** City names written as places: "in San Jose", "in Memphis" (at most three capitalised words). */
const IN_CITY = /\bin ([A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2})\b/g;
/** Capitalised words after "in" that are times, seasons or bodies, never the city meant ("in May", "in Congress"). */
const NOT_A_CITY =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|fall|autumn|winter|congress|court|english|spanish|math|science|reading|history|person|kindergarten|grade|title|the)$/;
/** An AP dateline without a state (the big cities AP writes alone): "HOUSTON (AP) —" at a paragraph's start. */
const CITY_DATELINE = /(?:^|\n)\s*([A-Z][A-Z .'-]{2,}[A-Z])\s*(?:\([^)]*\)\s*)?[—–-]\s/g;

export interface InferredStates {
  states: string[];
  why: string;
}

/**
 * The state(s) of an article that names none, from (in order): the outlet's domain under a state's .us domain
 * ("bayfield.k12.co.us"); the outlet being a district's own website; a dateline city or a city written "in <City>"
 * that is the city of districts in one state only; the outlet's leading label being such a city or a state's name
 * ("italy.neotrib.com", "texas.example.com"). Empty when nothing says.
 */
export async function inferStates(db: Db, doc: string, outlet: string | null, site: Candidate | null): Promise<InferredStates> {
  const out = new Map<string, string>();
  const usDomain = outlet && /\.([a-z]{2})\.us$/.exec(outlet);
  if (usDomain && STATES[usDomain[1].toUpperCase()]) out.set(usDomain[1].toUpperCase(), `its outlet's domain ends in .${usDomain[1]}.us`);
  if (site) out.set(site.state, `its outlet is the website of ${site.name} (${site.state})`);
  if (!out.size) {
    const cities = new Map<string, string>();
    for (const m of doc.matchAll(CITY_DATELINE)) cities.set(m[1].toLowerCase(), `the dateline ${m[1]}`);
    for (const m of doc.matchAll(IN_CITY)) cities.set(m[1].toLowerCase(), `"in ${m[1]}"`);
    const label = outlet?.replace(/^www\./, "").split(".")[0] ?? "";
    if (outlet && outlet.split(".").length >= 3 && label.length >= 4) {
      const state = Object.entries(STATES).find(([, v]) => v.name.toLowerCase().replace(/ /g, "") === label);
      if (state) out.set(state[0], `its outlet's domain starts with ${label}`);
      else cities.set(label, `its outlet's domain starts with ${label}`);
    }
    const names = [...cities.keys()].filter(
      (c) => c.length >= 4 && !NOT_A_CITY.test(c) && !findStates(c.replace(/\b\w/g, (x) => x.toUpperCase())).length,
    );
    if (names.length && !out.size) {
      const rows = await db.query<{ city: string; states: string[] }>(
        `SELECT lower(replace(physical_city, ' ', '')) AS city, array_agg(DISTINCT state) AS states FROM districts
          WHERE lower(replace(physical_city, ' ', '')) = ANY($1) AND district_type_code = ANY($2) GROUP BY 1`,
        [names.map((n) => n.replace(/ /g, "")), DISTRICT_TYPES],
      );
      for (const r of rows)
        if (r.states.length === 1) {
          const name = names.find((n) => n.replace(/ /g, "") === r.city) ?? r.city;
          out.set(r.states[0], `${cities.get(name)} is a city of districts in ${r.states[0]} only`);
        }
    }
  }
  return { states: [...out.keys()], why: [...out.values()].join("; ") };
}

// ------------------------------------------------------------------------------------------------ resolution

/** The districts (and schools) an article is about. */
export async function resolveEntities(db: Db, input: ResolveInput): Promise<Resolution> {
  if (input.origin_district_id) {
    const [d] = await db.query<Candidate>(`SELECT ${COLUMNS} FROM districts WHERE id = $1`, [input.origin_district_id]);
    if (d)
      return {
        status: "resolved",
        districts: [
          { id: d.id, fed_id: d.fed_id, name: d.name, state: d.state, confidence: 0.99, reason: "published on the district's own website" },
        ],
        reason: "published on the district's own website",
        confidence: 0.99,
      };
  }
  const doc = input.doc;
  const stateMentions = findStates(doc);
  const named = new Set(stateMentions.map((s) => s.state));
  if (FOREIGN.test(doc) && !named.size)
    return { status: "unresolved", districts: [], reason: "the article is about schools outside the United States", confidence: 0.9 };
  const mentions = findMentions(doc);
  const outlet = hostOf(input.domain) ?? hostOf(input.url);
  const site = await outletDistrict(db, outlet);
  const inferred = named.size ? { states: [], why: "" } : await inferStates(db, doc, outlet, site);
  const lowerDoc = doc.toLowerCase();
  // The text without the mentions themselves: a district's city counts as context only when named elsewhere
  // ("Hays CISD" does not name the city of Hays, Kansas).
  let masked = lowerDoc;
  for (const m of mentions)
    if (m.kind !== "numbered" && m.kind !== "alias")
      masked = masked.replace(new RegExp(escapeRegExp(m.text.toLowerCase()), "g"), (x) => " ".repeat(x.length));
  // Split once per article (only needed when it names several states), not once per mention.
  const docSentences = named.size > 1 ? sentences(doc) : [];
  const sentenceOf = (index: number) => {
    const s = docSentences.find((x) => index >= x.start && index < x.end);
    return s ? findStates(s.text).map((x) => x.state) : [];
  };
  const resolved = new Map<string, Resolution["districts"][number]>();
  let ambiguous: string | null = null;

  type Outcome = "resolved" | "ambiguous" | "none";
  const resolveMention = async (mention: Mention, states: Set<string>, stateWhy: string | null): Promise<Outcome> => {
    let scored: Scored[];
    let national = false;
    if (mention.kind === "alias") {
      const aliases = DISTRICT_ALIASES.filter((a) => a.alias === mention.core);
      const candidates = await db.query<Candidate>(`SELECT ${COLUMNS} FROM districts WHERE fed_id = ANY($1)`, [
        aliases.map((a) => a.fedId),
      ]);
      // An alias that needs its state also resolves when the text names the district's city ("SCS ... in Memphis").
      const cityNamed = (c: Candidate) =>
        !!c.physical_city && new RegExp(`\\b${escapeRegExp(c.physical_city.toLowerCase())}\\b`).test(lowerDoc);
      scored = candidates
        .filter((c) => aliases.some((a) => a.fedId === c.fed_id && (!a.needsState || states.has(a.state) || cityNamed(c))))
        .map((c) => ({ c, score: 1, why: [`"${mention.text}" is the documented alias of ${c.name}`] }));
      if (!scored.length) return "none";
    } else if (mention.kind === "numbered") {
      if (!states.size) return "none";
      const candidates = await db.query<Candidate>(
        `SELECT ${COLUMNS} FROM districts WHERE state = ANY($1) AND district_type_code = ANY($2)
           AND (name ~ ('(^|\\D)0*' || $3 || '(\\D|$)') OR state_district_id ~ ('(^[A-Z]{2}-|\\D)(D|01)?0*' || $3 || '0?(\\D|$)'))`,
        [[...states], DISTRICT_TYPES, mention.numbers[0]],
      );
      // The words just before the number ("Township High School District 211", "Maine School Administrative
      // District 55") against the candidate's name with its abbreviations spelt out.
      // Every place the number is written counts (a headline's bare "District 211" has no words before it).
      const context = new Set(
        [...doc.matchAll(new RegExp(escapeRegExp(mention.text), "g"))].flatMap((m) =>
          doc
            .slice(Math.max(0, m.index - 45), m.index + m[0].length)
            .toLowerCase()
            .split(/[^a-z]+/),
        ),
      );
      scored = candidates.map((c) => {
        const inName = nameKey(c.name).numbers.includes(mention.numbers[0]);
        const kind = mention.suffix.toLowerCase().replace(/^m?sad$/, "m?sad");
        const sameKind = new RegExp(`\\b${kind}\\b`, "i").test(c.name);
        const shared = [...spelledWords(c.name)].filter((w) => context.has(w));
        const why = [`"${mention.text}" is the number of ${c.name} (${c.state})`];
        if (shared.length) why.push(`the words before it say ${shared.join(", ")}`);
        return { c, score: 0.7 + (inName ? 0.1 : 0) + (sameKind ? 0.1 : 0) + Math.min(0.2, 0.1 * shared.length), why };
      });
    } else if (mention.kind === "school") {
      if (!states.size) return "none";
      const rows = await db.query<Candidate & { school_id: string; school_name: string }>(
        `SELECT d.id, d.fed_id, d.name, d.state, d.physical_city, d.website_url, d.district_type_code, d.state_district_id,
                s.id AS school_id, s.name AS school_name
           FROM schools s JOIN districts d ON d.id = s.district_id
          WHERE s.state = ANY($1) AND lower(s.name) = lower($2)`,
        [[...states], mention.text],
      );
      scored = rows.map((r) => ({ c: r, score: 0.85, why: [`school "${r.school_name}" of ${r.name}`] }));
      if (!rows.length) {
        // A school the schools table does not have, named after its town ("Sturgeon Elementary-Middle School"):
        // the one district of the named states called by that town's name and sitting in that town.
        const town = nameKey(mention.text.replace(SCHOOL_LEVEL_TAIL, "")).core;
        const towns = town
          ? await db.query<Candidate>(
              `SELECT ${COLUMNS} FROM districts WHERE state = ANY($1) AND district_type_code = ANY($2)
                 AND lower(physical_city) = $3 AND $3 <% name`,
              [[...states], DISTRICT_TYPES, town],
            )
          : [];
        const named = towns.filter((c) => nameKey(c.name).core === town);
        if (named.length === 1)
          scored = [
            { c: named[0], score: 0.8, why: [`"${mention.text}" is named after ${named[0].physical_city}, the town of ${named[0].name}`] },
          ];
      }
    } else {
      if (!mention.core || mention.core.length < 3) return "none";
      const lookup = async (within: string[] | null) => {
        // The name as written, then without its first words ("Lisa Noonan The Douglas County School District").
        const words = mention.text.split(" ");
        let found: Scored[] = [];
        for (let drop = 0; drop < Math.min(3, words.length) && !found.length; drop += 1) {
          const text = words.slice(drop).join(" ");
          const { core, loose } = nameKey(text);
          const variant: Mention = { ...mention, text, core };
          // Never a bare "County" or "City" left ("Forsyth County Schools" -> "County Schools").
          if (!variant.core || variant.core.length < 3 || !loose) break;
          // Also by the core without County/City (`loose`): the directory names many county districts by the county
          // alone ("Douglas" for Douglas County School District, Nevada).
          const candidates = await db.query<Candidate>(
            `SELECT ${COLUMNS} FROM districts
              WHERE ($1 <% name OR ($4::text IS NOT NULL AND $4 <% name)) AND district_type_code = ANY($2)
                AND ($3::text[] IS NULL OR state = ANY($3))
              ORDER BY word_similarity($1, name) DESC, similarity($1, name) DESC LIMIT 300`,
            [variant.core, DISTRICT_TYPES, within, loose && loose !== variant.core && loose.length >= 3 ? loose : null],
          );
          found = candidates.map((c) => scoreCandidate(variant, c)).filter((x): x is Scored => x !== null && x.score >= 0.6);
        }
        return found;
      };
      scored = await lookup(states.size ? [...states] : null);
      // A district's full name ("Fort Worth ISD") in an article whose named states are other districts' (Maryland):
      // looked up nationally, as in an article naming no state.
      if (!scored.length && states.size && mention.kind === "suffixed") {
        scored = await lookup(null);
        national = true;
      }
    }
    if (!scored.length) return "none";
    // Context.
    const sentenceStates = named.size > 1 ? sentenceOf(mention.index) : [];
    for (const s of scored) {
      const city = s.c.physical_city?.toLowerCase();
      const cityWord = city && city.length >= 4 ? new RegExp(`\\b${escapeRegExp(city)}\\b`) : null;
      if (cityWord?.test(masked)) {
        s.score += 0.15;
        s.why.push(`its city ${s.c.physical_city} is named`);
      } else if (cityWord?.test(lowerDoc)) {
        // Named only inside a district's name: a district named after its own city, weak evidence.
        s.score += 0.05;
        s.why.push(`named after its city ${s.c.physical_city}`);
      }
      const siteHost = hostOf(s.c.website_url);
      if (siteHost && outlet && (siteHost === outlet || outlet.endsWith(`.${siteHost}`))) {
        s.score += 0.3;
        s.why.push(`published on its website domain ${siteHost}`);
      }
      // Several states named ("Monroe County schools in Florida"): the one in the mention's own sentence.
      if (sentenceStates.includes(s.c.state) && sentenceStates.length < named.size) {
        s.score += 0.1;
        s.why.push(`${s.c.state} is named in the same sentence`);
      }
      if (s.c.district_type_code === "1" || s.c.district_type_code === "2") s.score += 0.02;
    }
    if (states.size && !national) {
      const inState = scored.filter((s) => states.has(s.c.state));
      const byDomain = scored.filter((s) => s.why.some((w) => w.startsWith("published on")));
      scored = inState.length ? inState : byDomain;
      for (const s of scored)
        if (states.has(s.c.state)) s.why.push(stateWhy ? `${s.c.state}: ${stateWhy}` : `the article names ${s.c.state}`);
    } else if (!(mention.kind === "suffixed" || mention.kind === "alias")) {
      // A bare name with a lower-case cue and no state: the outlet's own domain, or one exact name nationally
      // (a multi-word or long core, so "Lincoln" or "Washington" never qualify alone).
      const exact = scored.filter((s) => s.score >= 1);
      const distinctive = mention.core.includes(" ") || mention.core.length >= 8;
      scored = scored.filter((s) => s.why.some((w) => w.startsWith("published on")));
      if (!scored.length && exact.length === 1 && distinctive) scored = exact;
    }
    if (!scored.length) return "none";
    // A candidate whose whole normalised name is the mention's beats the fuzzy ones, whatever their context.
    if (scored.some((s) => s.exact)) scored = scored.filter((s) => s.exact);
    scored.sort((a, b) => b.score - a.score);
    const [best, next] = scored;
    if (next && best.score - next.score < MARGIN - 1e-9 && next.c.id !== best.c.id) {
      ambiguous ??= `"${mention.text}" matches ${scored.length} districts (${scored
        .slice(0, 4)
        .map((s) => `${s.c.name}, ${s.c.state}`)
        .join("; ")}${scored.length > 4 ? "; ..." : ""}); none chosen`;
      return "ambiguous";
    }
    const noState = (!states.size || national) && !best.why.some((w) => w.startsWith("published on"));
    const confidence = Math.round(Math.min(0.98, (noState ? 0.6 : stateWhy ? 0.65 : 0.7) + best.score * 0.25) * 100) / 100;
    const prior = resolved.get(best.c.id);
    if (!prior || prior.confidence < confidence)
      resolved.set(best.c.id, {
        id: best.c.id,
        fed_id: best.c.fed_id,
        name: best.c.name,
        state: best.c.state,
        confidence,
        reason: best.why.join("; ") + (noState ? "; no state named, unique name nationally" : ""),
        school_id: (best.c as Candidate & { school_id?: string }).school_id,
      });
    return "resolved";
  };

  const firstStates = named.size ? named : new Set(inferred.states);
  const firstWhy = named.size ? null : inferred.why || null;
  const pending: Mention[] = [];
  for (const mention of mentions) if ((await resolveMention(mention, firstStates, firstWhy)) !== "resolved") pending.push(mention);
  // No state anywhere, but the names that resolved nationally (full names, aliases) all lie in one state: the
  // article's other mentions are read in that state ("San Ysidro School District ... Lakeside Union").
  const found = new Set([...resolved.values()].map((d) => d.state));
  if (!firstStates.size && found.size === 1 && pending.length) {
    const [state] = found;
    for (const mention of pending) await resolveMention(mention, new Set([state]), `the article's other districts are in ${state}`);
  }
  // An article on a district's own website that names no district that resolves is about that district.
  if (!resolved.size && site)
    resolved.set(site.id, {
      id: site.id,
      fed_id: site.fed_id,
      name: site.name,
      state: site.state,
      confidence: 0.9,
      reason: `published on its website domain ${hostOf(site.website_url)}`,
    });
  if (resolved.size) {
    const districts = [...resolved.values()];
    return {
      status: "resolved",
      districts,
      reason: districts.map((d) => d.reason).join(" | "),
      confidence: Math.max(...districts.map((d) => d.confidence)),
    };
  }
  if (ambiguous) return { status: "ambiguous", districts: [], reason: ambiguous, confidence: 0.3 };
  return {
    status: "unresolved",
    districts: [],
    reason: mentions.length
      ? "no public school district in the directory matches the names in the text"
      : "the text names no school district",
    confidence: mentions.length ? 0.5 : 0.7,
  };
}
