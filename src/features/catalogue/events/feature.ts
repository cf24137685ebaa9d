import { defineFeature } from "../../../graphql/feature";
import { eventsBlock } from "./event.blocks";
import { EventQueryResolver } from "./event.resolver";

/** Timeline events of districts and schools (a nested block and GET /districts/{id}/events, /schools/{id}/events). */
export const eventsFeature = defineFeature({
  name: "events",
  resolvers: [EventQueryResolver],
  blocks: [eventsBlock],
});
