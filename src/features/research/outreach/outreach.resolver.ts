/** Outreach e-mails (docs/outreach.md). Rules live in outreach.service.ts. */
import { Arg, Ctx, Mutation, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { outreachEmail } from "./outreach.service";
import { OutreachEmail } from "./outreach.type";

@Resolver(() => OutreachEmail)
export class OutreachResolver {
  @Mutation(() => OutreachEmail)
  outreachEmail(
    @Arg("contactId", () => UUIDScalar) contactId: string,
    @Arg("templateId", () => UUIDScalar, { nullable: true }) templateId: string | null,
    @Ctx() ctx: Context,
  ): Promise<OutreachEmail> {
    return outreachEmail(ctx, contactId, templateId);
  }
}
