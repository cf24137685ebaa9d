import { defineFeature } from "../../../graphql/feature";
import { eventsBlock } from "./event.blocks";
import { EventQueryResolver } from "./event.resolver";

/** Timeline events of districts and schools (a nested block and GET /districts/{id}/events, /schools/{id}/events). */
export const eventsFeature = defineFeature({
  name: "events",
  resolvers: [EventQueryResolver],
  blocks: [eventsBlock],
  rest: [
    {
      method: "GET",
      path: "/districts/:id/events",
      operation: "DistrictEvents",
      input: "none",
      select: ["district_events"],
      wrap: true,
    },
    {
      method: "GET",
      path: "/schools/:id/events",
      operation: "SchoolEvents",
      input: "none",
      select: ["school_events"],
      wrap: true,
    },
  ],
});
