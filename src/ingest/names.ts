/**
 * Name handling shared by the operator-producing ingestors: normalized names (the matching key across
 * Head Start, licensing rosters and the IRS file), slugs, operator kinds, and the guards that keep
 * school districts and private persons out of the operators table.
 */
import crypto from "node:crypto";

const LEGAL_SUFFIXES = new Set([
  "inc",
  "incorporated",
  "llc",
  "lc",
  "corp",
  "corporation",
  "co",
  "company",
  "ltd",
  "limited",
  "pllc",
  "llp",
  "lp",
  "pc",
  "nfp",
]);

function words(name: string): string[] {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’`]/g, "")
    .replace(/\bl\.\s?l\.\s?c\b/g, "llc")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
}

/**
 * Matching key for organizations: lowercase ASCII words, "&" as "and", no punctuation, no leading
 * "the" and no trailing legal form ("Acme Kids, Inc." and "ACME KIDS INC" are the same organization).
 */
export function normalizeName(name: string): string {
  const w = words(name);
  while (w.length > 1 && (LEGAL_SUFFIXES.has(w[w.length - 1]!) || w[w.length - 1] === "the")) w.pop();
  while (w.length > 1 && w[0] === "the") w.shift();
  return w.join(" ");
}

const DISTRICT_ABBREVIATIONS: Record<string, string> = {
  sch: "school",
  schl: "school",
  schs: "schools",
  corp: "corporation",
  dist: "district",
  dst: "district",
  comm: "community",
  cmty: "community",
  com: "community",
  pub: "public",
  co: "county",
  cnty: "county",
  twp: "township",
  cons: "consolidated",
  con: "consolidated",
  consol: "consolidated",
  reg: "regional",
  ind: "independent",
  indep: "independent",
  elem: "elementary",
  sd: "school district",
  isd: "independent school district",
  usd: "unified school district",
  ps: "public schools",
  mt: "mount",
  st: "saint",
  ft: "fort",
  no: "number",
};

/** Matching key for school district names: also expands CCD abbreviations ("Sch Corp", "ISD"). */
export function districtKey(name: string): string {
  return words(name)
    .map((w) => DISTRICT_ABBREVIATIONS[w] ?? w)
    .join(" ")
    .replace(/\bthe\b/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Names that say "school district" (the operators table is for organizations that are not districts). */
const DISTRICT_NAME =
  /\b(public schools?|school district|school dist|school corporation|school corp|community schools|city schools|county schools|local schools|consolidated schools|area schools|unified school district|independent school district|board of education|school board|schools district)( (no\.?|number|#)? ?\d+[a-z]?)?$/i;

export function looksLikeSchoolDistrict(name: string): boolean {
  return DISTRICT_NAME.test(name.trim().replace(/[.,]+$/, ""));
}

const ORGANIZATION_WORDS =
  /\b(inc|llc|l\.l\.c|corp|co|company|ltd|church|school|schools|academy|center|centre|centers|care|child|children|childrens|kids|kid|learning|preschool|daycare|day|montessori|ymca|ywca|club|community|association|society|foundation|council|services|service|agency|ministry|ministries|parish|diocese|university|college|county|city|town|village|state|department|board|district|corporation|group|enterprises|education|educational|program|programs|head|start|development|home|house|family|families|place|camp|park|zoo|united|first|saint|st|lutheran|catholic|methodist|baptist|presbyterian|christian|jewish|temple|synagogue|mosque|partners|partnership|network|institute|trust|fund|project|youth|boys|girls|little|tiny|early|bright|happy|sunshine|rainbow|discovery|explorers|adventures|world|place|nursery|playhouse|house|tots|cub|cubs|bees|stars|inc\.)\b/i;

/**
 * A licensee that is a private person ("Jane Q. Doe", "Dr. Kathy L. Guajardo"): two to four words, no
 * word that marks an organization. Persons are kept as the center's licensee_name but never become
 * operators (operators are organizations).
 */
export function looksLikePerson(name: string): boolean {
  // "Jarren Rogers, Pastor of ..." is a person with a title; "Faith Church, Inc." is not.
  const [first = "", ...rest] = name.split(",");
  if (rest.length && !/\b(inc|llc|corp|ltd|co)\b/i.test(rest.join(",")) && isPersonName(first)) return true;
  return isPersonName(name);
}

function isPersonName(name: string): boolean {
  const cleaned = name
    .trim()
    .replace(/^(dr|mr|mrs|ms|rev|pastor)\.?\s+/i, "")
    .replace(/\s+-\s+/g, "-");
  if (ORGANIZATION_WORDS.test(cleaned) || /\d/.test(cleaned)) return false;
  const parts = cleaned.split(/[\s,]+/).filter(Boolean);
  return parts.length >= 2 && parts.length <= 4 && parts.every((p) => /^[A-Za-z][A-Za-z.'-]*$/.test(p));
}

export type OperatorKind = "nonprofit" | "company" | "government" | "tribe" | "church" | "other";

const TRIBE =
  /\b(tribe|tribes|tribal|nation|band of|pueblo|rancheria|indian community|native village|reservation|confederated|chickasaw|cherokee|choctaw|navajo|sioux|ojibwe|chippewa)\b/i;
const GOVERNMENT =
  /(^(city|county|town|village|borough|state|township|parish|municipality|commonwealth|municipio) (of|de)\b)|\b(county (board|commission|commissioners|government)|board of (county )?commissioners|department of|dept\.? of|public health|housing authority|community college|state university|government|gobierno|municipio)\b/i;
/** "... County" alone says government only when nothing else says nonprofit ("Community Action of X County"). */
const WEAK_GOVERNMENT = /\b(county|parish|city)$/i;
const CHURCH =
  /\b(church|parish|diocese|archdiocese|congregation|synagogue|temple|mosque|ministry|ministries|chapel|assembly of god|tabernacle)\b/i;
const CHARITY_WORDS = /\b(charities|social services|family services|services|school board|school district)\b/i;
const COMPANY =
  /\b(llc|l\.l\.c|ltd|pllc|llp|lp)\b|\b(kindercare|la petite|childtime|learning care group|bright horizons|goddard|primrose|cadence education|kiddie academy|tutor time|learning experience|lightbridge|guidepost)\b/i;
const NONPROFIT =
  /\b(ymca|ywca|young mens christian|young womens christian|boys and girls|boys & girls|community action|action|head start|foundation|association|society|council|united way|salvation army|goodwill|charities|opportunit|coalition|league|alliance|institute|family service|child development|economic|catholic|lutheran|methodist|presbyterian|episcopal|jewish|easter ?seals|arc of|volunteers of america|not for profit|nonprofit|services)\b/i;

/** Kind from the name alone; the IRS ingest later marks matched exempt organizations as nonprofit or church. */
export function kindFromName(name: string, fallback: OperatorKind): OperatorKind {
  const cleaned = normalizeName(name);
  if (TRIBE.test(cleaned)) return "tribe";
  if (GOVERNMENT.test(cleaned)) return "government";
  if (CHURCH.test(cleaned) && !CHARITY_WORDS.test(cleaned)) return "church";
  if (COMPANY.test(name)) return "company";
  if (NONPROFIT.test(cleaned)) return "nonprofit";
  if (WEAK_GOVERNMENT.test(cleaned) && !/\bof\b/.test(cleaned)) return "government";
  return fallback;
}

export function shortHash(key: string, length = 8): string {
  return crypto.createHash("sha1").update(key).digest("hex").slice(0, length);
}

/** "lowercase-name-state-shortid": readable, stable for the same publisher key, unique in practice. */
export function slug(name: string, state: string | null, key: string): string {
  const base = words(name).join("-").slice(0, 80).replace(/-+$/, "") || "unnamed";
  return [base, state?.toLowerCase(), shortHash(key)].filter(Boolean).join("-");
}

/** Chain key of a licensee: its normalized name as a slug, the same in every state. */
export function chainKey(licensee: string): string {
  return normalizeName(licensee).replace(/ /g, "-");
}

/** Strips stray wrapping backslashes and collapses whitespace (Indiana's "\\St. Joseph Daycare\\"). */
export function cleanName(name: string): string {
  return name
    .replace(/^[\\\s]+|[\\\s]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
