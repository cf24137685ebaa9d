/**
 * The read side of the signals feed (docs/signals.md, "Reading the feed"): GET /signals (catalog-wide, the
 * `signals` entitlement), GET /news and GET /news/{id} (scoped to the districts and schools the caller's
 * organization follows or has unlocked), and the District.signals / School.signals relations.
 *
 * Every read is one hand-written statement (filter, capped count, page, and each article's signals as JSON),
 * as every list (list kit): Prisma would need one statement per relation and per count. Measured by
 * bench/signals-api.ts.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { sql } from "../../../db/sql-template";
import type { Tx } from "../../../db/transaction";
import { emitEventsFor } from "../../account/webhooks/webhook.outbox";
import type { Viewer } from "../../account/auth/viewer";
import { AppError } from "../../../graphql/errors";
import { childPageColumns, childPagesSql, compileFilter, pageArgs, readChildPages, type PageOf } from "../../kits/common/list-kit";
import { isoTimestampSql } from "../../kits/common/json-rows";
import {
  FEED_COUNT_CAP,
  FEED_DEFAULT_LIMIT,
  FEED_LIST,
  FEED_MAX_LIMIT,
  FEED_CLAUSE_SIDES,
  type FeedArgs,
  type SignalFeedFilter,
} from "./news.inputs";
import { NewsArticle, type FeedPagination } from "./news.type";

/** The module GET /signals needs (contract section 2). */
export const SIGNALS_MODULE = "signals";

/** A page of the feed: articles and the feed's pagination (total_exact). */
export interface FeedPage {
  data: NewsArticle[];
  pagination: FeedPagination;
}

/**
 * Which signals a read may see: `all` (the `signals` entitlement: the catalog) or `scoped` (the districts and
 * schools the organization follows, with an active follow, or has unlocked).
 */
export type FeedScope = { kind: "all" } | { kind: "scoped"; organizationId: string };

/** 403 entitlement_required unless the organization has the `signals` module; `contact` is whom to ask (SALES_CONTACT). */
export function requireSignals(viewer: Viewer, contact: string): void {
  if (!viewer.entitlements.has(SIGNALS_MODULE))
    throw new AppError(
      "ENTITLEMENT_REQUIRED",
      "the signals feed needs the signals module: ask us to add it to your organization (GET /news serves the signals of the districts and schools you follow or unlocked)",
      { module: SIGNALS_MODULE, contact },
    );
}

/** The scope of a viewer's relation reads (District.signals): the catalog with the module, else its follows and unlocks. */
export const relationScope = (viewer: Viewer): FeedScope =>
  viewer.entitlements.has(SIGNALS_MODULE) ? { kind: "all" } : { kind: "scoped", organizationId: viewer.organizationId };

/** A signal the feed never lists. */
const NOT_NOISE = `s.signal_type <> 'noise'`;
/** The joins of a served signal `s`: its district `sd` and school `ss`. */
const SIGNAL_JOINS = `LEFT JOIN districts sd ON sd.id = s.district_id LEFT JOIN schools ss ON ss.id = s.school_id`;
/** The feed's order over `alias` (contract section 6): newest first, articles without a date last, then ascending id. */
const feedOrder = (alias: string): string => `${alias}.published_at DESC NULLS LAST, ${alias}.id ASC`;

/** The scope's entities (`WITH` entry `scope(entity_type, entity_id)`): active follows and unlocks of the organization. */
const scopeCte = (org: string): string =>
  `scope AS MATERIALIZED (
     SELECT f.entity_type, f.entity_id FROM follows f WHERE f.organization_id = ${org}::uuid AND f.unfollowed_at IS NULL
     UNION SELECT u.entity_type, u.entity_id FROM unlocks u WHERE u.organization_id = ${org}::uuid AND u.state = 'unlocked')`;
/** SQL true when signal `s` is about an entity of the scope (its district, or its school). */
const IN_SCOPE = `(s.district_id IN (SELECT entity_id FROM scope WHERE entity_type = 'district')
                OR s.school_id IN (SELECT entity_id FROM scope WHERE entity_type = 'school'))`;

/**
 * SQL true when signal `s` may be read by `scope` (`org`: the placeholder of the organization's id): any signal for
 * `all`, else one about an entity the organization follows or has unlocked. Readers beyond the feed (the opportunity
 * agent) use it, so a signal an organization may not read never reaches it another way.
 */
export const signalReadableSql = (scope: FeedScope["kind"], org: string): string =>
  scope === "all" ? "true" : `EXISTS (WITH ${scopeCte(org)} SELECT 1 WHERE ${IN_SCOPE})`;

/**
 * `signal.created` for the signals of an article written in transaction `tx` (docs/webhooks.md), each to every
 * subscribed organization that may read it by the feed's rule: the whole feed with the signals module, else
 * `signalReadableSql`'s scope. The payload is the feed's signal item. One statement.
 */
