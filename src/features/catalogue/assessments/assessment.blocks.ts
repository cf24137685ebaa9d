/**
 * The assessment blocks of districts and schools (public: no gating). Grade rows are those of the
 * record's latest school year with grade rows; state rows are the record's state's rows for that same
 * year, so the two compare like for like.
 */
import { columnsOf } from "../../../graphql/fields";
import { defineBlock } from "../../kits/blocks/block";
import { ENTITY_SQL, type EntityKind } from "../../kits/common/entity-kind";
import { jsonRowSql, jsonRowsSql, rowDecoder, type JsonColumn } from "../../kits/common/json-rows";
import { AssessmentGradeRow, AssessmentStateRow, AssessmentSummary } from "./assessment.type";

const SUMMARY_COLUMNS: JsonColumn[] = [
  ...columnsOf(AssessmentSummary),
  { property: "metrics", kind: "json" },
  { property: "coverage", kind: "json" },
];
const GRADE_COLUMNS = columnsOf(AssessmentGradeRow);
const STATE_COLUMNS = columnsOf(AssessmentStateRow);
const decodeSummary = rowDecoder<AssessmentSummary>(SUMMARY_COLUMNS).one;
const decodeGradeRows = rowDecoder<AssessmentGradeRow>(GRADE_COLUMNS).all;
const decodeStateRows = rowDecoder<AssessmentStateRow>(STATE_COLUMNS).all;

/** Rows read as a table: by subject, grade, then student group. */
const rowOrder = (a: string): string =>
  `${a}.subject, ${a}.grade, ${a}.student_group_type NULLS FIRST, ${a}.student_group NULLS FIRST, ${a}.source_id, ${a}.id`;

/** SQL: the latest school year of the record's grade rows (NULL without any). */
const gradeYearSql = (kind: EntityKind, record: string): string =>
  `(SELECT max(agy.school_year) FROM assessment_grade_rows agy WHERE agy.${ENTITY_SQL[kind].ownerColumn} = ${record}.id)`;

export const assessmentSummaryBlock = defineBlock({
  name: "assessment_summary",
  kinds: ["district", "school"],
  sql: ({ kind, record }) =>
    jsonRowSql(
      "asu",
      SUMMARY_COLUMNS,
      `assessment_summaries asu WHERE asu.${ENTITY_SQL[kind].ownerColumn} = ${record}.id`,
      "asu.school_year DESC, asu.loaded_at DESC, asu.source_id",
    ),
  decode: (json) => decodeSummary(json as unknown[] | null),
  fields: [
    {
      name: "assessmentSummary",
      type: () => AssessmentSummary,
      nullable: true,
      shape: (summary) => summary,
    },
  ],
});

export const assessmentGradeRowsBlock = defineBlock({
  name: "assessment_grade_rows",
  kinds: ["district", "school"],
  sql: ({ kind, record }) =>
    jsonRowsSql(
      "agr",
      GRADE_COLUMNS,
      `assessment_grade_rows agr WHERE agr.${ENTITY_SQL[kind].ownerColumn} = ${record}.id AND agr.school_year = ${gradeYearSql(kind, record)}`,
      rowOrder("agr"),
    ),
  decode: (json) => decodeGradeRows(json as unknown[][] | null),
  fields: [
    {
      name: "assessmentGradeRows",
      type: () => [AssessmentGradeRow],
      shape: (rows) => rows,
    },
  ],
});

export const assessmentStateRowsBlock = defineBlock({
  name: "assessment_state_rows",
  kinds: ["district", "school"],
  // Only records with grade rows have state rows to read (no scan of the state rows for the others).
  sql: ({ kind, record }) =>
    `CASE WHEN ${gradeYearSql(kind, record)} IS NOT NULL THEN ${jsonRowsSql(
      "ast",
      STATE_COLUMNS,
      `assessment_state_rows ast WHERE ast.state = ${record}.state AND ast.school_year = ${gradeYearSql(kind, record)}`,
      rowOrder("ast"),
    )} END`,
  decode: (json) => decodeStateRows(json as unknown[][] | null),
  fields: [
    {
      name: "assessmentStateRows",
      type: () => [AssessmentStateRow],
      shape: (rows) => rows,
    },
  ],
});
