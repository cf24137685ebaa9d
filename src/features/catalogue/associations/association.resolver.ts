import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import type { PageOf } from "../../kits/common/list-kit";
import { AssociationListArgs, AssociationNestedArgs } from "./association.inputs";
import { listAssociations } from "./association.service";
import { Association, AssociationPage, AssociationPerson } from "./association.type";

@Resolver(() => Association)
export class AssociationResolver {
  @Query(() => AssociationPage)
  async associations(@Args(() => AssociationListArgs) args: AssociationListArgs, @Ctx() ctx: Context): Promise<PageOf<Association>> {
    const page = await listAssociations(ctx.db, args);
    for (const row of page.data) ctx.loaders.associations.byId.prime(row.id, row);
    return page;
  }

  @Query(() => Association, { nullable: true })
  association(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<Association | null> {
    return ctx.loaders.associations.byId.load(id);
  }

  @FieldResolver(() => [AssociationPerson])
  people(
    @Root() association: Association,
    @Args(() => AssociationNestedArgs) args: AssociationNestedArgs,
    @Ctx() ctx: Context,
  ): Promise<AssociationPerson[]> {
    return ctx.loaders.associations.people(args).load(association.id);
  }

  @FieldResolver(() => [Association])
  sections(
    @Root() association: Association,
    @Args(() => AssociationNestedArgs) args: AssociationNestedArgs,
    @Ctx() ctx: Context,
  ): Promise<Association[]> {
    return ctx.loaders.associations.sections(args).load(association.id);
  }

  @FieldResolver(() => Association, { nullable: true })
  parent(@Root() association: Association, @Ctx() ctx: Context): Promise<Association | null> | null {
    return association.parent_association_id ? ctx.loaders.associations.byId.load(association.parent_association_id) : null;
  }
}
