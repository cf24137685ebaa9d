/**
 * A page's nested blocks, read with the page. The list statement carries every selected block except
 * the intelligence lists as columns (json-rows: the same rows, in the same order, as the block loaders
 * read); the intelligence lists have one statement each, for the page's unlocked rows only, so a locked
 * page issues none. Each block is shaped by the functions its field resolver uses and left on the row
 * (PREFETCHED), which the REST executor serves without a resolver call or promise per block and record,
 * and the field resolvers (GraphQL) answer with before asking their loaders.
 */
import type DataLoader from "dataloader";
import type { Context } from "../../graphql/context";
import { PREFETCHED, columnsOf, type Prefetchable } from "../../graphql/fields";
import { assessmentPageSql, decodeAssessmentSummary, decodeGradeRows, decodeStateRows } from "../assessments/assessment.loaders";
import { jsonRowsSql, rowDecoder } from "../common/json-rows";
import type { Selection } from "../common/selection";
import { decodeFinanceRows, specialEducationPageSql } from "../special-education/special-education.loaders";
import { specialEducationFinance } from "../special-education/special-education.service";
import type { BreakdownRowData } from "../statistics/statistics.service";
import { DistrictStatisticsEntry } from "../statistics/statistics.type";
import type { DistrictStatRow } from "./district.loaders";
import type { DistrictRow } from "./district.service";
import { districtAnnualStatistics } from "./district-statistics";

const INTELLIGENCE = ["painPoints", "vendors", "funding", "contracts", "bids"] as const;

const STAT_COLUMNS = columnsOf(DistrictStatisticsEntry);
const BREAKDOWN_COLUMNS = [
  { property: "school_year_start", kind: "int" as const },
  { property: "breakdown_key", kind: "string" as const },
  { property: "category", kind: "string" as const },
  { property: "subgroup", kind: "string" as const },
  { property: "value", kind: "float" as const },
  { property: "value_status", kind: "string" as const },
  { property: "source_version", kind: "string" as const },
  { property: "source_url", kind: "string" as const },
];
const decodeStats = rowDecoder<DistrictStatRow>(STAT_COLUMNS).all;
const decodeBreakdowns = rowDecoder<BreakdownRowData>(BREAKDOWN_COLUMNS).all;

/** The block columns the list statement adds for this selection of a record (`alias`: the districts row). */
export function districtBlockColumns(selection: Selection, alias: string): { column: string; sql: string }[] {
  const columns: { column: string; sql: string }[] = [];
  const annual = selection.fields.get("annualStatistics");
  if (annual) {
    columns.push({
      column: "__block_stats",
      sql: jsonRowsSql("s", STAT_COLUMNS, `district_annual_stats s WHERE s.district_id = ${alias}.id`, "s.school_year_start"),
    });
    if (annual.fields.has("latestBreakdowns") || annual.fields.has("breakdowns")) {
      columns.push({
        column: "__block_breakdowns",
        sql: jsonRowsSql(
          "b",
          BREAKDOWN_COLUMNS,
          `district_stat_breakdowns b WHERE b.district_id = ${alias}.id`,
          "b.breakdown_key, b.school_year_start, b.category, b.subgroup",
        ),
      });
    }
  }
  if (selection.fields.has("specialEducationFinance")) columns.push({ column: "__block_finance", sql: specialEducationPageSql(alias) });
  const assessment = assessmentPageSql("district", alias);
  if (selection.fields.has("assessmentSummary")) columns.push({ column: "__block_assessment_summary", sql: assessment.summary });
  if (selection.fields.has("assessmentGradeRows")) columns.push({ column: "__block_grade_rows", sql: assessment.gradeRows });
  if (selection.fields.has("assessmentStateRows")) columns.push({ column: "__block_state_rows", sql: assessment.stateRows });
  return columns;
}

interface BlockColumns {
  __block_stats?: unknown[][] | null;
  __block_breakdowns?: unknown[][] | null;
  __block_finance?: unknown[][] | null;
  __block_assessment_summary?: unknown[] | null;
  __block_grade_rows?: unknown[][] | null;
  __block_state_rows?: unknown[][] | null;
}

const loadAll = <V>(loader: DataLoader<string, V>, ids: readonly string[]): Promise<V[]> => Promise.all(ids.map((id) => loader.load(id)));

/** After the list statement (with districtBlockColumns): shape its block columns, load the intelligence lists. */
export async function prefetchDistrictBlocks(ctx: Context, rows: readonly DistrictRow[], selection: Selection): Promise<void> {
  const { intelligence } = ctx.loaders;
  const unlocked = rows.filter((row) => row.__unlock_state === "unlocked").map((row) => row.id);
  const lists = await Promise.all(
    INTELLIGENCE.map((field) =>
      selection.fields.has(field) && unlocked.length
        ? loadAll(intelligence.district[field] as DataLoader<string, unknown>, unlocked)
        : undefined,
    ),
  );
  const listsById = INTELLIGENCE.map((_, i) => new Map(unlocked.map((id, j) => [id, lists[i]?.[j]])));

  for (const row of rows) {
    const block = row as DistrictRow & BlockColumns & Prefetchable;
    const ready: Record<string, unknown> = {};
    if (block.__block_stats !== undefined) {
      const stats = decodeStats(block.__block_stats);
      const breakdowns = block.__block_breakdowns !== undefined ? decodeBreakdowns(block.__block_breakdowns) : undefined;
      ready.annualStatistics = districtAnnualStatistics(row, stats, breakdowns);
    }
    if (block.__block_finance !== undefined) {
      const finance = { district_id: row.id, district_name: row.name, rows: decodeFinanceRows(block.__block_finance) };
      ready.specialEducationFinance = specialEducationFinance(finance, row.__history_open);
    }
    if (block.__block_assessment_summary !== undefined) {
      ready.assessmentSummary = decodeAssessmentSummary(block.__block_assessment_summary);
    }
    if (block.__block_grade_rows !== undefined) {
      ready.assessmentGradeRows = decodeGradeRows(block.__block_grade_rows);
    }
    if (block.__block_state_rows !== undefined) {
      ready.assessmentStateRows = decodeStateRows(block.__block_state_rows);
    }
    INTELLIGENCE.forEach((field, f) => {
      if (selection.fields.has(field)) ready[field] = row.__unlock_state === "unlocked" ? listsById[f].get(row.id) : null;
    });
    block[PREFETCHED] = ready;
  }
}
