/**
 * Urban Institute Education Data Portal extract of F-33 district finance (Tennessee, FY2018) ->
 * the finance columns of district_annual_stats for school year 2017-18 (finance_fiscal_year 2018), and
 * the district record's headline finance fields. ODC-By 1.0: every row carries the attribution in
 * source_urls. The extract's `enrollment` column is CCD 2022-23 membership (the data dictionary's year 2022):
 * it is written as the 2022 row's total_enrollment (with fed_membership_version), never paired with FY2018
 * spending. Per-student FY2018 spending divides only by an enrollment of the same school year (2017-18, from
 * another source); without one it stays null. Rows with no finance value at all ("Missing/not reported" or
 * blank: six TN state agencies) write no finance row, only their 2022 enrollment.
 */
import type { CsvRow } from "../csv";
import { loadDistrictIds } from "../lookups";
import type { Ingestor } from "../types";
import { SeenKeys, Upserter, type UpsertSpec } from "../upsert";
import { RowError, digits, float, int, percent } from "../values";
import { batchRows, districtStatsSpec } from "./common";

const FISCAL_YEAR = 2018;
const SCHOOL_YEAR_START = FISCAL_YEAR - 1;
const F33_VERSION = "F-33 FY2018 via Urban Institute Education Data Portal (export 2024-06-18)";
/** The CCD directory year of `enrollment` (data_dictionary.csv: 2022), i.e. school year 2022-23. */
const ENROLLMENT_SCHOOL_YEAR = 2022;
const ENROLLMENT_VERSION = "CCD 2022-23 membership via Urban Institute Education Data Portal (export 2024-06-18)";
const SOURCE_URLS = {
  f33: "https://educationdata.urban.org/",
  f33_attribution:
    "Urban Institute Education Data Portal (ODC-By 1.0), from NCES Common Core of Data / Census F-33 School District Finance Survey",
  f33_license: "https://opendatacommons.org/licenses/by/1-0/",
};

/** Publisher column -> district_annual_stats column. */
const FINANCE: Readonly<Record<string, string>> = {
  exp_total: "total_expenditures",
  exp_current_elsec_total: "current_expenditures",
  exp_current_instruction_total: "instruction_expenditures",
  exp_current_supp_serve_total: "support_services_expenditures",
  exp_current_pupils: "student_support_expenditures",
  exp_current_instruc_staff: "instructional_staff_support_expenditures",
  exp_current_general_admin: "general_administration_expenditures",
  exp_current_sch_admin: "school_administration_expenditures",
  exp_current_operation_plant: "operations_maintenance_expenditures",
  exp_current_student_transport: "student_transportation_expenditures",
  exp_utilities_energy: "utilities_energy_expenditures",
  exp_tech_supplies_services: "technology_supplies_services_expenditures",
  exp_tech_equipment: "technology_equipment_expenditures",
};

/** The portal export spells its special values out. */
const URBAN_CODES = { "Missing/not reported": "missing", "Not applicable": "not_applicable", "Suppressed data": "suppressed" } as const;

const FINANCE_SPEC = districtStatsSpec([
  ...Object.values(FINANCE),
  "finance_fiscal_year",
  "f33_version",
  "current_expenditures_per_student",
]);
/** Per-student spending from the same row's (same school year's) enrollment only; none there: null. */
const STATS: UpsertSpec = {
  ...FINANCE_SPEC,
  merge: {
    ...FINANCE_SPEC.merge,
    current_expenditures_per_student:
      "CASE WHEN t.total_enrollment > 0 THEN round((EXCLUDED.current_expenditures / t.total_enrollment)::numeric, 2)::float8 END",
  },
};

/**
 * The 2022 row's enrollment. A value another source wrote (ELSI, School/District Search: their own
 * fed_membership_version) is kept; this extract only fills a row nobody else has.
 */
const keepOther = (column: string) =>
  `CASE WHEN t.fed_membership_version IS NOT NULL AND t.fed_membership_version <> '${ENROLLMENT_VERSION}' THEN t.${column} ELSE EXCLUDED.${column} END`;
const ENROLLMENT_BASE = districtStatsSpec(["total_enrollment", "fed_membership_version"]);
const ENROLLMENT: UpsertSpec = {
  ...ENROLLMENT_BASE,
  merge: {
    ...ENROLLMENT_BASE.merge,
    total_enrollment: keepOther("total_enrollment"),
    fed_membership_version: keepOther("fed_membership_version"),
  },
};
const ENROLLMENT_URLS = { ccd_via_urban: SOURCE_URLS.f33, ccd_via_urban_attribution: SOURCE_URLS.f33_attribution };

