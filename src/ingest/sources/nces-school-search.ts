/**
 * NCES School / District Search exports for CA, FL, MI, WA. Directory fields are 2023-24; columns
 * whose header ends in "*" are 2022-23 counts.
 *   <state>_districts.csv -> districts locale and the 2022 district_annual_stats row (the record's
 *     student_count / teachers_fte / student_teacher_ratio follow from it: src/ingest/district-summary.ts);
 *     a district the LEA directory lacks is created from it.
 *   <state>_schools.csv -> schools (linked to their district by LEAID), the 2022 school_annual_stats
 *     row (counts, lunch, grades, statuses) and the 2023 row (status, type, charter).
 */
import type { CsvRow } from "../csv";
import { loadDistrictIds, readTuples } from "../lookups";
import type { Ingestor, IngestContext } from "../types";
import { type Row, SeenKeys, Upserter, type UpsertSpec } from "../upsert";
import { RowError, bucketsOfSpan, code, digits, grade, measure, percent, required, span, stateCode, text, zip5 } from "../values";
import { batchRows, districtStatsSpec, schoolStatsSpec, valueStatuses } from "./common";

const DATA_SOURCE = "nces_ccd_school_search_2324";
const DIRECTORY_YEAR = 2023;
const COUNTS_YEAR = 2022;
const DIRECTORY_VERSION = "CCD 2023-24 preliminary directory via NCES School/District Search export";
/** The 2022 district statistics written by the district exports carry this version (nces-elsi-lea keeps them: data/README.md precedence). */
export const COUNTS_VERSION = "CCD 2022-23 via NCES School/District Search export";
const DISTRICT_SEARCH_URL = "https://nces.ed.gov/ccd/districtsearch/";
const SCHOOL_SEARCH_URL = "https://nces.ed.gov/ccd/schoolsearch/";

// prettier-ignore
const DISTRICT_COLUMNS = [
  "NCES District ID", "State District ID", "District Name", "County Name*", "Street Address", "City", "State", "ZIP", "Phone",
  "Students*", "Teachers*", "Schools", "Locale Code*", "Locale*", "Student Teacher Ratio*", "Type", "Status",
];

// prettier-ignore
const SCHOOL_COLUMNS = [
  "NCES School ID", "State School ID", "NCES District ID", "Low Grade*", "High Grade*", "School Name", "County Name*",
  "Street Address", "City", "State", "ZIP", "Phone", "Locale Code*", "Locale*", "Charter", "Students*", "Teachers*",
  "Student Teacher Ratio*", "Free Lunch*", "Reduced Lunch*", "Type", "Status",
];

/** A school export names schools; anything else is read as a district export (and its header checked as one). */
const isSchoolFile = (header: readonly string[]) => header.includes("NCES School ID") || header.includes("School Name");

// ---------------------------------------------------------------- districts export

const DISTRICT_OWN = ["student_count", "teachers_fte", "student_teacher_ratio", "locale_code", "locale_type"];
const DISTRICTS: UpsertSpec = {
  table: "districts",
  key: ["fed_id"],
  // Directory columns are written only for a district the LEA directory did not create.
  // prettier-ignore
  insert: [
    "fed_id", "name", "state", "state_fips", "state_district_id", "county", "physical_address", "physical_city",
    "physical_state", "physical_zip", "phone", "school_count", "district_type", "operational_status", "fed_data_year",
    "data_source", ...DISTRICT_OWN,
  ],
  // student_count / teachers_fte / student_teacher_ratio of an existing district are set from the latest
  // statistics year (src/ingest/district-summary.ts, run after this file): only the locale is updated here.
  update: ["locale_code", "locale_type"],
  touch: ["last_updated_at"],
  returning: ["id", "fed_id"],
};
const DISTRICT_STATS = districtStatsSpec(
  ["total_enrollment", "teachers_fte", "student_teacher_ratio", "enrollment_status", "fed_membership_version", "fed_staff_version"],
  ["teachers_fte", "student_teacher_ratio"],
);

function localeOf(row: CsvRow): { locale_code: string | null; locale_type: string | null } {
  const localeCode = code(row.get("Locale Code*"));
  if (localeCode !== null && !/^[1-4][1-3]$/.test(localeCode))
    throw new RowError(`Locale Code* "${localeCode}" is not an NCES locale code (11-43)`);
  return { locale_code: localeCode, locale_type: localeCode === null ? null : code(row.get("Locale*")) };
}

