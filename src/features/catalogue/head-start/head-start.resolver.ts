import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import type { DistrictRow } from "../districts/district.service";
import { District } from "../districts/district.type";
import type { OperatorRow } from "../operators/operator.service";
import { Operator } from "../operators/operator.type";
import type { PageOf } from "../../kits/common/list-kit";
import { HeadStartListArgs } from "./head-start.inputs";
import { listHeadStartPrograms } from "./head-start.service";
import { HeadStartProgram, HeadStartProgramPage } from "./head-start.type";

@Resolver(() => HeadStartProgram)
export class HeadStartProgramResolver {
  @Query(() => HeadStartProgramPage)
  async headStartPrograms(@Args(() => HeadStartListArgs) args: HeadStartListArgs, @Ctx() ctx: Context): Promise<PageOf<HeadStartProgram>> {
    const page = await listHeadStartPrograms(ctx.db, args);
    for (const row of page.data) ctx.loaders.headStart.byId.prime(row.id, row);
    return page;
  }

  @Query(() => HeadStartProgram, { nullable: true })
  headStartProgram(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<HeadStartProgram | null> {
    return ctx.loaders.headStart.byId.load(id);
  }

  @FieldResolver(() => Operator, {
    nullable: true,
  })
  operator(@Root() program: HeadStartProgram, @Ctx() ctx: Context): Promise<OperatorRow | null> | null {
    return program.operator_id ? ctx.loaders.operators.byId.load(program.operator_id) : null;
  }

  @FieldResolver(() => HeadStartProgramPage)
  delegates(
    @Root() program: HeadStartProgram,
    @Args(() => HeadStartListArgs) args: HeadStartListArgs,
    @Ctx() ctx: Context,
  ): Promise<PageOf<HeadStartProgram>> {
    return ctx.loaders.headStart.delegatesOf(args).load(program.id);
  }

  @FieldResolver(() => District, { nullable: true })
  district(@Root() program: HeadStartProgram, @Ctx() ctx: Context): Promise<DistrictRow | null> | null {
    return program.district_id ? ctx.loaders.districts.byId.load(program.district_id) : null;
  }

  @FieldResolver(() => HeadStartProgram, { nullable: true })
  parentProgram(@Root() program: HeadStartProgram, @Ctx() ctx: Context): Promise<HeadStartProgram | null> | null {
    return program.parent_program_id ? ctx.loaders.headStart.byId.load(program.parent_program_id) : null;
  }
}
