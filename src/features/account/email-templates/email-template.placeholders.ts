/**
 * The placeholders of e-mail templates (`{{name}}` in a subject or body), their meaning and what happens when
 * there is no value: `fallback` text when it has one, else the whole line holding it is left out (templates put
 * each sentence with an optional placeholder on its own line). docs/outreach.md lists them; the outreach feature
 * (src/features/research/outreach/) computes the values and the template provider
 * (src/features/research/text-generation/template.provider.ts) fills them in.
 */

export interface Placeholder {
  name: string;
  description: string;
  /** Text used when the value is missing; without one, a line holding the placeholder is dropped. */
  fallback?: string;
}

export const PLACEHOLDERS: readonly Placeholder[] = [
  { name: "contact.name", description: "The contact's full name as the catalogue lists it (always present)." },
  {
    name: "contact.first_name",
    description: "The first word of the contact's name (a leading Dr., Mr., Mrs., Ms. is skipped).",
    fallback: "there",
  },
  { name: "contact.title", description: "The contact's job title; missing when the catalogue has none." },
  { name: "entity.name", description: "The name of the contact's school (school_id set) or else district (always present)." },
  { name: "entity.type", description: "district or school." },
  { name: "entity.city", description: "The entity's physical city; missing when unknown." },
  { name: "entity.state", description: "The entity's state (two letters); missing when unknown." },
  { name: "entity.enrollment", description: "The entity's student count, with thousands separators (12,345); missing when unknown." },
  {
    name: "signal.summary",
    description:
      "The summary of the entity's latest news signal other than noise (by signal_date, then when it was found); missing when there is none.",
  },
  { name: "signal.date", description: "That signal's date (e.g. October 5, 2026); missing when it has none." },
  {
    name: "opportunity.title",
    description: "The title of the caller's organization's latest opportunity for the entity; missing when there is none.",
  },
  { name: "opportunity.why_now", description: "That opportunity's why_now text; missing when there is none or it has none." },
  {
    name: "bid.title",
    description:
      "The title of the entity's open bid (RFP) the organization saved (PUT /bids/{id}/filing, action save), else its latest open bid the organization has not set aside or marked not useful; read only while the organization has the entity unlocked; missing otherwise.",
  },
  { name: "bid.deadline", description: "That bid's deadline (e.g. December 1, 2026, UTC date); missing when it has none." },
  { name: "sender.organization", description: "The caller's organization's name (always present)." },
];

/** The raw values of the placeholders (null or blank: none). */
export type PlaceholderValues = Partial<Record<string, string | null>>;

const BY_NAME = new Map(PLACEHOLDERS.map((p) => [p.name, p]));

/**
 * What the placeholders `used` stand for: each value, else its fallback, else null (the template provider then
 * leaves the line out); `missing` names those without a value (fallback used or line left out).
 */
export function placeholderValues(
  used: readonly string[],
  raw: PlaceholderValues,
): { values: Record<string, string | null>; missing: string[] } {
  const values: Record<string, string | null> = {};
  const missing: string[] = [];
  for (const name of used) {
    const spec = BY_NAME.get(name);
    if (!spec) continue; // not a placeholder of ours: left as written
    const value = raw[name]?.trim();
    if (value) values[name] = value;
    else {
      missing.push(name);
      values[name] = spec.fallback ?? null;
    }
  }
  return { values, missing };
}
