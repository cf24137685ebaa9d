import { defineFeature } from "../../../graphql/feature";
import { emailTemplatesDictionary } from "./email-template.dictionary";
import { emailTemplateTools } from "./email-template.mcp";
import { EmailTemplateResolver } from "./email-template.resolver";

/** The organization's e-mail templates, built-ins included (GET /org/email-templates; docs/outreach.md). */
export const emailTemplatesFeature = defineFeature({
  name: "email-templates",
  dictionary: emailTemplatesDictionary,
  resolvers: [EmailTemplateResolver],
  rest: [
    { method: "GET", path: "/org/email-templates", operation: "EmailTemplates", input: "none", select: ["email_templates"], wrap: true },
  ],
  mcp: emailTemplateTools,
});
