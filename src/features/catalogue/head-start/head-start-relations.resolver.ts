/**
 * The Head Start feature owns the relations to its programs, so it adds them to the other types:
 * District.headStartPrograms (district-run programs) and Operator.headStartPrograms. Each is a page of
 * the parent's programs, batched over every parent of the request's page in one statement.
 */
import { Args, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import type { PageOf } from "../../kits/common/list-kit";
import type { DistrictRow } from "../districts/district.service";
import { District } from "../districts/district.type";
import type { OperatorRow } from "../operators/operator.service";
import { Operator } from "../operators/operator.type";
import { HeadStartListArgs } from "./head-start.inputs";
import { HeadStartProgram, HeadStartProgramPage } from "./head-start.type";

@Resolver(() => District)
export class DistrictHeadStartResolver {
  @FieldResolver(() => HeadStartProgramPage)
  headStartPrograms(
    @Root() district: DistrictRow,
    @Args(() => HeadStartListArgs) args: HeadStartListArgs,
    @Ctx() ctx: Context,
  ): Promise<PageOf<HeadStartProgram>> {
    return ctx.loaders.headStart.ofDistrict(args).load(district.id);
  }
}

@Resolver(() => Operator)
export class OperatorHeadStartResolver {
  @FieldResolver(() => HeadStartProgramPage)
  headStartPrograms(
    @Root() operator: OperatorRow,
    @Args(() => HeadStartListArgs) args: HeadStartListArgs,
    @Ctx() ctx: Context,
  ): Promise<PageOf<HeadStartProgram>> {
    return ctx.loaders.headStart.ofOperator(args).load(operator.id);
  }
}
