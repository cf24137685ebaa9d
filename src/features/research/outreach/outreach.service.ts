/**
 * Outreach e-mails (POST /contacts/{id}/outreach-email; spec "Authentication" 4, contract sections 3 and 7;
 * docs/outreach.md). Synchronous; no credits. The rules, in this order:
 *
 *   1. enterprise and internal plans only (403 forbidden naming the rule);
 *   2. the contact exists and is listed: the contacts loader, i.e. the contacts feature's listing rule (404);
 *   3. the caller's organization has unlocked the contact (403 forbidden: unlock it first);
 *   4. template_id, when given, is one of the caller's organization's templates (404; another organization's
 *      id too); none given: the organization's built-in introduction.
 *
 * Then the facts: the contact (name, title), its entity (its school when school_id is set, else its district:
 * name, city, state, enrollment, through the catalogue loaders), the entity's latest signals other than noise,
 * the caller's organization's latest opportunities for the entity (its own rows only), and, while the
 * organization has the entity unlocked, the bid it saved or the latest open bid it has not set aside. The text
 * generator writes subject and body: the default provider fills the template (no language model), the
 * OpenAI-compatible provider (TEXT_GENERATION_BASE_URL) writes from the template and the same facts. When that
 * provider fails, the template is filled instead and the answer says so (generator "template").
 */
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { ForbiddenError, NotFoundError } from "../../../graphql/errors";
import type { Loaders } from "../../../graphql/loaders";
import { logger } from "../../../logger";
import { hasUnlocked } from "../../account/access/access.service";
import type { Viewer } from "../../account/auth/viewer";
import { UNLOCK_COST } from "../../account/credits/pricing";
import { PLACEHOLDERS, placeholderValues, type PlaceholderValues } from "../../account/email-templates/email-template.placeholders";
import { templateForOutreach } from "../../account/email-templates/email-template.service";
import { ENTITY_SQL, type EntityKind } from "../../kits/common/entity-kind";
import { BID_STATUS_SQL } from "../intelligence/intelligence.service";
import { TemplateTextGenerator, placeholdersOf, TEMPLATE_PROVIDER } from "../text-generation/template.provider";
import { textGeneratorFromEnv, type GeneratedText, type TextGenerator, type TextRequest } from "../text-generation/text-generation";
import type { OutreachEmail } from "./outreach.type";

/** Plans that may generate outreach e-mails (contract section 3). */
export const OUTREACH_PLANS: ReadonlySet<string> = new Set(["enterprise", "internal"]);
/** Signals and opportunities handed to the generator as facts (the placeholders use the latest one). */
export const OUTREACH_FACT_ROWS = 3;
/** The word budget of a language model's e-mail. */
export const OUTREACH_MAX_WORDS = 250;

export const NO_MODEL_NOTE = "Filled from the template by placeholder substitution: no language model was used.";
const modelNote = (provider: string, model: string | null) =>
  `Written by a language model (${provider}${model ? `, ${model}` : ""}) from the template and the facts listed for the contact; review it before sending.`;
const FAILED_NOTE = "The language-model provider failed, so the template was filled instead: no language model was used.";

let override: TextGenerator | undefined;
/** Tests: the text generator outreach e-mails use (undefined: the environment's). */
export function useOutreachTextGenerator(generator: TextGenerator | undefined): void {
  override = generator;
}

export interface OutreachDeps {
  db: Db;
  viewer: Viewer;
  env: Env;
  loaders: Pick<Loaders, "contacts" | "districts" | "schools">;
}

const HONORIFICS = /^(dr|mr|mrs|ms|mx|miss|prof)\.?$/i;

/** The first word of a name that is not an honorific ("Dr. Ada Lovelace" -> "Ada"). */
export function firstName(name: string): string | null {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words.find((w) => !HONORIFICS.test(w)) ?? null;
}

const longDate = (date: Date | null): string | null =>
  date ? date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }) : null;

interface Entity {
  kind: EntityKind;
  id: string;
  name: string;
  city: string | null;
  state: string | null;
  enrollment: number | null;
}

/** The contact's entity through the catalogue loaders: its school when school_id is set, else its district. */
async function entityOf(deps: OutreachDeps, contact: { school_id: string | null; district_id: string | null }): Promise<Entity | null> {
  if (contact.school_id) {
    const s = await deps.loaders.schools.byId.load(contact.school_id);
    return s && { kind: "school", id: s.id, name: s.name, city: s.physical_city, state: s.state, enrollment: s.student_count };
  }
  if (contact.district_id) {
    const d = await deps.loaders.districts.byId.load(contact.district_id);
    return d && { kind: "district", id: d.id, name: d.name, city: d.physical_city, state: d.state, enrollment: d.student_count };
  }
  return null;
}

/** The entity's latest signals other than noise with a summary (by signal date, then when found). */
function latestSignals(db: Db, entity: Entity) {
  return db.prisma.signal.findMany({
    where: { [ENTITY_SQL[entity.kind].ownerColumn]: entity.id, signal_type: { not: "noise" }, summary: { not: null } },
    orderBy: [{ signal_date: { sort: "desc", nulls: "last" } }, { created_at: "desc" }, { id: "asc" }],
    take: OUTREACH_FACT_ROWS,
    select: { summary: true, signal_date: true, signal_type: true },
  });
}

/** The caller's organization's latest opportunities for the entity (its own rows only). */
function latestOpportunities(db: Db, organizationId: string, entity: Entity) {
  return db.prisma.opportunity.findMany({
    where: { organization_id: organizationId, [ENTITY_SQL[entity.kind].ownerColumn]: entity.id },
    orderBy: [{ created_at: "desc" }, { id: "asc" }],
    take: OUTREACH_FACT_ROWS,
    select: { title: true, why_now: true },
  });
}

