/** District.events and School.events: the record's timeline events, chronological (public). */
import { columnsOf } from "../../graphql/fields";
import { defineBlock } from "../blocks/block";
import { jsonRowsSql, rowDecoder } from "../common/json-rows";
import { CHRONOLOGICAL } from "./event.service";
import { TimelineEvent } from "./event.type";

const EVENT_COLUMNS = columnsOf(TimelineEvent);
const decodeEvents = rowDecoder<TimelineEvent>(EVENT_COLUMNS).all;

export const eventsBlock = defineBlock({
  name: "events",
  kinds: ["district", "school"],
  sql: ({ kind, record }) =>
    jsonRowsSql(
      "tev",
      EVENT_COLUMNS,
      `timeline_events tev WHERE tev.entity_type = '${kind}' AND tev.entity_id = ${record}.id`,
      CHRONOLOGICAL("tev"),
    ),
  decode: (json) => decodeEvents(json as unknown[][] | null),
  fields: [
    {
      name: "events",
      type: () => [TimelineEvent],
      description: "Timeline events, chronological (event_date, created_at, id).",
      shape: (rows) => rows,
    },
  ],
});
