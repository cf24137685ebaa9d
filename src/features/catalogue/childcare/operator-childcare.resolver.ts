/**
 * Operator.childcareCenters: the childcare feature owns the relation, so it adds the field to Operator.
 * A page of each operator's centers, batched over every operator of the request's page in one statement.
 */
import { Args, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import type { PageOf } from "../../kits/common/list-kit";
import type { OperatorRow } from "../operators/operator.service";
import { Operator } from "../operators/operator.type";
import { ChildcareListArgs } from "./childcare.inputs";
import { ChildcareCenter, ChildcareCenterPage } from "./childcare.type";

@Resolver(() => Operator)
export class OperatorChildcareResolver {
  @FieldResolver(() => ChildcareCenterPage)
  childcareCenters(
    @Root() operator: OperatorRow,
    @Args(() => ChildcareListArgs) args: ChildcareListArgs,
    @Ctx() ctx: Context,
  ): Promise<PageOf<ChildcareCenter>> {
    return ctx.loaders.childcare.ofOperator(args).load(operator.id);
  }
}
