/**
 * A project's ideal customer profile (issue 23): what the project sells into, the input of the opportunity agent.
 * Every property is optional; a property not declared here, or a value of the wrong shape, is a 400 naming it
 * (`icp.states[1] ...`). The one definition: the check, the field dictionary and the MCP tool follow it.
 */
import { BadRequestError } from "../../../graphql/errors";
import { LocaleBucket, SIGNAL_TYPES, VendorCategory } from "../../kits/common/enums";

const ENTITY_TYPES = ["district", "school"] as const;
const LOCALES = Object.values(LocaleBucket) as string[];
const VENDOR_CATEGORIES = Object.values(VendorCategory) as string[];
const ICP_SIGNAL_TYPES = SIGNAL_TYPES.filter((type) => type !== "noise") as string[];
const KEYWORD_MAX = 100;
const LIST_MAX = 60;
/** Beyond any district's enrollment (New York City: about 900,000). */
const ENROLLMENT_MAX = 10_000_000;

type Check = (value: unknown, at: string) => unknown;

const fail = (at: string, message: string): never => {
  throw new BadRequestError(`${at} ${message}`);
};

/** A list of distinct values, each checked; at most LIST_MAX. */
const listOf =
  (item: (value: unknown, at: string) => string): Check =>
  (value, at) => {
    if (!Array.isArray(value)) fail(at, "must be an array");
    const items = value as unknown[];
    if (items.length > LIST_MAX) fail(at, `must have at most ${LIST_MAX} values`);
    return [...new Set(items.map((v, i) => item(v, `${at}[${i}]`)))];
  };

const oneOf =
  (allowed: readonly string[]) =>
  (value: unknown, at: string): string =>
    typeof value === "string" && allowed.includes(value) ? value : fail(at, `must be one of ${allowed.join(", ")}`);

const stateCode = (value: unknown, at: string): string =>
  typeof value === "string" && /^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : fail(at, "must be a two-letter state code");

const keyword = (value: unknown, at: string): string => {
  const text = typeof value === "string" ? value.trim() : "";
  return text.length >= 1 && text.length <= KEYWORD_MAX ? text : fail(at, `must be text of 1 to ${KEYWORD_MAX} characters`);
};

const enrollment: Check = (value, at) =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= ENROLLMENT_MAX
    ? value
    : fail(at, `must be a whole number of students from 0 to ${ENROLLMENT_MAX}`);

/** Each property: its check and its description (field dictionary, MCP tool, README). */
export const ICP_PROPERTIES: Readonly<Record<string, { check: Check; description: string }>> = {
  states: { check: listOf(stateCode), description: "Two-letter codes of the states the team sells in (upper-cased)." },
  entity_types: { check: listOf(oneOf(ENTITY_TYPES)), description: "Who it sells to: district, school." },
  min_enrollment: { check: enrollment, description: "Smallest enrollment (the record's student_count) of a fit." },
  max_enrollment: { check: enrollment, description: "Largest enrollment of a fit; not below min_enrollment." },
  locales: { check: listOf(oneOf(LOCALES)), description: `Locales of a fit: ${LOCALES.join(", ")}.` },
  signal_types: {
    check: listOf(oneOf(ICP_SIGNAL_TYPES)),
    description: "Signal types of interest (the signal_type values of GET /signals, noise aside).",
  },
  vendor_categories_sold: {
    check: listOf(oneOf(VENDOR_CATEGORIES)),
    description: `Vendor categories the team sells: ${VENDOR_CATEGORIES.join(", ")}.`,
  },
  vendor_categories_displaced: {
    check: listOf(oneOf(VENDOR_CATEGORIES)),
    description: "Vendor categories whose incumbents it replaces (same values).",
  },
  keywords: { check: listOf(keyword), description: `Words or phrases of interest, 1 to ${KEYWORD_MAX} characters each.` },
};

export type Icp = Record<string, unknown>;

/** The checked profile (values normalised: states upper-cased, lists without repeats), or null. */
export function checkIcp(value: unknown): Icp | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw new BadRequestError("icp must be a JSON object or null");
  const checked: Icp = {};
  for (const [property, raw] of Object.entries(value as Record<string, unknown>)) {
    // Own properties only: "constructor" or "__proto__" in a body must be refused, not found on Object's prototype.
    const definition = Object.hasOwn(ICP_PROPERTIES, property) ? ICP_PROPERTIES[property] : undefined;
    if (!definition)
      throw new BadRequestError(`icp.${property} is not a profile property; known: ${Object.keys(ICP_PROPERTIES).join(", ")}`);
    checked[property] = definition.check(raw, `icp.${property}`);
  }
  const { min_enrollment: min, max_enrollment: max } = checked as { min_enrollment?: number; max_enrollment?: number };
  if (min !== undefined && max !== undefined && min > max)
    throw new BadRequestError("icp.min_enrollment must not exceed icp.max_enrollment");
  return checked;
}
