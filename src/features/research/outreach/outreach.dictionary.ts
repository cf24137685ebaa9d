/** Field dictionary: outreach e-mails (POST /contacts/{id}/outreach-email; docs/outreach.md). */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const outreachDictionary: Dictionary = {
  OutreachEmail: {
    [TYPE]:
      "An outreach e-mail to an unlocked contact, written from one of the organization's templates and the facts held about the contact, its district or school, its latest signals and the organization's opportunities (POST /contacts/{id}/outreach-email). Nothing is sent; no credits are spent.",
    subject: "The subject line.",
    body: "The body, plain text.",
    templateId: "The template it was written from (the organization's built-in introduction when none was named).",
    generator:
      "Which provider wrote it: template (the default: the template's placeholders filled, no language model) or openai-compatible (a language model, when the service is configured with one).",
    model: "The language model that wrote it; null for the template provider.",
    languageModelUsed: "false when the template was filled without a language model; true when a language model wrote subject and body.",
    missingPlaceholders:
      "Placeholders of the template with no value for this contact (e.g. signal.summary when the entity has no signal): a fallback was used or the line holding it left out.",
    note: "How the e-mail was written, in words (e.g. that no language model was used).",
  },
  Mutation: {
    outreachEmail:
      "Writes an outreach e-mail to a contact the organization has unlocked (POST /api/v1/contacts/{id}/outreach-email). Enterprise and internal plans only (forbidden otherwise); no credits.",
    "outreachEmail(contactId)": "Our id of the contact (it must be listed and unlocked by the caller's organization).",
    "outreachEmail(templateId)":
      "One of the caller's organization's templates (GET /org/email-templates); another organization's template is not found. Default: the built-in introduction.",
  },
};
