/**
 * The signals feed's query (GET /signals, GET /news, GraphQL `signals`, `news`, `District.signals`, `School.signals`):
 * its filter, declared once with defineList, and its arguments. The feed has one order (published_at descending,
 * then ascending id; contract section 6), so its arguments are the filter and the page, without order_by.
 *
 * An article is listed when at least one of its signals other than `noise` matches every signal condition
 * (signal_type, buying_intent, district_id, school_id, state) and the article matches the article conditions
 * (query, since, published_after, published_before). FEED_CLAUSE_SIDES says which is which: news.service.ts
 * compiles them in declaration order (the first bad parameter is the one reported) into these two groups.
 */
import { ArgsType, Extensions, Field, Int, registerEnumType } from "type-graphql";
import { sql } from "../../../db/sql-template";
import { BadRequestError, echo } from "../../../graphql/errors";
import { anyOfFilter, defineList, enumsOf, filter, Instant, Text, Texts, Uuids } from "../../kits/common/define-list";
import { checkList, checkState, containsPattern } from "../../kits/common/list-kit";
import { BUYING_INTENTS, SIGNAL_TYPES, type BuyingIntent, type SignalType } from "./analysis/types";

export const FEED_MAX_LIMIT = 200;
export const FEED_DEFAULT_LIMIT = 50;
/** The feed's total is counted up to this many articles; beyond, `total` is the cap and `total_exact` false (contract section 6). */
export const FEED_COUNT_CAP = 10_000;
export const QUERY_MIN_LENGTH = 2;
export const QUERY_MAX_LENGTH = 500;

/** An enum object of GraphQL (`{ value: value }`) over a list of values. */
const enumOf = <V extends string>(values: readonly V[]): { [K in V]: K } =>
  Object.fromEntries(values.map((value) => [value, value])) as { [K in V]: K };

/** Signal types a feed filter may name (contract section 9): every type but `noise`, which the feed never lists. */
export const FeedSignalType = enumOf(SIGNAL_TYPES.filter((type): type is Exclude<SignalType, "noise"> => type !== "noise"));
registerEnumType(FeedSignalType, { name: "FeedSignalType" });

/** Buying intents a feed filter may name (the spec: low, medium, high). */
export const FeedBuyingIntent = enumOf(BUYING_INTENTS.filter((intent): intent is Exclude<BuyingIntent, "none"> => intent !== "none"));
registerEnumType(FeedBuyingIntent, { name: "FeedBuyingIntent" });

/** A `query` value: trimmed, 2 to 500 characters (400 naming `query` otherwise). */
export function checkQuery(value: string): string {
  const text = value.trim();
  if (text.length < QUERY_MIN_LENGTH || text.length > QUERY_MAX_LENGTH)
    throw new BadRequestError(`query must be ${QUERY_MIN_LENGTH} to ${QUERY_MAX_LENGTH} characters; got ${echo(text)}`);
  // Control characters: none is in a title or summary, and the unit separator joins the parts of articles.search_text.
  if (/\p{Cc}/u.test(text)) throw new BadRequestError(`query must not contain control characters; got ${echo(text)}`);
  return text;
}

/** An instant parameter as ISO text, inside PostgreSQL's range (400 naming `name` otherwise). */
function instant(name: string, value: Date | string): string {
  const date = value instanceof Date ? value : new Date(value);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999)
    throw new BadRequestError(`${name} must be an ISO 8601 date-time with an offset, e.g. 2026-01-31T00:00:00Z`);
  return date.toISOString();
}

const nonEmpty = <T>(name: string, values: readonly T[]): T[] => {
  if (!values.length) throw new BadRequestError(`${name} must be a non-empty comma-separated list`);
  return [...new Set(values)];
};

/**
 * The feed's filter over `s` (a signal, not noise) and `a` (its article).
 */
