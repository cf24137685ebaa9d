/** Helpers shared by the metric tests: insert fixture rows with plain SQL and run a compiled metric query. */
import type { Queryable } from "../../src/db/client";
import { SqlParams } from "../../src/db/sql";
import { defineAccess, historyOpenSql } from "../../src/features/account/access/access.service";
import type { Viewer } from "../../src/features/account/auth/viewer";
import { compileMetricQuery, metricValuesFromRow, parseMetricQuery } from "../../src/features/catalogue/metrics/metric-query";
import type { MetricEntity } from "../../src/features/catalogue/metrics/metrics.catalog";

export async function insertDistrict(db: Queryable, fedId: string): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO districts (fed_id, name, state, data_source) VALUES ($1, $2, 'TN', 'test') RETURNING id`,
    [fedId, `District ${fedId}`],
  );
  return row.id;
}

export async function insertSchool(db: Queryable, fedId: string, districtId: string | null): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO schools (fed_id, name, state, data_source, district_id) VALUES ($1, $2, 'TN', 'test', $3) RETURNING id`,
    [fedId, `School ${fedId}`, districtId],
  );
  return row.id;
}

/** One annual row; `values` maps statistic columns (test-controlled names) to values. */
export async function insertAnnual(
  db: Queryable,
  entity: MetricEntity,
  entityId: string,
  year: number,
  values: Record<string, number | null>,
): Promise<void> {
  const [table, entityColumn] = entity === "district" ? ["district_annual_stats", "district_id"] : ["school_annual_stats", "school_id"];
  const columns = Object.keys(values);
  await db.query(
    `INSERT INTO ${table} (${[entityColumn, "school_year_start", ...columns].join(", ")})
     VALUES (${[entityId, year, ...columns].map((_, i) => `$${i + 1}`).join(", ")})`,
    [entityId, year, ...columns.map((c) => values[c])],
  );
}

export async function insertAssessment(
  db: Queryable,
  entity: MetricEntity,
  entityId: string,
  year: number,
  sourceId: string,
  values: { ela?: number | null; math?: number | null; science?: number | null },
  loadedAt = "2026-01-01T00:00:00Z",
): Promise<void> {
  await db.query(
    `INSERT INTO assessment_summaries (entity_type, ${entity}_id, source_id, state, school_year, metrics, data_source,
       ela_proficiency_pct, math_proficiency_pct, science_proficiency_pct, loaded_at)
     VALUES ($1, $2, $3, 'TN', $4, '{}'::jsonb, 'test', $5, $6, $7, $8)`,
    [entity, entityId, sourceId, year, values.ela ?? null, values.math ?? null, values.science ?? null, loadedAt],
  );
}

export interface MetricRow {
  fed_id: string;
  metric_values: Record<string, number | null>;
}

/** A free organization that follows nothing: every record's history is gated. */
const FREE_VIEWER: Viewer = {
  organizationId: "00000000-0000-4000-8000-00000000f4ee",
  organizationName: "free",
  plan: "free",
  entitlements: new Set(),
  apiKeyId: "none",
};

/**
 * Runs a metric query the way a list service does: `SELECT e.* ... FROM <table> e WHERE ... ORDER BY ...`.
 * Ties (and the no-sort case) are ordered by fed_id so expectations read in fixture order. `plan`
 * "free": with the list services' history gate of a free organization that follows nothing.
 */
export async function runMetricQuery(
  db: Queryable,
  entity: MetricEntity,
  metricQuery: unknown,
  plan: "paid" | "free" = "paid",
): Promise<MetricRow[]> {
  const params = new SqlParams();
  const stateParam = params.add("TN"); // a plain filter before the metric fragments, as the list services have
  const access = defineAccess({ entityType: entity, unlockCost: 0, gatedColumns: [] });
  const gate = plan === "free" ? () => historyOpenSql(FREE_VIEWER, access, "e", params) : null;
  const compiled = compileMetricQuery(entity, parseMetricQuery(entity, JSON.stringify(metricQuery)), params, "e", gate);
  const table = entity === "district" ? "districts" : "schools";
  const sql = `SELECT e.fed_id${compiled.selects.map((s) => `, ${s.sql} AS ${s.column}`).join("")}
    FROM ${table} e
    WHERE ${[`e.state = ${stateParam}`, ...compiled.where].join(" AND ")}
    ORDER BY ${[compiled.orderBy, "e.fed_id"].filter(Boolean).join(", ")}`;
  const rows = await db.query<Record<string, unknown>>(sql, params.values);
  return rows.map((row) => ({ fed_id: String(row.fed_id), metric_values: metricValuesFromRow(compiled.selects, row) }));
}

export const fedIds = (rows: MetricRow[]): string[] => rows.map((row) => row.fed_id);