/**
 * The bid of {{bid.title}}: while the organization has the entity unlocked (bids are gated), the open bid it
 * saved, else its latest open bid the organization has not set aside or marked not useful. Open is the bids
 * block's rule (BID_STATUS_SQL). One statement.
 */
async function bidOf(db: Db, organizationId: string, entity: Entity): Promise<{ title: string; deadline_at: Date | null } | null> {
  if (!(await hasUnlocked(db.prisma, organizationId, entity.kind, entity.id))) return null;
  const [bid] = await db.query<{ title: string; deadline_at: Date | null }>(
    `SELECT b.title, b.deadline_at
       FROM bids b
       LEFT JOIN bid_filings f ON f.bid_id = b.id AND f.organization_id = $2::uuid
      WHERE b.${ENTITY_SQL[entity.kind].ownerColumn} = $1::uuid AND ${BID_STATUS_SQL("b")} = 'open'
        AND (f.action IS NULL OR f.action = 'save')
      ORDER BY (f.action = 'save') DESC NULLS LAST, b.posted_on DESC NULLS LAST, b.id
      LIMIT 1`,
    [entity.id, organizationId],
  );
  return bid ?? null;
}

/** POST /contacts/{id}/outreach-email (rules: module comment). */
export async function outreachEmail(deps: OutreachDeps, contactId: string, templateId: string | null | undefined): Promise<OutreachEmail> {
  const { db, viewer } = deps;
  if (!OUTREACH_PLANS.has(viewer.plan))
    throw new ForbiddenError(`outreach e-mails are for enterprise and internal plans only; the organization's plan is ${viewer.plan}`);
  const contact = await deps.loaders.contacts.byId.load(contactId);
  if (!contact) throw new NotFoundError(`contact ${contactId}`);
  if (!contact._access.is_unlocked)
    throw new ForbiddenError(
      `the contact must be unlocked first: POST /api/v1/unlock with entity_type contact and entity_id ${contactId} (${UNLOCK_COST.contact} credits)`,
    );
  const template = await templateForOutreach(db, viewer, templateId);
  const entity = await entityOf(deps, contact);
  if (!entity) throw new NotFoundError(`contact ${contactId}`); // a listed contact has one; kept for the type

  const [signals, opportunities, bid, organization] = await Promise.all([
    latestSignals(db, entity),
    latestOpportunities(db, viewer.organizationId, entity),
    bidOf(db, viewer.organizationId, entity),
    db.prisma.organization.findUnique({ where: { id: viewer.organizationId }, select: { name: true } }),
  ]);
  const raw: PlaceholderValues = {
    "contact.name": contact.name,
    "contact.first_name": firstName(contact.name),
    "contact.title": contact.title,
    "entity.name": entity.name,
    "entity.type": entity.kind,
    "entity.city": entity.city,
    "entity.state": entity.state,
    "entity.enrollment": entity.enrollment === null ? null : entity.enrollment.toLocaleString("en-US"),
    "signal.summary": signals[0]?.summary ?? null,
    "signal.date": longDate(signals[0]?.signal_date ?? null),
    "opportunity.title": opportunities[0]?.title ?? null,
    "opportunity.why_now": opportunities[0]?.why_now ?? null,
    "bid.title": bid?.title ?? null,
    "bid.deadline": longDate(bid?.deadline_at ?? null),
    "sender.organization": organization?.name ?? null,
  };
  const used = placeholdersOf(`${template.subject}\n${template.body}`);
  const { values, missing } = placeholderValues(used, raw);

  // Every fact we hold, for a language model (the template provider uses `values` only).
  const facts = [
    ...PLACEHOLDERS.filter((p) => raw[p.name]).map((p) => `${p.name}: ${raw[p.name]}`),
    ...signals
      .slice(1)
      .map((s) => `another recent signal (${s.signal_type}${s.signal_date ? `, ${longDate(s.signal_date)}` : ""}): ${s.summary}`),
    ...opportunities.slice(1).map((o) => `another opportunity: ${o.title}${o.why_now ? `: ${o.why_now}` : ""}`),
  ];
  const request: TextRequest = {
    task: "outreach_email",
    subject: `${contact.name}${contact.title ? `, ${contact.title}` : ""} at ${entity.name}${entity.state ? `, ${entity.state}` : ""} (${entity.kind})`,
    subjectTerms: [contact.name, entity.name],
    facts,
    sources: [],
    maxWords: OUTREACH_MAX_WORDS,
    instructions: `Write it as ${organization?.name ?? "the sender"}, to ${contact.name}. Plain text, no markdown.`,
    template: { subject: template.subject, body: template.body, values },
  };

  const generator = override ?? textGeneratorFromEnv(deps.env);
  let text: GeneratedText;
  let failed = false;
  try {
    text = await generator.generate(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.warn("outreach e-mail: the text generator failed; the template is filled instead", { provider: generator.name, error: message });
    text = await new TemplateTextGenerator().generate(request);
    failed = true;
  }
  const byTemplate = text.provider === TEMPLATE_PROVIDER;
  // A language model that gave no subject line: the template's subject, filled.
  const subject = text.subject || (await new TemplateTextGenerator().generate(request)).subject || template.name;
  return {
    subject,
    body: text.text,
    template_id: template.id,
    generator: text.provider,
    model: text.model,
    language_model_used: !byTemplate,
    missing_placeholders: missing,
    note: failed ? FAILED_NOTE : byTemplate ? NO_MODEL_NOTE : modelNote(text.provider, text.model),
  };
}
