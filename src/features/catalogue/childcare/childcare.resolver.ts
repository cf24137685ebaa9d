import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import type { OperatorRow } from "../operators/operator.service";
import { Operator } from "../operators/operator.type";
import type { PageOf } from "../../kits/common/list-kit";
import { ChildcareListArgs } from "./childcare.inputs";
import { listChildcareCenters } from "./childcare.service";
import { ChildcareCenter, ChildcareCenterPage, ChildcarePerson } from "./childcare.type";

@Resolver(() => ChildcareCenter)
export class ChildcareCenterResolver {
  @Query(() => ChildcareCenterPage)
  async childcareCenters(@Args(() => ChildcareListArgs) args: ChildcareListArgs, @Ctx() ctx: Context): Promise<PageOf<ChildcareCenter>> {
    const page = await listChildcareCenters(ctx.db, args);
    for (const row of page.data) ctx.loaders.childcare.byId.prime(row.id, row);
    return page;
  }

  @Query(() => ChildcareCenter, { nullable: true })
  childcareCenter(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<ChildcareCenter | null> {
    return ctx.loaders.childcare.byId.load(id);
  }

  @FieldResolver(() => [ChildcarePerson])
  people(@Root() center: ChildcareCenter, @Ctx() ctx: Context): Promise<ChildcarePerson[]> {
    return ctx.loaders.childcare.people.load(center.id);
  }

  @FieldResolver(() => Operator, { nullable: true })
  operator(@Root() center: ChildcareCenter, @Ctx() ctx: Context): Promise<OperatorRow | null> | null {
    return center.operator_id ? ctx.loaders.operators.byId.load(center.operator_id) : null;
  }
}
