/**
 * The organization's e-mail templates (docs/outreach.md): each organization has its own rows, the built-in
 * templates among them (email-template.builtins.ts, written with the organization). Another organization's
 * template is never read: every read names the caller's organization.
 */
import type { Db } from "../../../db/client";
import type { Tx } from "../../../db/transaction";
import { NotFoundError } from "../../../graphql/errors";
import type { Viewer } from "../auth/viewer";
import { BUILTIN_TEMPLATES, DEFAULT_BUILTIN_KEY } from "./email-template.builtins";
import type { EmailTemplate } from "./email-template.type";

const COLUMNS = { id: true, name: true, purpose: true, subject: true, body: true, builtin_key: true, created_at: true } as const;

interface TemplateRow {
  id: string;
  name: string;
  purpose: string;
  subject: string;
  body: string;
  builtin_key: string | null;
  created_at: Date;
}

const present = (row: TemplateRow): EmailTemplate => ({
  id: row.id,
  name: row.name,
  purpose: row.purpose,
  subject: row.subject,
  body: row.body,
  builtin: row.builtin_key !== null,
  created_at: row.created_at,
});

/**
 * Writes the organization's copies of the built-in templates (createOrganization, in its transaction). Their
 * created_at are a millisecond apart in BUILTIN_TEMPLATES' order, so the listing keeps that order.
 */
export async function seedBuiltinTemplates(tx: Tx, organizationId: string, now = new Date()): Promise<void> {
  await tx.emailTemplate.createMany({
    data: BUILTIN_TEMPLATES.map((t, i) => ({
      organization_id: organizationId,
      builtin_key: t.key,
      name: t.name,
      purpose: t.purpose,
      subject: t.subject,
      body: t.body,
      created_at: new Date(now.getTime() + i),
    })),
    skipDuplicates: true,
  });
}

/** GET /org/email-templates: the caller's organization's templates, oldest first (the built-ins in their order). */
export async function listEmailTemplates(db: Db, viewer: Viewer): Promise<EmailTemplate[]> {
  const rows = await db.prisma.emailTemplate.findMany({
    where: { organization_id: viewer.organizationId },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
    select: COLUMNS,
  });
  return rows.map(present);
}

/**
 * The template an outreach e-mail uses: `templateId` when given (404 unless it is one of the caller's
 * organization's templates: another organization's id is not found), else the organization's built-in
 * introduction.
 */
export async function templateForOutreach(db: Db, viewer: Viewer, templateId: string | null | undefined): Promise<EmailTemplate> {
  const org = viewer.organizationId;
  const row = templateId
    ? await db.prisma.emailTemplate.findFirst({ where: { id: templateId, organization_id: org }, select: COLUMNS })
    : await db.prisma.emailTemplate.findUnique({
        where: { organization_id_builtin_key: { organization_id: org, builtin_key: DEFAULT_BUILTIN_KEY } },
        select: COLUMNS,
      });
  if (!row) throw new NotFoundError(templateId ? `email template ${templateId}` : `the organization's ${DEFAULT_BUILTIN_KEY} template`);
  return present(row);
}
