/**
 * Field dictionary, REST part: descriptions of the OpenAPI document's pieces that map to no GraphQL type
 * (the document itself, the error bodies, headers, the detail wrapper, scalar schemas' REST notes).
 * Everything else in /api/v1/openapi.json takes its description from the GraphQL element it maps to,
 * so the two dictionaries together are its only source (test/rest/openapi.test.ts checks it).
 * Same shape as the GraphQL dictionary; `{name}` marks a value the generator fills in.
 */
import { TYPE, type Dictionary } from "./dictionary";

export const HTTP_DICTIONARY = {
  Document: {
    [TYPE]:
      "US education market data: school districts, schools, childcare centers, Head Start programs, operators, " +
      "contacts and associations. Every endpoint runs a GraphQL operation of the same schema as `POST /graphql`; " +
      "responses use snake_case keys. Authenticate with `Authorization: Bearer sk_live_...`.",
    conventions:
      "HTTP conventions (docs/http-conventions.md): every error has the generic body `{ error, message, statusCode }`. " +
      '401 carries `WWW-Authenticate: Bearer realm="edmarket"` (with `error="invalid_token"` when a key was sent and refused). ' +
      "A known path asked with a method it does not serve answers 405 with `Allow` listing the methods it has (an unknown path stays 404). " +
      "Detail reads (`GET /districts/{id}` and the other reads of one record) send a weak `ETag` and `Cache-Control: private, no-cache`; " +
      "`If-None-Match` with that ETag answers 304 without a body. Responses of 1 KiB or more are compressed with brotli or gzip as " +
      "`Accept-Encoding` allows. Browser origins are allowed by the `CORS_ORIGINS` setting (none by default); `OPTIONS` preflights " +
      "answer 204 without a key. Every response carries `X-Request-Id`, and every costed one `X-Query-Cost` and `X-Query-Cost-Limit` " +
      "(docs/limits.md).",
    apiKey: "An API key of your organization: `Authorization: Bearer sk_live_...`.",
    postQuery: "The query parameters of `GET {path}` as a JSON object of strings (for filters too long for a URL).",
    commaSeparated: "Comma-separated.",
    data: "The record (or records) asked for.",
    csv: "Every matching record (not one page) as CSV with a header row, nested values as dotted columns (docs/exports.md); sent for Accept: text/csv.",
    ndjson: "Every matching record (not one page), one JSON record per line (docs/exports.md); sent for Accept: application/x-ndjson.",
  },
  Headers: {
    "X-Request-Id": "The request's id (the caller's X-Request-Id when valid), also in the logs.",
    "X-Query-Cost": "The cost of the operation this request ran, with its variable values.",
    "X-Query-Cost-Limit": "The highest cost a request may have.",
    "WWW-Authenticate": 'The Bearer challenge (error="invalid_token" when a key was refused).',
    ETag: "A weak validator of this caller's body; send it back as If-None-Match to get a 304.",
    "Content-Disposition": "An export is an attachment: its file name is the resource and the date.",
    "X-Export-Rows": "Rows this export streams: the matching records from offset, at most limit and the plan's cap.",
    "X-Export-Total": "Matching records from offset.",
    "X-Export-Row-Cap": "The most rows one export of this plan streams.",
    "X-Export-Truncated": "true when the plan's row cap cut the export short.",
    "If-None-Match": "An ETag this endpoint answered before: 304 with no body while the record reads the same.",
  },
  ErrorBody: {
    [TYPE]: "The generic error body of every error (src/graphql/errors.ts); some codes add fields.",
    error: "The error's kind, e.g. bad_request, unauthorized, not_found.",
    message: "What went wrong, naming the parameter or property at fault.",
    statusCode: "The HTTP status, repeated.",
    errorAtStatus: "The error's kind at status {status}.",
    always: "Always {value}.",
  },
  InsufficientCreditsError: {
    balance: "Credits available to the organization now.",
    required: "Credits the request needs.",
  },
  ParentEntityLockedError: {
    parent_entity_type: "The contact's parent entity type.",
    parent_entity_id: "The parent to unlock first.",
    unlock_cost: "Credits the parent's unlock costs.",
  },
  FollowLimitError: {
    slots: "The plan's follow slots.",
    "slots.used": "Follow slots in use.",
    "slots.limit": "Follow slots the plan has.",
    "slots.tier": "The organization's plan, e.g. free.",
  },
  EntitlementRequiredError: {
    module: "The module the organization lacks.",
    contact: "Whom to ask for it.",
  },
  UnlockBatchResponse: {
    results: "Each item's result, or its error body with its statusCode, in the order asked.",
  },
  SemanticSearchResponse: {
    data: "The records found, best first: districts, schools or contacts as entity_type asked, served as their lists serve them.",
  },
  BriefPollResponse: {
    brief: "The brief, as GET /briefs answers it for its pair.",
  },
  Notice: {
    [TYPE]: "Something the caller should know about this answer that is not an error (docs/metric-query.md).",
    code:
      "history_gated: the free plan shows only each metric's latest year of a record it does not follow, so the metric " +
      "query's other years and changes read as null for it (filters on them match only is_null).",
    message: "The same in words: which school years were withheld, and how to see them (follow the record, or a paid plan).",
    notices:
      "Present only when there is something to say: a metric query of the free plan that reads years history gating " +
      "withholds (code history_gated).",
  },
} as const satisfies Dictionary;

/** Fills a template's `{name}` marks. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (mark, name: string) => (name in values ? String(values[name]) : mark));
