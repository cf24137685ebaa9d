import { Arg, Args, Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import type { PageOf } from "../../kits/common/list-kit";
import { OperatorListArgs } from "./operator.inputs";
import { listOperators, type OperatorRow } from "./operator.service";
import { Operator, OperatorPage } from "./operator.type";

@Resolver(() => Operator)
export class OperatorResolver {
  @Query(() => OperatorPage)
  async operators(@Args(() => OperatorListArgs) args: OperatorListArgs, @Ctx() ctx: Context): Promise<PageOf<OperatorRow>> {
    const page = await listOperators(ctx.db, args);
    // A state-scoped page (counts) or a contractor search (contractor_paid) differs from the plain record.
    if (!args.filter?.state && !args.filter?.contractor) for (const row of page.data) ctx.loaders.operators.byId.prime(row.id, row);
    return page;
  }

  @Query(() => Operator, { nullable: true })
  operator(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<OperatorRow | null> {
    return ctx.loaders.operators.byId.load(id);
  }
}
