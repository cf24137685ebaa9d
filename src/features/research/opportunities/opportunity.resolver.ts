import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { Project } from "../../account/projects/project.type";
import type { PageOf } from "../../kits/common/list-kit";
import { OpportunityListArgs } from "./opportunity.inputs";
import { listOpportunities, refreshOpportunity, verificationOf, type OpportunityRow } from "./opportunity.service";
import { Opportunity, OpportunityContact, OpportunityPage, OpportunityVerification, RefreshOutcome } from "./opportunity.type";

@Resolver(() => Opportunity)
export class OpportunityResolver {
  @Query(() => OpportunityPage)
  opportunities(@Args(() => OpportunityListArgs) args: OpportunityListArgs, @Ctx() ctx: Context): Promise<PageOf<OpportunityRow>> {
    return listOpportunities(ctx.db, ctx.viewer, args);
  }

  @Query(() => Opportunity, { nullable: true })
  opportunity(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<OpportunityRow | null> {
    return ctx.loaders.opportunities.byId.load(id);
  }

  @Query(() => OpportunityVerification)
  async opportunityVerification(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<OpportunityVerification> {
    return verificationOf(await ctx.loaders.opportunities.byId.load(id), id);
  }

  @Mutation(() => RefreshOutcome)
  refreshOpportunity(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<RefreshOutcome> {
    return refreshOpportunity(ctx.db, ctx.viewer, id, ctx.jobs);
  }

  /** The entity's listed contacts named on the row, through the contacts loader (email only where unlocked). */
  @FieldResolver(() => [OpportunityContact])
  async contacts(@Root() row: OpportunityRow, @Ctx() ctx: Context): Promise<OpportunityContact[]> {
    const ids = (row.__contacts ?? []).map((c) => c.contact_id);
    const found = await ctx.loaders.contacts.byId.loadMany(ids);
    return found
      .filter((c): c is Exclude<typeof c, Error | null> => c !== null && !(c instanceof Error))
      .map((c) => ({ contact_id: c.id, name: c.name, title: c.title, email: c.email, email_status: c.email_status, source: c.source }));
  }
}

/** Project.opportunities: the opportunities feature owns the rows, so it adds the relation. */
@Resolver(() => Project)
export class ProjectOpportunitiesResolver {
  @FieldResolver(() => OpportunityPage)
  opportunities(
    @Root() project: Project,
    @Args(() => OpportunityListArgs) args: OpportunityListArgs,
    @Ctx() ctx: Context,
  ): Promise<PageOf<OpportunityRow>> {
    return ctx.loaders.opportunities.ofProject(args).load(project.id);
  }
}
