import { parse } from "graphql";
import { clip, httpError } from "../../../graphql/errors";
import type { McpToolSpec } from "../../../graphql/mcp-tool";
import { FEED_MAX_LIMIT, FeedBuyingIntent, FeedSignalType, QUERY_MAX_LENGTH, QUERY_MIN_LENGTH } from "./news.inputs";

const ARTICLE = `id url title domain author description publishedAt ingestedAt dataSource
  signals {
    signalType buyingIntent buyingIntentReason summary signalDate signalDateConfidence extractionConfidence evidence payload
    entityType entityResolutionStatus entityMatchConfidence entityMatchReason district { id name state fedId } school { id name state }
  }`;
const PAGINATION = "pagination { total limit offset hasMore totalExact }";

const SIGNALS = parse(`
  query McpSignals($filter: SignalFeedFilter, $limit: Int, $offset: Int) {
    signals(filter: $filter, limit: $limit, offset: $offset) { data { ${ARTICLE} } ${PAGINATION} }
  }`);
const NEWS = parse(`
  query McpNews($filter: SignalFeedFilter, $limit: Int, $offset: Int) {
    news(filter: $filter, limit: $limit, offset: $offset) { data { ${ARTICLE} } ${PAGINATION} }
  }`);
const ARTICLE_BY_ID = parse(`
  query McpNewsArticle($id: UUID!) {
    newsArticle(id: $id) { ${ARTICLE} }
  }`);

const uuids = (what: string) => ({
  type: "array",
  items: { type: "string", format: "uuid" },
  description: `Our ids of ${what} (UUID), any of them.`,
});
const instant = (description: string) => ({ type: "string", format: "date-time", description });

/** The feed's filter (SignalFeedFilter, GraphQL input field names), as the tools take it. */
const FILTER_SCHEMA = {
  type: "object",
  description:
    "Which articles to list: at least one signal other than noise matches every signal condition; the article matches the dates.",
  properties: {
    signalType: {
      type: "array",
      items: { type: "string", enum: Object.values(FeedSignalType) },
      description: "Signal types, any of them.",
    },
    buyingIntent: {
      type: "array",
      items: { type: "string", enum: Object.values(FeedBuyingIntent) },
      description: "Buying intents, any of them.",
    },
    districtId: uuids("districts"),
    schoolId: uuids("schools"),
    query: {
      type: "string",
      minLength: QUERY_MIN_LENGTH,
      maxLength: QUERY_MAX_LENGTH,
      description: "Topic text found in a signal's summary or buying-intent reason or in the article's title (any case).",
    },
    state: {
      type: "array",
      items: { type: "string", pattern: "^[A-Za-z]{2}$" },
      description: "Two-letter state codes of the signal's district or school.",
    },
    since: instant("Ingest cursor: only articles stored after this instant (the newest ingestedAt of the previous sync)."),
    publishedAfter: instant("Only articles published at or after this instant."),
    publishedBefore: instant("Only articles published before this instant."),
  },
  additionalProperties: false,
};

const PAGE_PROPERTIES = {
  filter: FILTER_SCHEMA,
  limit: { type: "integer", minimum: 1, maximum: FEED_MAX_LIMIT, description: `Articles per page, 1 to ${FEED_MAX_LIMIT} (default 50).` },
  offset: { type: "integer", minimum: 0, description: "Articles to skip (default 0)." },
};

const SHAPE =
  (field: string) =>
  (data: Record<string, unknown>): Record<string, unknown> =>
    data[field] as Record<string, unknown>;

/** The MCP face of the signals feed: GET /signals, GET /news and GET /news/{id} (docs/signals.md). */
export const newsTools: McpToolSpec[] = [
  {
    name: "signals_feed",
    title: "Read the catalog-wide signals feed",
    description:
      "News-derived signals about US school districts and schools (why now: bonds, leadership changes, staffing shortages, RFPs ...), " +
      "as GET /api/v1/signals: articles, newest first, each with its signals other than noise (type, buying intent and its reason, " +
      "summary, date, evidence, payload, the district or school). Needs the organization's signals module (entitlement_required " +
      "otherwise; news_feed needs none). pagination.totalExact is false when more than 10,000 articles match.",
    inputSchema: { type: "object", properties: PAGE_PROPERTIES, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["filter", "limit", "offset"],
    required: [],
    plan: (args) => ({
      document: SIGNALS,
      variables: { filter: args.filter, limit: args.limit, offset: args.offset },
      shape: SHAPE("signals"),
    }),
  },
  {
    name: "news_feed",
    title: "Read the signals of followed and unlocked districts and schools",
    description:
      "The signals feed within the districts and schools the organization follows or has unlocked, as GET /api/v1/news: the same " +
      "filters, order and articles as signals_feed, no module needed.",
    inputSchema: { type: "object", properties: PAGE_PROPERTIES, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["filter", "limit", "offset"],
    required: [],
    plan: (args) => ({ document: NEWS, variables: { filter: args.filter, limit: args.limit, offset: args.offset }, shape: SHAPE("news") }),
  },
  {
    name: "news_article",
    title: "Read one news article with its signals",
    description:
      "One article with every signal but noise, as GET /api/v1/news/{id}; not_found when none of its signals is about a district or " +
      "school the organization follows or has unlocked.",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", format: "uuid", description: "Our id of the article (UUID)." } },
      required: ["id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["id"],
    required: ["id"],
    plan: (args) => ({
      document: ARTICLE_BY_ID,
      variables: { id: args.id },
      shape: (data) =>
        data.news_article ? { data: data.news_article } : httpError("NOT_FOUND", `news article ${clip(String(args.id))} not found`),
    }),
  },
];
