import { parse } from "graphql";
import { definedOnly, type McpToolSpec } from "../../../graphql/mcp-tool";

const OUTREACH_EMAIL = parse(`
  mutation McpOutreachEmail($contactId: UUID!, $templateId: UUID) {
    outreachEmail(contactId: $contactId, templateId: $templateId) {
      subject body templateId generator model languageModelUsed missingPlaceholders note
    }
  }`);

/** The MCP face of POST /contacts/{id}/outreach-email (docs/outreach.md). */
export const outreachTools: McpToolSpec[] = [
  {
    name: "outreach_email",
    title: "Write an outreach e-mail to an unlocked contact",
    description:
      "Writes (does not send) an outreach e-mail to a contact, as POST /api/v1/contacts/{id}/outreach-email: { subject, body, " +
      "template_id, generator, model, language_model_used, missing_placeholders, note }. From one of the organization's templates " +
      "(list_email_templates; default: the built-in introduction) and the facts held: the contact's name and title, its district or " +
      "school, its latest news signals, the organization's opportunities and open bids for it. generator template means the template " +
      "was filled without a language model. Enterprise and internal plans only; the contact must be unlocked first (unlock, 2 " +
      "credits); no credits are spent here. Errors: forbidden, not_found (contact or template).",
    inputSchema: {
      type: "object",
      properties: {
        contact_id: { type: "string", format: "uuid", description: "Our id of the contact (listed and unlocked by the organization)." },
        template_id: {
          type: "string",
          format: "uuid",
          description: "One of the organization's templates; default the built-in introduction.",
        },
      },
      required: ["contact_id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["contact_id", "template_id"],
    required: ["contact_id"],
    plan: (args) => ({
      document: OUTREACH_EMAIL,
      variables: definedOnly({ contactId: args.contact_id, templateId: args.template_id }),
      shape: (data) => data.outreach_email as Record<string, unknown>,
    }),
  },
];