export const emitSignalsCreated = (tx: Tx, articleId: string): Promise<void> =>
  emitEventsFor(
    tx,
    "signal.created",
    (org) => sql`SELECT ${sql.raw(SIGNAL_JSON)}::jsonb AS data FROM signals s ${sql.raw(SIGNAL_JOINS)}
      WHERE s.article_id = ${articleId}::uuid AND ${sql.raw(NOT_NOISE)}
        AND (EXISTS (SELECT 1 FROM organizations o WHERE o.id = ${sql.raw(org)} AND ${SIGNALS_MODULE}::text = ANY(o.entitlements))
             OR ${sql.raw(signalReadableSql("scoped", org))})`,
  );

/** The signal conditions and article conditions of a filter (in declaration order, so the first bad parameter is reported). */
function feedConditions(filter: SignalFeedFilter | null | undefined, p: SqlParams): { signal: string[]; article: string[] } {
  const f = filter ?? {};
  const sides = { signal: [] as string[], article: [] as string[] };
  FEED_LIST.clauses.forEach((clause, i) => sides[FEED_CLAUSE_SIDES[i]].push(...compileFilter([clause], f, p, undefined)));
  return sides;
}

/** The columns of a signal `s` as the spec's signal item (with its district `sd` and school `ss`), one JSON object. */
const SIGNAL_JSON = `json_build_object(
    'id', s.id, 'signal_type', s.signal_type, 'buying_intent', s.buying_intent, 'buying_intent_reason', s.buying_intent_reason,
    'summary', s.summary, 'signal_date', to_char(s.signal_date, 'YYYY-MM-DD'), 'signal_date_confidence', s.signal_date_confidence,
    'extraction_confidence', s.extraction_confidence, 'evidence', s.evidence, 'payload', s.payload, 'entity_type', s.entity_type,
    'entity_resolution_status', s.entity_resolution_status, 'entity_match_confidence', s.entity_match_confidence,
    'entity_match_reason', s.entity_match_reason,
    'district', CASE WHEN sd.id IS NULL THEN NULL ELSE json_build_object('id', sd.id, 'name', sd.name, 'state', sd.state, 'fed_id', sd.fed_id) END,
    'school', CASE WHEN ss.id IS NULL THEN NULL ELSE json_build_object('id', ss.id, 'name', ss.name, 'state', ss.state) END,
    'data_source', s.data_source)`;

/** Order of an article's signals: high intent first, then medium, low, none; then ascending id. */
const SIGNAL_ORDER = `CASE s.buying_intent WHEN 'high' THEN 0 WHEN 'medium' THEN 1 WHEN 'low' THEN 2 ELSE 3 END, s.id`;

/** The served columns of article `a`, its signals (every one but noise) as a JSON array. */
const ARTICLE_COLUMNS = `a.id, a.url, a.title, a.domain, a.author, a.description, ${isoTimestampSql("a.published_at")} AS published_at,
    ${isoTimestampSql("a.ingested_at")} AS ingested_at, a.data_source,
    coalesce((SELECT json_agg(${SIGNAL_JSON} ORDER BY ${SIGNAL_ORDER})
                FROM signals s ${SIGNAL_JOINS} WHERE s.article_id = a.id AND ${NOT_NOISE}), '[]'::json) AS signals`;

const present = (row: Record<string, unknown>): NewsArticle => {
  if (typeof row.signals === "string") row.signals = JSON.parse(row.signals);
  return Object.setPrototypeOf(row, NewsArticle.prototype) as NewsArticle;
};

/**
 * The feed's pagination: `total` counted up to `cap` matching articles; beyond it, `total` is the cap and
 * `total_exact` false. Then `has_more` is known while the page ends within the cap, and past it is true when the
 * page is full (`rows`: the page's article count).
 */
export function feedPagination(counted: number, cap: number, limit: number, offset: number, rows: number): FeedPagination {
  const exact = counted <= cap;
  const total = exact ? counted : cap;
  const has_more = exact ? offset + limit < total : offset + limit <= cap || rows === limit;
  return { total, limit, offset, has_more, total_exact: exact };
}

/**
 * The ids of a page of articles (`where` over `a`) in feed order. Dated articles come first, read in the order of
 * the index articles(published_at DESC, id) (a DESC index puts nulls first, so the NULLS LAST order cannot walk it),
 * then undated ones by id, read from the head of the same index (all null there, in id order): each part stops at
 * offset + limit rows.
 */
const pageIdsSql = (where: string, limit: string, offset: string): string => {
  const upTo = `${offset}::bigint + ${limit}::bigint`;
  return `SELECT u.id FROM (
      (SELECT a.id, a.published_at, 0 AS undated FROM articles a ${where} AND a.published_at IS NOT NULL
        ORDER BY a.published_at DESC, a.id LIMIT ${upTo})
      UNION ALL
      (SELECT a.id, a.published_at, 1 AS undated FROM articles a ${where} AND a.published_at IS NULL
        ORDER BY a.published_at DESC, a.id LIMIT ${upTo})) u
    ORDER BY u.undated, u.published_at DESC, u.id LIMIT ${limit} OFFSET ${offset}`;
};

/**
 * One page of the feed: GET /signals (`scope` all) or GET /news (`scope` scoped). `countCap` is the count's cap
 * (FEED_COUNT_CAP; a test lowers it). One statement: the count stops at cap + 1 matching articles, and the page
 * walks the articles in feed order (pageIdsSql) until it has its rows.
 */
