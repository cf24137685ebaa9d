/**
 * The built-in e-mail templates every organization gets its own copy of (rows of `email_templates` with its
 * organization_id and a `builtin_key`): written when the organization is created (createOrganization, same
 * transaction) and, for organizations older than them, by migration 20261215000000_outreach_templates, whose
 * INSERT carries the same text (test/outreach/email-templates.test.ts compares the two). Placeholders:
 * email-template.placeholders.ts; layout rule: one sentence with an optional placeholder per line, because a
 * line whose placeholder has no value is left out (docs/outreach.md).
 */

export interface BuiltinTemplate {
  /** Stable key of the built-in (unique per organization). */
  key: string;
  name: string;
  /** What the template is for (EmailTemplate.purpose). */
  purpose: string;
  subject: string;
  body: string;
}

/** The template outreach e-mails use when the request names none. */
export const DEFAULT_BUILTIN_KEY = "introduction";

export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  {
    key: "introduction",
    name: "Introduction grounded in a recent signal",
    purpose: "introduction",
    subject: "{{entity.name}} and {{sender.organization}}",
    body: [
      "Hi {{contact.first_name}},",
      "",
      "I'm writing from {{sender.organization}}.",
      "As {{contact.title}} at {{entity.name}}, you see first-hand what {{entity.type}}s in {{entity.state}} are working through this year.",
      "I noticed a recent update: {{signal.summary}}",
      "{{opportunity.why_now}}",
      "With {{entity.enrollment}} students to serve, small gains in staff time add up quickly.",
      "",
      "Would a 20-minute conversation in the next two weeks be useful? I'll keep it specific to {{entity.name}}.",
      "",
      "Best regards,",
      "{{sender.organization}}",
    ].join("\n"),
  },
  {
    key: "bid_follow_up",
    name: "Follow-up on an open bid or RFP",
    purpose: "bid_follow_up",
    subject: "{{entity.name}} solicitation: a question from {{sender.organization}}",
    body: [
      "Hi {{contact.first_name}},",
      "",
      'I\'m following up on the open solicitation "{{bid.title}}" posted by {{entity.name}}.',
      "Responses are due {{bid.deadline}}, and we want our proposal to answer what matters most to your team.",
      "{{opportunity.why_now}}",
      "",
      "Could you tell me who is coordinating the evaluation, or whether there is a pre-proposal Q&A? A short call before the deadline would help us respond precisely.",
      "",
      "Thank you,",
      "{{sender.organization}}",
    ].join("\n"),
  },
  {
    key: "congratulations",
    name: "Congratulations on a board decision or new role",
    purpose: "congratulations",
    subject: "Congratulations, {{contact.first_name}}",
    body: [
      "Hi {{contact.first_name}},",
      "",
      "Congratulations on the recent news at {{entity.name}}: {{signal.summary}}",
      "A board decision or a new role usually comes with a fresh look at priorities.",
      "{{opportunity.why_now}}",
      "",
      "If it would help, {{sender.organization}} can share what similar {{entity.type}}s in {{entity.state}} did in their first 90 days after a change like this. No pitch, just notes.",
      "",
      "Warm regards,",
      "{{sender.organization}}",
    ].join("\n"),
  },
  {
    key: "check_in",
    name: "Short check-in",
    purpose: "check_in",
    subject: "Checking in: {{entity.name}}",
    body: [
      "Hi {{contact.first_name}},",
      "",
      "A quick check-in from {{sender.organization}}: how is the term going at {{entity.name}}?",
      "I saw this recent update: {{signal.summary}}",
      "If priorities have shifted, I'm happy to send something short and relevant, or to step back if the timing isn't right.",
      "",
      "Best,",
      "{{sender.organization}}",
    ].join("\n"),
  },
];
