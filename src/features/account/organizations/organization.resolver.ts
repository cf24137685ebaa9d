import { Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { organizationOfViewer } from "./organization.service";
import { Organization } from "./organization.type";

@Resolver()
export class OrganizationResolver {
  @Query(() => Organization)
  organization(@Ctx() ctx: Context): Promise<Organization> {
    return organizationOfViewer(ctx.db, ctx.viewer, ctx.env);
  }
}
