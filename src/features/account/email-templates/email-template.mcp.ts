import { parse } from "graphql";
import type { McpToolSpec } from "../../../graphql/mcp-tool";

const EMAIL_TEMPLATES = parse(`
  query McpEmailTemplates {
    emailTemplates { id name purpose subject body builtin createdAt }
  }`);

/** The MCP face of GET /org/email-templates (docs/outreach.md). */
export const emailTemplateTools: McpToolSpec[] = [
  {
    name: "list_email_templates",
    title: "List the organization's e-mail templates",
    description:
      "The caller's organization's e-mail templates, as GET /api/v1/org/email-templates: { data: [{ id, name, purpose, subject, body, " +
      "builtin, created_at }] }. The built-ins (introduction, bid_follow_up, congratulations, check_in) are the organization's own " +
      "copies. Subjects and bodies use placeholders such as {{contact.first_name}}, {{entity.name}}, {{signal.summary}}; pass an id as " +
      "template_id to outreach_email.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: [],
    required: [],
    plan: () => ({ document: EMAIL_TEMPLATES, variables: {}, shape: (data) => ({ data: data.email_templates }) }),
  },
];
