/**
 * GET /metrics: the allowed metrics of an entity with their types and the school years present in the
 * database. One aggregate statement per source table, however many metrics it holds.
 */
import type { Queryable } from "../../../db/client";
import { ident } from "../../../db/sql";
import { METRICS, type MetricDef, type MetricEntity, type MetricSource, type MetricType } from "./metrics.catalog";

export interface MetricCatalogueEntry {
  metric: string;
  type: MetricType;
  source: MetricSource;
  /** Ascending school years in which at least one record has a non-null value. */
  years: number[];
}

/** For each metric of one table: the years with a value, from one `GROUP BY year` pass. */
async function yearsByMetric(db: Queryable, defs: readonly MetricDef[]): Promise<Map<string, number[]>> {
  const { table, yearColumn, entityColumn } = defs[0];
  // Columns are named by position so metric names never need to be valid result-column names.
  const present = defs.map((def, i) => `bool_or(${ident(def.column)} IS NOT NULL) AS has_${i}`).join(", ");
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${ident(yearColumn)} AS year, ${present} FROM ${ident(table)}
      WHERE ${ident(entityColumn)} IS NOT NULL GROUP BY ${ident(yearColumn)} ORDER BY ${ident(yearColumn)}`,
  );
  return new Map(defs.map((def, i) => [def.metric, rows.filter((row) => row[`has_${i}`] === true).map((row) => Number(row.year))]));
}

export async function metricsCatalogue(db: Queryable, entity: MetricEntity): Promise<MetricCatalogueEntry[]> {
  const byTable = new Map<string, MetricDef[]>();
  for (const def of METRICS[entity]) byTable.set(def.table, [...(byTable.get(def.table) ?? []), def]);
  const perTable = await Promise.all([...byTable.values()].map((defs) => yearsByMetric(db, defs)));
  const years = new Map(perTable.flatMap((map) => [...map]));
  return METRICS[entity].map((def) => ({ metric: def.metric, type: def.type, source: def.source, years: years.get(def.metric) ?? [] }));
}
