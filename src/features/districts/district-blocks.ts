/**
 * A page's nested blocks, loaded up front by the list resolver: every selected block's loader gets all
 * ids of the page at once (one statement per block, as field-by-field loading would issue, but all in
 * flight together instead of in waves), each block is shaped by the same functions its field resolver
 * uses, and the value is left on the row (PREFETCHED). The REST executor then serves the page without
 * a resolver call or promise per block and record; the field resolvers find the rows in the loaders.
 * Intelligence lists are loaded for unlocked rows only: a locked page issues no intelligence statement.
 */
import type DataLoader from "dataloader";
import type { Context } from "../../graphql/context";
import { PREFETCHED } from "../../graphql/fields";
import type { Selection } from "../common/selection";
import { specialEducationFinance } from "../special-education/special-education.service";
import type { DistrictRow } from "./district.service";
import { districtAnnualStatistics } from "./district-statistics";

const INTELLIGENCE = ["painPoints", "vendors", "funding", "contracts", "bids"] as const;

const loadAll = <V>(loader: DataLoader<string, V>, ids: readonly string[]): Promise<V[]> => Promise.all(ids.map((id) => loader.load(id)));

/** `selection`: what the query selects of each record (GraphQL field names). */
export async function prefetchDistrictBlocks(ctx: Context, rows: readonly DistrictRow[], selection: Selection): Promise<void> {
  if (!rows.length) return;
  const ids = rows.map((row) => row.id);
  const wants = (field: string) => selection.fields.has(field);
  const { districts, assessments, specialEducation, intelligence } = ctx.loaders;
  const annual = selection.fields.get("annualStatistics");
  const withBreakdowns = annual !== undefined && (annual.fields.has("latestBreakdowns") || annual.fields.has("breakdowns"));
  const unlocked = rows.filter((row) => row.__unlock_state === "unlocked").map((row) => row.id);

  const [stats, breakdowns, finance, summaries, gradeRows, stateRows, ...lists] = await Promise.all([
    annual ? loadAll(districts.annualStats, ids) : undefined,
    withBreakdowns ? loadAll(districts.breakdowns, ids) : undefined,
    wants("specialEducationFinance") ? loadAll(specialEducation.byDistrict, ids) : undefined,
    wants("assessmentSummary") ? loadAll(assessments.district.summary, ids) : undefined,
    wants("assessmentGradeRows") ? loadAll(assessments.district.gradeRows, ids) : undefined,
    wants("assessmentStateRows") ? loadAll(assessments.district.stateRows, ids) : undefined,
    ...INTELLIGENCE.map((field) =>
      wants(field) && unlocked.length ? loadAll(intelligence.district[field] as DataLoader<string, unknown>, unlocked) : undefined,
    ),
  ]);

  const listsById = INTELLIGENCE.map((_, i) => new Map(unlocked.map((id, j) => [id, lists[i]?.[j]])));
  rows.forEach((row, i) => {
    const ready: Record<string, unknown> = {};
    if (stats) ready.annualStatistics = districtAnnualStatistics(row, stats[i], breakdowns?.[i]);
    if (finance) ready.specialEducationFinance = specialEducationFinance(finance[i], row.__history_open);
    if (summaries) ready.assessmentSummary = summaries[i];
    if (gradeRows) ready.assessmentGradeRows = gradeRows[i];
    if (stateRows) ready.assessmentStateRows = stateRows[i];
    INTELLIGENCE.forEach((field, f) => {
      if (wants(field)) ready[field] = row.__unlock_state === "unlocked" ? listsById[f].get(row.id) : null;
    });
    (row as DistrictRow & { [PREFETCHED]?: Record<string, unknown> })[PREFETCHED] = ready;
  });
}
