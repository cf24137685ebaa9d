/**
 * District.events and School.events: the record's timeline events, chronological (public; those restating
 * gated intelligence in their public form unless the caller unlocked the record, event.access.ts).
 */
import { columnsOf } from "../../../graphql/fields";
import { isUnlocked } from "../../account/access/access.service";
import { defineBlock } from "../../kits/blocks/block";
import { jsonRowsSql, rowDecoder } from "../../kits/common/json-rows";
import { presentEvent } from "./event.access";
import { CHRONOLOGICAL, LATEST_FIRST } from "./event.service";
import { TimelineEvent } from "./event.type";

const EVENT_COLUMNS = columnsOf(TimelineEvent);
/** District.events / School.events: the latest 50 by default, at most 200 (GET /districts/{id}/events serves them all). */
export const EVENTS_DEFAULT_LIMIT = 50;
export const EVENTS_MAX_LIMIT = 200;
const decodeEvents = rowDecoder<TimelineEvent>(EVENT_COLUMNS).all;

export const eventsBlock = defineBlock({
  name: "events",
  kinds: ["district", "school"],
  sql: ({ kind, record }) =>
    jsonRowsSql(
      "tev",
      EVENT_COLUMNS,
      // Only the latest EVENTS_MAX_LIMIT can be asked for: read no more than those (an entity may have thousands).
      `(SELECT * FROM timeline_events te WHERE te.entity_type = '${kind}' AND te.entity_id = ${record}.id
         ORDER BY ${LATEST_FIRST("te")} LIMIT ${EVENTS_MAX_LIMIT}) tev`,
      CHRONOLOGICAL("tev"),
    ),
  decode: (json) => decodeEvents(json as unknown[][] | null),
  fields: [
    {
      name: "events",
      type: () => [TimelineEvent],
      shape: (rows, record) => {
        const unlocked = isUnlocked(record);
        return rows.map((event) => presentEvent(event, unlocked));
      },
      limit: { default: EVENTS_DEFAULT_LIMIT, max: EVENTS_MAX_LIMIT, keep: "last" },
    },
  ],
});