// total_expenditures on the record is the district summary's (src/ingest/district-summary.ts: the latest
// finance year), so this FY2018 extract never overwrites a later year's total.
const DISTRICT_FINANCE = ["instructional_expenditures", "instructional_expenditures_percent", "support_services_expenditures"];
const DISTRICTS: UpsertSpec = {
  table: "districts",
  key: ["fed_id"],
  // Only districts already present are sent; name/state/data_source satisfy NOT NULL for the unused insert.
  insert: ["fed_id", "name", "state", "data_source", ...DISTRICT_FINANCE],
  update: DISTRICT_FINANCE,
  touch: ["last_updated_at"],
};

function parse(row: CsvRow, seen: SeenKeys, ids: Map<string, string>) {
  const leaid = digits(row.get("leaid"), "leaid", 7);
  const duplicate = seen.check(leaid, row.line, "leaid");
  if (duplicate) throw new RowError(duplicate);
  const districtId = ids.get(leaid);
  if (!districtId) throw new RowError(`no district with LEAID ${leaid} (${row.get("lea_name").trim()}) in districts`);
  const enrolled = int(row.get("enrollment"), "enrollment", { codes: URBAN_CODES });
  const enrollment =
    enrolled === null
      ? null
      : {
          district_id: districtId,
          school_year_start: ENROLLMENT_SCHOOL_YEAR,
          total_enrollment: enrolled,
          fed_membership_version: ENROLLMENT_VERSION,
          source_urls: ENROLLMENT_URLS,
        };
  const stats: Record<string, unknown> = {
    district_id: districtId,
    school_year_start: SCHOOL_YEAR_START,
    finance_fiscal_year: FISCAL_YEAR,
    f33_version: F33_VERSION,
    // Set by the merge from the stored row's same-year enrollment; a new row has none.
    current_expenditures_per_student: null,
    source_urls: SOURCE_URLS,
  };
  for (const [column, target] of Object.entries(FINANCE)) stats[target] = float(row.get(column), column, { codes: URBAN_CODES });
  if (Object.values(FINANCE).every((target) => stats[target] === null)) return { stats: null, district: null, enrollment };
  const current = stats.current_expenditures as number | null;
  const instruction = stats.instruction_expenditures as number | null;
  const district = {
    fed_id: leaid,
    name: row.get("lea_name").trim() || leaid,
    state: row.get("state_location").trim() || "TN",
    data_source: "urban_edp_f33_fy2018",
    instructional_expenditures: instruction,
    instructional_expenditures_percent: percent(instruction, current),
    support_services_expenditures: stats.support_services_expenditures as number | null,
  };
  return { stats, district, enrollment };
}

export const urbanF33: Ingestor = {
  description:
    "Urban Institute EDP F-33 finance extract (Tennessee, FY2018; ODC-By) -> finance columns of district_annual_stats (2017), 2022 enrollment (district_annual_stats 2022) and districts",
  files: ["data/urban_edp_tn_district_finance/tn_district_finance_urban_edp.csv"],
  table: "district_annual_stats",
  columns: () => ["leaid", "lea_name", "state_location", "enrollment", ...Object.keys(FINANCE)],
  async run(ctx) {
    const upserter = await Upserter.create(ctx.q, ["district_annual_stats", "districts"]);
    const ids = await loadDistrictIds(ctx.q);
    const seen = new SeenKeys();
    await batchRows(
      ctx,
      (row) => {
        const parsed = parse(row, seen, ids);
        // A district with no finance value at all (state-run schools) gets no finance row.
        if (!parsed.stats) ctx.tally.skipped += 1;
        return parsed;
      },
      async (batch) => {
        ctx.tally.main(
          await upserter.write(
            STATS,
            batch.flatMap((b) => (b.stats ? [b.stats as Record<string, number | string | null>] : [])),
          ),
        );
        ctx.tally.add(
          "districts",
          await upserter.write(
            DISTRICTS,
            batch.flatMap((b) => (b.district ? [b.district] : [])),
          ),
        );
        ctx.tally.add(
          "district_annual_stats 2022 enrollment",
          await upserter.write(
            ENROLLMENT,
            batch.flatMap((b) => (b.enrollment ? [b.enrollment] : [])),
          ),
        );
      },
    );
  },
};