export const FEED_LIST = defineList({
  name: "SignalFeed",
  items: "feed articles",
  description:
    "Filters of the signals feed (GET /signals, GET /news). An article is listed when at least one of its signals other than noise " +
    "matches every given signal condition (signalType, buyingIntent, districtId, schoolId, state) and the article matches " +
    "query, since, publishedAfter and publishedBefore.",
  filters: [
    filter(
      "signalType",
      enumsOf(FeedSignalType),
      "Signal types, any of them (noise is never listed).",
      (types) => sql`s.signal_type = ANY(${nonEmpty("signal_type", types)}::text[])`,
    ),
    filter(
      "buyingIntent",
      enumsOf(FeedBuyingIntent),
      "Buying intents, any of them: low, medium, high.",
      (intents) => sql`s.buying_intent = ANY(${nonEmpty("buying_intent", intents)}::text[])`,
    ),
    anyOfFilter("districtId", Uuids, sql`s.district_id`, "uuid", "Signals about any of these districts (our district ids, UUID).", {
      nonEmpty: true,
    }),
    anyOfFilter("schoolId", Uuids, sql`s.school_id`, "uuid", "Signals about any of these schools (our school ids, UUID).", {
      nonEmpty: true,
    }),
    filter(
      "query",
      Text,
      "Topic text, 2 to 500 characters: the article's title, or the summary or buying-intent reason of one of its signals other than noise, contains it (any case).",
      (text) => {
        // An article condition over the one text the triggers keep of the title and its signals' summaries and reasons
        // (migration 20261211000000_article_search_text, lower case): its trigram index for a rare topic, a scan for a common one.
        return sql`a.search_text LIKE lower(${containsPattern(checkQuery(text))})`;
      },
    ),
    filter("state", Texts, "Two-letter state codes: signals about a district or school in any of these states.", (states) => {
      const codes = sql.value(checkList("state", states, checkState));
      // Id arrays, so the signals are found through their district_id and school_id indexes (a BitmapOr).
      return sql`(s.district_id = ANY(ARRAY(SELECT dt.id FROM districts dt WHERE dt.state = ANY(${codes}::text[])))
               OR s.school_id = ANY(ARRAY(SELECT st.id FROM schools st WHERE st.state = ANY(${codes}::text[]))))`;
    }),
    filter(
      "since",
      Instant,
      "Ingest cursor for a sync: only articles stored after this instant (ingestedAt > since), ISO 8601 with an offset (Z or +hh:mm).",
      (value) => sql`a.ingested_at > ${instant("since", value)}::timestamptz`,
    ),
    filter(
      "publishedAfter",
      Instant,
      "Only articles published at or after this instant (ISO 8601 with an offset).",
      (value) => sql`a.published_at >= ${instant("published_after", value)}::timestamptz`,
    ),
    filter(
      "publishedBefore",
      Instant,
      "Only articles published before this instant (ISO 8601 with an offset).",
      (value) => sql`a.published_at < ${instant("published_before", value)}::timestamptz`,
    ),
  ],
  sorts: { published_at: "When the article was published (the feed's one order: newest first, then ascending id)." },
  defaultSort: "published_at",
  maxLimit: FEED_MAX_LIMIT,
});

/** Whether each of FEED_LIST's clauses, in declaration order, is a condition on one signal `s` or on the article `a`. */
export const FEED_CLAUSE_SIDES = ["signal", "signal", "signal", "signal", "article", "signal", "article", "article", "article"] as const;
if (FEED_CLAUSE_SIDES.length !== FEED_LIST.clauses.length) throw new Error("news.inputs: FEED_CLAUSE_SIDES must name every clause");

export const SignalFeedFilter = FEED_LIST.Filter;
export type SignalFeedFilter = InstanceType<typeof SignalFeedFilter>;

/** The feed's arguments: the filter and the page (no order: the feed has one). */
@ArgsType()
export class FeedArgs {
  @Field(() => SignalFeedFilter, { nullable: true }) filter?: SignalFeedFilter | null;
  @Extensions({ range: { minimum: 1, maximum: FEED_MAX_LIMIT } })
  @Field(() => Int, { nullable: true, defaultValue: FEED_DEFAULT_LIMIT })
  limit?: number | null;
  @Extensions({ range: { minimum: 0 } })
  @Field(() => Int, { nullable: true, defaultValue: 0 })
  offset?: number | null;
}