function parseDistrict(row: CsvRow, seen: SeenKeys) {
  const leaid = digits(row.get("NCES District ID"), "NCES District ID", 7);
  const duplicate = seen.check(leaid, row.line, "NCES District ID");
  if (duplicate) throw new RowError(duplicate);
  const students = measure(row.get("Students*"), "Students*", { integer: true });
  const teachers = measure(row.get("Teachers*"), "Teachers*");
  const ratio = measure(row.get("Student Teacher Ratio*"), "Student Teacher Ratio*");
  const schools = measure(row.get("Schools"), "Schools", { integer: true });
  const district: Row = {
    fed_id: leaid,
    name: required(row.get("District Name"), "District Name"),
    state: stateCode(row.get("State"), "State"),
    state_fips: leaid.slice(0, 2),
    state_district_id: text(row.get("State District ID")),
    county: code(row.get("County Name*")),
    physical_address: text(row.get("Street Address")),
    physical_city: text(row.get("City")),
    physical_state: text(row.get("State")),
    physical_zip: zip5(row.get("ZIP")),
    phone: text(row.get("Phone")),
    school_count: schools.value,
    district_type: text(row.get("Type")),
    operational_status: text(row.get("Status")),
    fed_data_year: DIRECTORY_YEAR,
    data_source: DATA_SOURCE,
    student_count: students.value,
    teachers_fte: teachers.value,
    student_teacher_ratio: ratio.value,
    ...localeOf(row),
  };
  const stats: Row = {
    school_year_start: COUNTS_YEAR,
    total_enrollment: students.value,
    teachers_fte: teachers.value,
    student_teacher_ratio: ratio.value,
    enrollment_status: students.status,
    value_statuses: valueStatuses({ teachers_fte: teachers, student_teacher_ratio: ratio }),
    fed_membership_version: COUNTS_VERSION,
    fed_staff_version: COUNTS_VERSION,
    source_urls: { membership: DISTRICT_SEARCH_URL, staff: DISTRICT_SEARCH_URL },
  };
  return { district, stats };
}

async function runDistricts(ctx: IngestContext): Promise<void> {
  const upserter = await Upserter.create(ctx.q, ["districts", "district_annual_stats"]);
  const ids = await loadDistrictIds(ctx.q);
  const seen = new SeenKeys();
  await batchRows(
    ctx,
    (row) => parseDistrict(row, seen),
    async (batch) => {
      const result = await upserter.write<{ id: string; fed_id: string }>(
        DISTRICTS,
        batch.map((b) => b.district),
      );
      ctx.tally.main(result);
      if (result.inserted) ctx.log(`${ctx.csv.name}: ${result.inserted} district(s) not in the LEA directory created from the export`);
      for (const r of result.rows) ids.set(r.fed_id, r.id);
      const stats = batch.map((b) => ({ ...b.stats, district_id: ids.get(b.district.fed_id as string)! }));
      ctx.tally.add("district_annual_stats", await upserter.write(DISTRICT_STATS, stats));
    },
  );
}

// ---------------------------------------------------------------- schools export

// prettier-ignore
const SCHOOL_COLUMNS_WRITTEN = [
  "district_id", "district_fed_id", "name", "state", "state_school_id", "grade_levels", "grade_low", "grade_high", "grade_buckets",
  "school_type", "locale_code", "locale_type", "county", "student_count", "teachers_fte", "student_teacher_ratio",
  "physical_address", "physical_city", "physical_state", "physical_zip", "phone", "fed_data_year", "source", "source_url", "data_source",
];
const SCHOOLS: UpsertSpec = {
  table: "schools",
  key: ["fed_id"],
  insert: ["fed_id", ...SCHOOL_COLUMNS_WRITTEN],
  update: SCHOOL_COLUMNS_WRITTEN,
  touch: ["last_updated_at"],
  returning: ["id", "fed_id"],
};
// prettier-ignore
const SCHOOL_COUNTS = schoolStatsSpec([
  "total_enrollment", "teachers_fte", "student_teacher_ratio", "free_lunch_eligible", "reduced_price_lunch_eligible",
  "free_or_reduced_price_lunch_eligible", "free_or_reduced_price_lunch_pct", "enrollment_status", "teachers_status", "lunch_status",
  "low_grade", "high_grade", "fed_membership_version", "fed_staff_version", "fed_lunch_version",
]);
const SCHOOL_DIRECTORY = schoolStatsSpec(["operational_status", "school_type", "charter_status", "fed_directory_version"]);

