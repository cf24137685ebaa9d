/**
 * Per-request assessment loaders, one set per entity kind. Each batch is one statement over all ids of
 * the page. Grade rows are those of the entity's latest school year with grade rows; state rows are the
 * entity's state's rows for that same year, so the two compare like for like.
 */
import DataLoader from "dataloader";
import { byKeys, groupByKeys } from "../../db/batch";
import type { Db } from "../../db/client";
import { columnsOf } from "../../graphql/fields";
import { ENTITY_SQL, perEntityKind, type EntityKind } from "../common/entity-kind";
import { jsonRowSql, jsonRowsSql, rowDecoder } from "../common/json-rows";
import { AssessmentGradeRow, AssessmentStateRow, AssessmentSummary } from "./assessment.type";

type Owned<T> = T & Record<string, unknown>;

/** Rows read as a table: by subject, grade, then student group. */
const rowOrder = (a: string): string =>
  `${a}.subject, ${a}.grade, ${a}.student_group_type NULLS FIRST, ${a}.student_group NULLS FIRST, ${a}.source_id, ${a}.id`;

function createKindLoaders(db: Db, kind: EntityKind) {
  const { table, ownerColumn: owner } = ENTITY_SQL[kind];
  return {
    summary: new DataLoader<string, AssessmentSummary | null>(async (ids) => {
      const rows = await db.query<Owned<AssessmentSummary>>(
        `SELECT DISTINCT ON (${owner}) * FROM assessment_summaries WHERE ${owner} = ANY($1::uuid[])
          ORDER BY ${owner}, school_year DESC, loaded_at DESC, source_id`,
        [ids],
      );
      return byKeys(ids, rows, (r) => r[owner] as string);
    }),
    gradeRows: new DataLoader<string, AssessmentGradeRow[]>(async (ids) => {
      const rows = await db.query<Owned<AssessmentGradeRow>>(
        `SELECT g.* FROM assessment_grade_rows g
           JOIN (SELECT ${owner}, max(school_year) AS school_year FROM assessment_grade_rows
                  WHERE ${owner} = ANY($1::uuid[]) GROUP BY ${owner}) latest
             ON latest.${owner} = g.${owner} AND latest.school_year = g.school_year
          ORDER BY g.${owner}, ${rowOrder("g")}`,
        [ids],
      );
      return groupByKeys(ids, rows, (r) => r[owner] as string);
    }),
    stateRows: new DataLoader<string, AssessmentStateRow[]>(async (ids) => {
      // Entities of one state share their state rows: each row comes once, with the ids it belongs to.
      const rows = await db.query<Owned<AssessmentStateRow> & { __entity_ids: string[] }>(
        `WITH targets AS (
           SELECT e.id AS entity_id, e.state, max(g.school_year) AS school_year
             FROM ${table} e JOIN assessment_grade_rows g ON g.${owner} = e.id
            WHERE e.id = ANY($1::uuid[]) GROUP BY e.id, e.state)
         SELECT s.*, array_agg(t.entity_id::text) AS __entity_ids
           FROM assessment_state_rows s JOIN targets t ON t.state = s.state AND t.school_year = s.school_year
          GROUP BY s.id
          ORDER BY ${rowOrder("s")}`,
        [ids],
      );
      const groups = new Map<string, AssessmentStateRow[]>(ids.map((id) => [id, []]));
      for (const row of rows) for (const id of row.__entity_ids) groups.get(id)?.push(row);
      return ids.map((id) => groups.get(id) ?? []);
    }),
  };
}

const SUMMARY_COLUMNS = [
  ...columnsOf(AssessmentSummary),
  { property: "metrics", kind: "json" as const },
  { property: "coverage", kind: "json" as const },
];
const GRADE_COLUMNS = columnsOf(AssessmentGradeRow);
const STATE_COLUMNS = columnsOf(AssessmentStateRow);

/**
 * The three assessment fields of the entity row `alias` as columns of a list statement (json-rows):
 * the same rows, in the same order, as the loaders above read for that entity.
 */
export function assessmentPageSql(kind: EntityKind, alias: string): { summary: string; gradeRows: string; stateRows: string } {
  const { ownerColumn: owner } = ENTITY_SQL[kind];
  const gradeYear = `(SELECT max(y.school_year) FROM assessment_grade_rows y WHERE y.${owner} = ${alias}.id)`;
  return {
    summary: jsonRowSql(
      "a",
      SUMMARY_COLUMNS,
      `assessment_summaries a WHERE a.${owner} = ${alias}.id`,
      "a.school_year DESC, a.loaded_at DESC, a.source_id",
    ),
    gradeRows: jsonRowsSql(
      "g",
      GRADE_COLUMNS,
      `assessment_grade_rows g WHERE g.${owner} = ${alias}.id AND g.school_year = ${gradeYear}`,
      rowOrder("g"),
    ),
    // Only entities with grade rows have state rows to read (no scan of the state rows for the others).
    stateRows: `CASE WHEN ${gradeYear} IS NOT NULL THEN ${jsonRowsSql("s", STATE_COLUMNS, `assessment_state_rows s WHERE s.state = ${alias}.state AND s.school_year = ${gradeYear}`, rowOrder("s"))} END`,
  };
}

export const decodeAssessmentSummary = rowDecoder<AssessmentSummary>(SUMMARY_COLUMNS).one;
export const decodeGradeRows = rowDecoder<AssessmentGradeRow>(GRADE_COLUMNS).all;
export const decodeStateRows = rowDecoder<AssessmentStateRow>(STATE_COLUMNS).all;

export function createAssessmentLoaders(db: Db) {
  return perEntityKind((kind) => createKindLoaders(db, kind));
}

export type AssessmentLoaders = ReturnType<typeof createAssessmentLoaders>;
