-- Issue 23 (outreach): e-mail templates get a purpose and a builtin_key, unique per organization, and every
-- existing organization gets its own copies of the built-in templates (src/features/account/email-templates/
-- email-template.builtins.ts: createOrganization writes the same rows for organizations created later; the INSERT
-- below is compared with that file by test/outreach/email-templates.test.ts, between the BUILTINS markers).
ALTER TABLE "email_templates" ADD COLUMN "purpose" TEXT NOT NULL DEFAULT 'custom';
ALTER TABLE "email_templates" ADD COLUMN "builtin_key" TEXT;
CREATE UNIQUE INDEX "email_templates_organization_id_builtin_key_key" ON "email_templates" ("organization_id", "builtin_key");

-- BUILTINS BEGIN
INSERT INTO "email_templates" ("organization_id", "builtin_key", "name", "purpose", "subject", "body", "created_at")
SELECT o."id", b."key", b."name", b."purpose", b."subject", b."body", CURRENT_TIMESTAMP + b."position" * INTERVAL '1 millisecond'
  FROM "organizations" o
 CROSS JOIN (VALUES
    ($tpl$introduction$tpl$, $tpl$Introduction grounded in a recent signal$tpl$, $tpl$introduction$tpl$, $tpl${{entity.name}} and {{sender.organization}}$tpl$, $tpl$Hi {{contact.first_name}},

I'm writing from {{sender.organization}}.
As {{contact.title}} at {{entity.name}}, you see first-hand what {{entity.type}}s in {{entity.state}} are working through this year.
I noticed a recent update: {{signal.summary}}
{{opportunity.why_now}}
With {{entity.enrollment}} students to serve, small gains in staff time add up quickly.

Would a 20-minute conversation in the next two weeks be useful? I'll keep it specific to {{entity.name}}.

Best regards,
{{sender.organization}}$tpl$, 0),
    ($tpl$bid_follow_up$tpl$, $tpl$Follow-up on an open bid or RFP$tpl$, $tpl$bid_follow_up$tpl$, $tpl${{entity.name}} solicitation: a question from {{sender.organization}}$tpl$, $tpl$Hi {{contact.first_name}},

I'm following up on the open solicitation "{{bid.title}}" posted by {{entity.name}}.
Responses are due {{bid.deadline}}, and we want our proposal to answer what matters most to your team.
{{opportunity.why_now}}

Could you tell me who is coordinating the evaluation, or whether there is a pre-proposal Q&A? A short call before the deadline would help us respond precisely.

Thank you,
{{sender.organization}}$tpl$, 1),
    ($tpl$congratulations$tpl$, $tpl$Congratulations on a board decision or new role$tpl$, $tpl$congratulations$tpl$, $tpl$Congratulations, {{contact.first_name}}$tpl$, $tpl$Hi {{contact.first_name}},

Congratulations on the recent news at {{entity.name}}: {{signal.summary}}
A board decision or a new role usually comes with a fresh look at priorities.
{{opportunity.why_now}}

If it would help, {{sender.organization}} can share what similar {{entity.type}}s in {{entity.state}} did in their first 90 days after a change like this. No pitch, just notes.

Warm regards,
{{sender.organization}}$tpl$, 2),
    ($tpl$check_in$tpl$, $tpl$Short check-in$tpl$, $tpl$check_in$tpl$, $tpl$Checking in: {{entity.name}}$tpl$, $tpl$Hi {{contact.first_name}},

A quick check-in from {{sender.organization}}: how is the term going at {{entity.name}}?
I saw this recent update: {{signal.summary}}
If priorities have shifted, I'm happy to send something short and relevant, or to step back if the timing isn't right.

Best,
{{sender.organization}}$tpl$, 3)
  ) AS b ("key", "name", "purpose", "subject", "body", "position")
ON CONFLICT ("organization_id", "builtin_key") DO NOTHING;
-- BUILTINS END
