/**
 * District.events and School.events: the record's timeline events, chronological (public; those restating
 * gated intelligence in their public form unless the caller unlocked the record, event.access.ts).
 * A brief's dossier reads the same rows in the same order (latestEventsSql), so the two cannot disagree.
 */
import { columnsOf } from "../../../graphql/fields";
import { isUnlocked } from "../../account/access/access.service";
import { defineBlock, type BlockSqlContext } from "../../kits/blocks/block";
import { jsonRowsSql, rowDecoder, type JsonColumn } from "../../kits/common/json-rows";
import { presentEvent } from "./event.access";
import { CHRONOLOGICAL, LATEST_FIRST } from "./event.service";
import { TimelineEvent } from "./event.type";

const EVENT_COLUMNS = columnsOf(TimelineEvent);
/** District.events / School.events: the latest 50 by default, at most 200 (GET /districts/{id}/events serves them all). */
export const EVENTS_DEFAULT_LIMIT = 50;
export const EVENTS_MAX_LIMIT = 200;
const decodeEvents = rowDecoder<TimelineEvent>(EVENT_COLUMNS).all;

/** Whose events: the record's kind and the alias of its row (events are public: no organization is read). */
type EventsOf = Pick<BlockSqlContext, "kind" | "record">;

/**
 * SQL: the record's latest `limit` events, chronological (the order the field serves), as JSON rows of `columns`.
 * The block reads the latest EVENTS_MAX_LIMIT and its field keeps the last `limit` of them: the same rows in the
 * same order as this with that `limit` (latestEventsSql).
 */
const eventRowsSql = ({ kind, record }: EventsOf, columns: readonly JsonColumn[], limit: number): string =>
  jsonRowsSql(
    "tev",
    columns,
    // Only the latest `limit` can be asked for: read no more than those (an entity may have thousands).
    `(SELECT * FROM timeline_events te WHERE te.entity_type = '${kind}' AND te.entity_id = ${record}.id
         ORDER BY ${LATEST_FIRST("te")} LIMIT ${limit}) tev`,
    CHRONOLOGICAL("tev"),
  );

export const eventsBlock = defineBlock({
  name: "events",
  kinds: ["district", "school"],
  sql: (q) => eventRowsSql(q, EVENT_COLUMNS, EVENTS_MAX_LIMIT),
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

// ---------------------------------------------------------------------------------------------------
// The events beyond the API: a brief's dossier

/** An event as the block serves it, with where it came from (read for the dossier only). */
export type SourcedEvent = TimelineEvent & { data_source: string };
const SOURCED_EVENT_COLUMNS: readonly JsonColumn[] = [...EVENT_COLUMNS, { property: "data_source", kind: "string" }];
const decodeSourcedEvents = rowDecoder<SourcedEvent>(SOURCED_EVENT_COLUMNS).all;

/**
 * SQL (one column): the record's events as its `events(limit: limit)` field serves them (the latest `limit`,
 * chronological), stored whole, each with its data_source. Whoever shows them applies the block's gating,
 * presentEvent with the viewer's unlock (event.access.ts).
 */
export const latestEventsSql = (q: EventsOf, limit: number): string => eventRowsSql(q, SOURCED_EVENT_COLUMNS, limit);

/** The JSON of `latestEventsSql` -> the events (an empty list for none). */
export const decodeLatestEvents = (json: unknown): SourcedEvent[] => decodeSourcedEvents(json as unknown[][] | null);
