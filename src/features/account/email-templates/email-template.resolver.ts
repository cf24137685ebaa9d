/** E-mail templates (docs/outreach.md). Rules live in email-template.service.ts. */
import { Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { listEmailTemplates } from "./email-template.service";
import { EmailTemplate } from "./email-template.type";

@Resolver(() => EmailTemplate)
export class EmailTemplateResolver {
  @Query(() => [EmailTemplate])
  emailTemplates(@Ctx() ctx: Context): Promise<EmailTemplate[]> {
    return listEmailTemplates(ctx.db, ctx.viewer);
  }
}
