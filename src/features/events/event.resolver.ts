/**
 * Timeline events: queries districtEvents / schoolEvents (GET /districts/{id}/events and
 * GET /schools/{id}/events, null -> 404) and the `events` field of District and School.
 */
import { Arg, Ctx, FieldResolver, Query, Resolver, Root, type ClassType } from "type-graphql";
import type { Context } from "../../graphql/context";
import { UUIDScalar } from "../../graphql/scalars";
import type { EntityKind } from "../common/entity-kind";
import { District } from "../districts/district.type";
import { School } from "../schools/school.type";
import { TimelineEvent } from "./event.type";
import { listEntityEvents } from "./event.service";

@Resolver()
export class EventQueryResolver {
  @Query(() => [TimelineEvent], {
    nullable: true,
    description: "A district's timeline events, chronological; null for an unknown district.",
  })
  districtEvents(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<TimelineEvent[] | null> {
    return listEntityEvents(ctx.db, "district", id);
  }

  @Query(() => [TimelineEvent], { nullable: true, description: "A school's timeline events, chronological; null for an unknown school." })
  schoolEvents(@Arg("id", () => UUIDScalar) id: string, @Ctx() ctx: Context): Promise<TimelineEvent[] | null> {
    return listEntityEvents(ctx.db, "school", id);
  }
}

export function eventsResolverFor(type: ClassType, kind: EntityKind): ClassType {
  @Resolver(() => type)
  class EventsFieldResolver {
    @FieldResolver(() => [TimelineEvent], { description: "Timeline events, chronological (event_date, created_at, id)." })
    events(@Root() row: { id: string }, @Ctx() ctx: Context): Promise<TimelineEvent[]> {
      return ctx.loaders.events[kind].load(row.id);
    }
  }
  Object.defineProperty(EventsFieldResolver, "name", { value: `${type.name}EventsResolver` });
  return EventsFieldResolver;
}

export const DistrictEventsResolver = eventsResolverFor(District, "district");
export const SchoolEventsResolver = eventsResolverFor(School, "school");
