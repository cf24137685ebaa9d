/**
 * District and school records: gated (src/features/account/access/), with blocks (this folder), listed with the
 * list kit and queried by metric queries. A resource declares itself once (`defineRecords`); its list
 * page, nested blocks included, is one statement, and its by-id batch another.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { columnsOf } from "../../../graphql/fields";
import {
  accessColumnsSql,
  accessJoinSql,
  historyOpenSql,
  presentGated,
  type AccessPolicy,
  type GatedRow,
} from "../../account/access/access.service";
import type { Viewer } from "../../account/auth/viewer";
import { ENTITY_SQL, type EntityKind } from "../common/entity-kind";
import { selectColumnsSql } from "../common/json-rows";
import {
  checkColumns,
  pageArgs,
  readPage,
  runChecks,
  tablePageSql,
  type FilterCheck,
  type ListArgsOf,
  type PageOf,
} from "../common/list-kit";
import type { List } from "../common/define-list";
import type { Selection } from "../common/selection";
import { compileMetricQuery, historyGatedNotice, metricValuesFromRow, parseMetricQuery } from "../../catalogue/metrics/metric-query";
import { blockColumns, prefetchBlocks } from "./block.service";

/** Alias of the access join in record statements. */
const UNLOCK = "u";
const NOTHING_SELECTED: Selection = { fields: new Map() };

export interface RecordRow extends GatedRow {
  metric_values: Record<string, number | null> | null;
}

export interface RecordsDefinition<F, O extends string> {
  kind: EntityKind;
  /** The GraphQL type: its Col properties are the columns read, its prototype the records'. */
  type: Function;
  /** Alias of the record's table in the filter's clauses and the order. */
  alias: string;
  access: AccessPolicy;
  /** The list's filters and sorts (define-list), their SQL over `alias` and the access join `u`. */
  list: Pick<List<F, O, Viewer>, "where" | "order" | "maxLimit">;
}

export interface Records<F, O extends string> extends RecordsDefinition<F, O> {
  table: string;
  /** SQL select list of the record's columns over `alias` (timestamps as ISO text). */
  columns: string;
}

/** Each record kind's GraphQL type, as its resource declared it (block.resolver.ts attaches blocks' fields to it). */
const RECORD_TYPES = new Map<EntityKind, Function>();

export function recordType(kind: EntityKind): Function {
  const type = RECORD_TYPES.get(kind);
  if (!type) throw new Error(`blocks: no ${kind} records are declared (defineRecords)`);
  return type;
}

export function defineRecords<F, O extends string>(definition: RecordsDefinition<F, O>): Records<F, O> {
  RECORD_TYPES.set(definition.kind, definition.type);
  const columns = columnsOf(definition.type).filter((c) => c.property !== "metric_values");
  return { ...definition, table: ENTITY_SQL[definition.kind].table, columns: selectColumnsSql(definition.alias, columns) };
}

/** The record's columns (and `extra` ones) with the caller's access to it, from `records.table` joined as `records.alias`. */
export function selectRecordsSql<F, O extends string>(records: Records<F, O>, org: string, extra = ""): string {
  const a = records.alias;
  return `SELECT ${records.columns}, ${accessColumnsSql(records.access, a, UNLOCK, org)}${extra}
    FROM ${records.table} ${a} ${accessJoinSql(records.access, a, UNLOCK, org)}`;
}

/** A row read with the record's columns and access -> the record served to this viewer. */
export function presentRecord<Row extends RecordRow>(
  records: { type: Function; access: AccessPolicy },
  row: Record<string, unknown>,
  viewer: Viewer,
): Row {
  const r = presentGated<Row>(row, viewer, records.access);
  r.metric_values ??= null;
  return Object.setPrototypeOf(r, records.type.prototype) as Row;
}

export async function loadRecordsByIds<Row extends RecordRow, F, O extends string>(
  db: Db,
  viewer: Viewer,
  records: Records<F, O>,
  ids: readonly string[],
): Promise<Row[]> {
  const p = new SqlParams();
  const sql = `${selectRecordsSql(records, p.add(viewer.organizationId))} WHERE ${records.alias}.id = ANY(${p.add(ids)}::uuid[])`;
  // By primary key whatever the ids: planned once (a district's took 0.7 ms to plan, 0.3 to run).
  const rows = await db.query<Record<string, unknown>>(sql, p.values, { plan: "generic" });
  return rows.map((row) => presentRecord<Row>(records, row, viewer));
}

/**
 * A page of records: filter, metric query, sort and paging, the total, the blocks `selection` (of one
 * record) asks for, and the filter's checks, in one statement (list-kit tablePageSql). The blocks are left
 * prefetched on the rows.
 */
export async function listRecords<Row extends RecordRow, F, O extends string>(
  db: Db,
  viewer: Viewer,
  records: Records<F, O>,
  args: ListArgsOf<F, O>,
  selection: Selection = NOTHING_SELECTED,
): Promise<PageOf<Row>> {
  const { limit, offset } = pageArgs(args, records.list.maxLimit);
  const { kind, alias: a, table } = records;
  const p = new SqlParams();
  const org = p.add(viewer.organizationId);
  const checks: FilterCheck[] = [];
  const where = records.list.where(args.filter, p, viewer, checks);
  const metricQuery = args.metricQuery != null ? parseMetricQuery(kind, args.metricQuery) : null;
  const metric = metricQuery ? compileMetricQuery(kind, metricQuery, p, a, () => historyOpenSql(viewer, records.access, a, p)) : null;
  if (metric) where.push(...metric.where);
  const order = metric?.orderBy ? `${metric.orderBy}, ${a}.id ASC` : records.list.order(a, args.orderBy, args.orderAscending);
  const extra = [...(metric?.selects ?? []), ...blockColumns(kind, selection, { record: a, unlock: UNLOCK, org })]
    .map((s) => `, ${s.sql} AS ${s.column}`)
    .join("");
  const access = accessJoinSql(records.access, a, UNLOCK, org);
  const sql = tablePageSql({
    table,
    alias: a,
    sharedJoins: access,
    where,
    order,
    limit: p.add(limit),
    offset: p.add(offset),
    select: `${records.columns}, ${accessColumnsSql(records.access, a, UNLOCK, org)}${extra}${checkColumns(checks)}`,
  });
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  // The filter's checks (the caller's lists) ran in the same statement: a failed one answers instead of the page.
  runChecks(checks, rows[0]);
  const page = readPage(rows, limit, offset, (row) => {
    if (metric) row.metric_values = metricValuesFromRow(metric.selects, row);
    return presentRecord<Row>(records, row, viewer);
  });
  prefetchBlocks(kind, page.data, selection);
  if (metricQuery && metric?.historyGated) page.notices = [historyGatedNotice(kind, metricQuery)];
  return page;
}
