/**
 * Timeline events: queries districtEvents / schoolEvents (GET /districts/{id}/events and
 * GET /schools/{id}/events, null -> 404). The `events` field of District and School is a block
 * (event.blocks.ts).
 */
import { Arg, Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { TimelineEvent } from "./event.type";
import { listEntityEvents } from "./event.service";

@Resolver()
export class EventQueryResolver {
  @Query(() => [TimelineEvent], {
    nullable: true,
  })
  districtEvents(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<TimelineEvent[] | null> {
    return listEntityEvents(ctx.db, ctx.viewer, "district", id);
  }

  @Query(() => [TimelineEvent], { nullable: true })
  schoolEvents(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<TimelineEvent[] | null> {
    return listEntityEvents(ctx.db, ctx.viewer, "school", id);
  }
}