export async function listFeed(db: Db, scope: FeedScope, args: FeedArgs, countCap = FEED_COUNT_CAP): Promise<FeedPage> {
  const { limit, offset } = pageArgs(args, FEED_MAX_LIMIT, FEED_DEFAULT_LIMIT);
  const p = new SqlParams();
  const { signal, article } = feedConditions(args.filter, p);
  const ctes = scope.kind === "scoped" ? [scopeCte(p.add(scope.organizationId))] : [];
  const hasSignal = `EXISTS (SELECT 1 FROM signals s
      WHERE s.article_id = a.id AND ${[NOT_NOISE, ...(scope.kind === "scoped" ? [IN_SCOPE] : []), ...signal].join(" AND ")})`;
  const where = `WHERE ${[hasSignal, ...article].join(" AND ")}`;
  const cap = p.add(countCap + 1);
  const page = (ids: string) => `LEFT JOIN LATERAL (
        SELECT ${ARTICLE_COLUMNS}, row_number() OVER (ORDER BY ${feedOrder("a")}) AS __position
          FROM (${ids}) hit JOIN articles a ON a.id = hit.id) page ON true
     ORDER BY page.__position`;
  // The count and the page each walk the articles as the planner sees fit (the page in feed order, stopping early).
  const statement = `${ctes.length ? `WITH ${ctes.join(", ")}` : ""}
    SELECT counted.n AS __count, page.*
      FROM (SELECT count(*)::int AS n FROM (SELECT 1 FROM articles a ${where} LIMIT ${cap}) capped) counted
      ${page(pageIdsSql(where, p.add(limit), p.add(offset)))}`;
  const rows = await db.query<Record<string, unknown>>(statement, p.values);
  const counted = rows.length ? Number(rows[0].__count) : 0;
  const data = rows.filter((row) => row.__position !== null).map(({ __count, __position, ...row }) => present(row));
  return { data, pagination: feedPagination(counted, countCap, limit, offset, data.length) };
}

/**
 * One article with every signal but noise (GET /news/{id}), or null when it is outside `scope`: no signal
 * other than noise about an entity of the scope (or no such article). One statement.
 */
export async function loadFeedArticles(db: Db, scope: FeedScope, ids: readonly string[]): Promise<(NewsArticle | null)[]> {
  const p = new SqlParams();
  const ctes = scope.kind === "scoped" ? `WITH ${scopeCte(p.add(scope.organizationId))}` : "";
  const rows = await db.query<Record<string, unknown>>(
    `${ctes} SELECT ${ARTICLE_COLUMNS} FROM articles a
      WHERE a.id = ANY(${p.add(ids)}::uuid[])
        AND EXISTS (SELECT 1 FROM signals s WHERE s.article_id = a.id AND ${[NOT_NOISE, ...(ctes ? [IN_SCOPE] : [])].join(" AND ")})`,
    p.values,
  );
  const byId = new Map(rows.map((row) => [row.id as string, present(row)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** What a feed relation is of: District.signals (signals whose district is the parent) or School.signals. */
export type FeedParent = "district" | "school";

/**
 * The feed within each of several districts or schools (District.signals, School.signals): for every parent,
 * the page of articles with a signal other than noise about it that matches the filter, in feed order, with
 * its exact total. One statement for all parents (list kit childPagesSql).
 */
export async function loadFeedPagesOf(
  db: Db,
  scope: FeedScope,
  parent: FeedParent,
  parentIds: readonly string[],
  args: FeedArgs,
): Promise<FeedPage[]> {
  const page = pageArgs(args, FEED_MAX_LIMIT, FEED_DEFAULT_LIMIT);
  const p = new SqlParams();
  const { signal, article } = feedConditions(args.filter, p);
  const ctes = scope.kind === "scoped" ? `WITH ${scopeCte(p.add(scope.organizationId))}` : undefined;
  const column = parent === "district" ? "s.district_id" : "s.school_id";
  const hits = `SELECT DISTINCT ${column} AS parent, s.article_id FROM signals s JOIN articles a ON a.id = s.article_id
      WHERE ${[`${column} = ANY(${p.add(parentIds)}::uuid[])`, NOT_NOISE, ...(ctes ? [IN_SCOPE] : []), ...signal, ...article].join(" AND ")}`;
  const rows = `SELECT pa.id AS __id${childPageColumns("k.parent", feedOrder("pa"))}
      FROM (${hits}) k JOIN articles pa ON pa.id = k.article_id`;
  const statement = childPagesSql({
    with: ctes,
    rows,
    limit: p.add(page.limit),
    offset: p.add(page.offset),
    select: ARTICLE_COLUMNS,
    join: "JOIN articles a ON a.id = x.__id",
  });
  const found = await db.query<Record<string, unknown>>(statement, p.values);
  const pages = readChildPages(found, parentIds, page, ({ __id, __parent, __rn, __page_total, ...row }) => present(row));
  return pages.map((p: PageOf<NewsArticle>) => ({
    data: p.data,
    pagination: { ...p.pagination, total_exact: true },
  }));
}
