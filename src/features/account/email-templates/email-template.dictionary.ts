/** Field dictionary: the organization's e-mail templates (docs/outreach.md). */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { PLACEHOLDERS } from "./email-template.placeholders";

const PLACEHOLDER_LIST = PLACEHOLDERS.map((p) => `{{${p.name}}}`).join(", ");

export const emailTemplatesDictionary: Dictionary = {
  EmailTemplate: {
    [TYPE]:
      "One of the caller's organization's e-mail templates (GET /org/email-templates). Every organization has its own copies of the built-in templates; POST /contacts/{id}/outreach-email fills one for a contact.",
    id: "Our id of the template (UUID): the template_id of POST /contacts/{id}/outreach-email.",
    name: "The template's name.",
    purpose: "What the template is for: introduction, bid_follow_up, congratulations, check_in (the built-ins), or custom.",
    subject: `The subject line, with placeholders (${PLACEHOLDER_LIST}; docs/outreach.md).`,
    body: "The body, with the same placeholders; a line whose placeholder has no value (and no fallback) is left out of the e-mail.",
    builtin: "true for the organization's copy of a built-in template.",
    createdAt: "When the template was created (UTC).",
  },
  Query: {
    emailTemplates: "The caller's organization's e-mail templates, built-ins first in their order (GET /api/v1/org/email-templates).",
  },
};