function parseSchool(row: CsvRow, seen: SeenKeys, districtIds: Map<string, string>) {
  const ncessch = digits(row.get("NCES School ID"), "NCES School ID", 12);
  const leaid = digits(row.get("NCES District ID"), "NCES District ID", 7);
  if (!ncessch.startsWith(leaid)) throw new RowError(`NCES School ID ${ncessch} does not start with its NCES District ID ${leaid}`);
  const duplicate = seen.check(ncessch, row.line, "NCES School ID");
  if (duplicate) throw new RowError(duplicate);
  const low = grade(row.get("Low Grade*"), "Low Grade*");
  const high = grade(row.get("High Grade*"), "High Grade*");
  const students = measure(row.get("Students*"), "Students*", { integer: true });
  const teachers = measure(row.get("Teachers*"), "Teachers*");
  const ratio = measure(row.get("Student Teacher Ratio*"), "Student Teacher Ratio*");
  const free = measure(row.get("Free Lunch*"), "Free Lunch*", { integer: true });
  const reduced = measure(row.get("Reduced Lunch*"), "Reduced Lunch*", { integer: true });
  const both = free.value !== null && reduced.value !== null ? free.value + reduced.value : null;
  const charter = text(row.get("Charter"));
  if (charter !== null && charter !== "Yes" && charter !== "No") throw new RowError(`Charter "${charter}" is not Yes or No`);
  const schoolType = text(row.get("Type"));
  const school: Row = {
    fed_id: ncessch,
    district_id: districtIds.get(leaid) ?? null,
    district_fed_id: leaid,
    name: required(row.get("School Name"), "School Name"),
    state: stateCode(row.get("State"), "State"),
    state_school_id: text(row.get("State School ID")),
    grade_levels: span(low, high),
    grade_low: low,
    grade_high: high,
    grade_buckets: bucketsOfSpan(low, high),
    school_type: schoolType,
    ...localeOf(row),
    county: code(row.get("County Name*")),
    student_count: students.value,
    teachers_fte: teachers.value,
    student_teacher_ratio: ratio.value,
    physical_address: text(row.get("Street Address")),
    physical_city: text(row.get("City")),
    physical_state: text(row.get("State")),
    physical_zip: zip5(row.get("ZIP")),
    phone: text(row.get("Phone")),
    fed_data_year: DIRECTORY_YEAR,
    source: "NCES CCD School Search",
    source_url: `${SCHOOL_SEARCH_URL}school_detail.asp?ID=${ncessch}`,
    data_source: DATA_SOURCE,
  };
  const counts: Row = {
    school_year_start: COUNTS_YEAR,
    total_enrollment: students.value,
    teachers_fte: teachers.value,
    student_teacher_ratio: ratio.value,
    free_lunch_eligible: free.value,
    reduced_price_lunch_eligible: reduced.value,
    free_or_reduced_price_lunch_eligible: both,
    free_or_reduced_price_lunch_pct: percent(both, students.value),
    enrollment_status: students.status,
    teachers_status: teachers.status,
    lunch_status: free.status !== "reported" ? free.status : reduced.status,
    low_grade: low,
    high_grade: high,
    fed_membership_version: COUNTS_VERSION,
    fed_staff_version: COUNTS_VERSION,
    fed_lunch_version: COUNTS_VERSION,
    source_urls: { membership: SCHOOL_SEARCH_URL, staff: SCHOOL_SEARCH_URL, lunch: SCHOOL_SEARCH_URL },
  };
  const directory: Row = {
    school_year_start: DIRECTORY_YEAR,
    operational_status: text(row.get("Status")),
    school_type: schoolType,
    charter_status: charter,
    fed_directory_version: DIRECTORY_VERSION,
    source_urls: { directory: SCHOOL_SEARCH_URL },
  };
  return { school, counts, directory };
}

async function runSchools(ctx: IngestContext): Promise<void> {
  const upserter = await Upserter.create(ctx.q, ["schools", "school_annual_stats"]);
  const districtIds = await loadDistrictIds(ctx.q);
  const schoolIds = new Map(await readTuples<[string, string]>(ctx.q, ["fed_id", "id"], "schools"));
  const seen = new SeenKeys();
  let unlinked = 0;
  await batchRows(
    ctx,
    (row) => parseSchool(row, seen, districtIds),
    async (batch) => {
      unlinked += batch.filter((b) => b.school.district_id === null).length;
      const result = await upserter.write<{ id: string; fed_id: string }>(
        SCHOOLS,
        batch.map((b) => b.school),
      );
      ctx.tally.main(result);
      for (const r of result.rows) schoolIds.set(r.fed_id, r.id);
      const idOf = (b: (typeof batch)[number]) => schoolIds.get(b.school.fed_id as string)!;
      ctx.tally.add(
        "school_annual_stats",
        await upserter.write(
          SCHOOL_COUNTS,
          batch.map((b) => ({ ...b.counts, school_id: idOf(b) })),
        ),
      );
      ctx.tally.add(
        "school_annual_stats",
        await upserter.write(
          SCHOOL_DIRECTORY,
          batch.map((b) => ({ ...b.directory, school_id: idOf(b) })),
        ),
      );
    },
  );
  if (unlinked)
    ctx.log(
      `${ctx.csv.name}: ${unlinked} school(s) whose district is not loaded keep district_fed_id but no district_id (load nces-lea first)`,
    );
}

export const ncesSchoolSearch: Ingestor = {
  description:
    "NCES School/District Search exports (CA, FL, MI, WA): <state>_districts.csv -> district counts, locale and 2022 district_annual_stats; " +
    "<state>_schools.csv -> schools + 2022/2023 school_annual_stats. Load the district files first.",
  files: ["california", "florida", "michigan", "washington"]
    .map((s) => `data/nces_school_search_4states/${s}_districts.csv`)
    .concat(["california_public", "florida", "michigan", "washington"].map((s) => `data/nces_school_search_4states/${s}_schools.csv`)),
  table: "districts (district files) / schools (school files)",
  columns: (header) => (isSchoolFile(header) ? SCHOOL_COLUMNS : DISTRICT_COLUMNS),
  run: (ctx) => (isSchoolFile(ctx.csv.header) ? runSchools(ctx) : runDistricts(ctx)),
};
