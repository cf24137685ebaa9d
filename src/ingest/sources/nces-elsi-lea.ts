/**
 * NCES ELSI district (LEA) exports, national, one school year per file (data/nces_elsi_lea_multiyear):
 *   "A" files (2019-20 ... 2022-23): title lines, the header, the rows, then footnotes. Total students,
 *     FTE teachers and agency type -> that school year's district_annual_stats row; the
 *     2019-20 and 2020-21 files also carry F-33 revenue (total, local, state, federal) and total
 *     expenditures of the same fiscal year (FY = school year end), written on the same row as the
 *     existing finance rows are (school_year_start = FY - 1, finance_fiscal_year = FY).
 *   "B" file (2023-24, no preamble): Male + Female students (= total), pupil/teacher ratio, FTE teachers,
 *     total staff -> the 2023 row; students by race/ethnicity and by sex -> the 2023 enrollment_race_sex
 *     breakdown, grades 9-12 -> enrollment_grade, teachers / librarians / media support / total staff ->
 *     staff_category (district_stat_breakdowns); FY2021 local/state/federal revenue and revenue per pupil
 *     (V33) -> the 2020 row (counted under related "district_annual_stats FY finance").
 * The school year is read from the header ("[District] 2021-22"), not from the file name. LEAIDs lost
 * their leading zeros in 2019-20: padded to 7 digits. A LEAID absent from districts (a district closed
 * before the 2023-24 directory) is rejected with the reason. Codes † – ‡ become nulls; the status is kept:
 * enrollment_status for enrollment, value_statuses (column -> status) for every other value, value_status
 * on breakdown rows.
 * Precedence: for 2022 the four-state School/District Search exports win (see data/README.md): a row whose
 * membership version is theirs keeps its enrollment, teachers, status and versions, whichever loads first.
 */
import { BadRequestError } from "../../graphql/errors";
import type { CsvLayout, CsvRow } from "../csv";
import { loadDistrictIds } from "../lookups";
import type { IngestContext, Ingestor } from "../types";
import { type Row, SeenKeys, Upserter, type UpsertSpec } from "../upsert";
import { RowError, type Measured, type ValueStatus, code, measure, stateCode } from "../values";
import { batchRows, districtStatsSpec, mergeStatuses, valueStatuses } from "./common";
import { COUNTS_VERSION as SCHOOL_SEARCH_VERSION } from "./nces-school-search";

const ELSI_URL = "https://nces.ed.gov/ccd/elsi/";

const LAYOUT: CsvLayout = {
  isHeader: (record) => record[0]?.replace(/^\uFEFF/, "").trim() === "Agency Name",
  maxPreamble: 10,
  // Footnotes ("† indicates ...", "Data Source: ...") and blank ",,,," lines fill only the first field.
  isFooter: (record) => record.slice(1).every((field) => field.trim() === ""),
  quotesInsideFields: true,
};

const A_ID = "Agency ID - NCES Assigned [District] Latest available year";
const A_STATE = "State Abbr [District] Latest available year";
const B_ID = "Agency ID";
const B_STATE = "State Abbr";

const sy = (start: number) => `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
const district = (name: string, start: number) => `${name} [District] ${sy(start)}`;
const finance = (name: string, start: number) => `${name} [District Finance] ${sy(start)}`;

/** A-file finance columns -> district_annual_stats columns. */
const A_FINANCE: Readonly<Record<string, string>> = {
  "Total Revenue (TOTALREV)": "total_revenue",
  "Total Revenue - Local Sources (TLOCREV)": "local_revenue",
  "Total Revenue - State Sources (TSTREV)": "state_revenue",
  "Total Revenue - Federal Sources (TFEDREV)": "federal_revenue",
  "Total Expenditures (TOTALEXP)": "total_expenditures",
};
const B_FINANCE: Readonly<Record<string, string>> = {
  "Total Revenue - Local Sources (TLOCREV)": "local_revenue",
  "Total Revenue - State Sources (TSTREV)": "state_revenue",
  "Total Revenue - Federal Sources (TFEDREV)": "federal_revenue",
  "Total Revenue (TOTALREV) per Pupil (V33)": "revenue_per_student",
};

interface Shape {
  kind: "A" | "B";
  /** School year (start) of the membership/staff columns. */
  year: number;
  /** Fiscal year of the finance columns, null when the file has none. */
  fiscalYear: number | null;
  columns: string[];
}

const yearOf = (header: readonly string[], pattern: RegExp): number | null => {
  for (const column of header) {
    const match = pattern.exec(column);
    if (match) return Number(match[1]);
  }
  return null;
};

/** B-file breakdown columns (2023-24): [breakdown_key, category, subgroup] per ELSI column name. */
const B_BREAKDOWNS: readonly (readonly [column: string, key: string, category: string, subgroup: string])[] = [
  ["American Indian/Alaska Native Students", "enrollment_race_sex", "race", "American Indian or Alaska Native"],
  ["Asian or Asian/Pacific Islander Students", "enrollment_race_sex", "race", "Asian"],
  ["Hispanic Students", "enrollment_race_sex", "race", "Hispanic"],
  ["Black or African American Students", "enrollment_race_sex", "race", "Black or African American"],
  ["White Students", "enrollment_race_sex", "race", "White"],
  ["Nat. Hawaiian or Other Pacific Isl. Students", "enrollment_race_sex", "race", "Native Hawaiian or Other Pacific Islander"],
  ["Two or More Races Students", "enrollment_race_sex", "race", "Two or more races"],
  ["Male Students", "enrollment_race_sex", "sex", "Male"],
  ["Female Students", "enrollment_race_sex", "sex", "Female"],
  ["Grades 9-12 Students", "enrollment_grade", "grade_band", "09-12"],
  ["Full-Time Equivalent (FTE) Teachers", "staff_category", "staff", "teachers"],
  ["Librarians/media specialists", "staff_category", "staff", "librarians_media_specialists"],
  ["Media Support Staff", "staff_category", "staff", "media_support_staff"],
  ["Total Staff", "staff_category", "staff", "total_staff"],
];

/** Which export this is, its years and the exact columns it must carry. */
function shape(header: readonly string[], file: string): Shape {
  const kind = header.includes(B_ID) ? "B" : "A";
  const anyYear = yearOf(header, /\[District\] (\d{4})-\d{2}$/);
  if (anyYear === null) throw new BadRequestError(`${file}: no "[District] YYYY-YY" column: not an NCES ELSI district export`);
  if (kind === "B") {
    const year = yearOf(header, /^Male Students \[District\] (\d{4})-\d{2}$/) ?? anyYear;
    const fiscalYear = (yearOf(header, /\[District Finance\] (\d{4})-\d{2}$/) ?? year) + 1;
    const breakdownColumns = B_BREAKDOWNS.map(([column]) => district(column, year));
    return {
      kind,
      year,
      fiscalYear,
      // prettier-ignore
      columns: [
        "Agency Name", B_ID, B_STATE, district("Pupil/Teacher Ratio", year),
        ...breakdownColumns.filter((c, i) => breakdownColumns.indexOf(c) === i),
        ...Object.keys(B_FINANCE).map((c) => finance(c, fiscalYear - 1)),
      ],
    };
  }
  const year = yearOf(header, /^Total Students All Grades \(Excludes AE\) \[District\] (\d{4})-\d{2}$/) ?? anyYear;
  const hasFinance = header.some((c) => c.includes("[District Finance]"));
  return {
    kind,
    year,
    fiscalYear: hasFinance ? year + 1 : null,
    // prettier-ignore
    columns: [
      "Agency Name", A_ID, A_STATE, district("Agency Type", year), district("Total Students All Grades (Excludes AE)", year),
      district("Full-Time Equivalent (FTE) Teachers", year),
      ...(hasFinance ? Object.keys(A_FINANCE).map((c) => finance(c, year)) : []),
    ],
  };
}

/** Keeps the School/District Search exports' value where they wrote the row (data/README.md precedence). */
const keepSchoolSearch = (column: string, incoming = `EXCLUDED.${column}`) =>
  `CASE WHEN t.fed_membership_version = '${SCHOOL_SEARCH_VERSION.replace(/'/g, "''")}' THEN t.${column} ELSE ${incoming} END`;

const MEMBERSHIP = ["total_enrollment", "enrollment_status", "teachers_fte", "fed_membership_version", "fed_staff_version"];

function membershipSpec(extra: readonly string[], statusKeys: readonly string[]): UpsertSpec {
  const spec = districtStatsSpec([...MEMBERSHIP, ...extra], statusKeys);
  const kept = Object.fromEntries(MEMBERSHIP.map((c) => [c, keepSchoolSearch(c)]));
  // On a School/District Search row the statuses of its values stay too.
  return { ...spec, merge: { ...spec.merge, ...kept, value_statuses: keepSchoolSearch("value_statuses", mergeStatuses(statusKeys)) } };
}

const A_FINANCE_COLUMNS = Object.values(A_FINANCE);
const B_FINANCE_COLUMNS = Object.values(B_FINANCE);
// Only the A files (2019-20 to 2022-23) carry an agency type; the B file (2023-24) leaves the column alone.
const A_SPEC = membershipSpec(["agency_type"], ["teachers_fte"]);
const A_FINANCE_SPEC = membershipSpec(
  ["agency_type", ...A_FINANCE_COLUMNS, "finance_fiscal_year", "f33_version"],
  ["teachers_fte", ...A_FINANCE_COLUMNS],
);
const B_SPEC = membershipSpec(["total_staff_fte", "student_teacher_ratio"], ["teachers_fte", "total_staff_fte", "student_teacher_ratio"]);
const B_FINANCE_SPEC = districtStatsSpec([...B_FINANCE_COLUMNS, "finance_fiscal_year", "f33_version"], B_FINANCE_COLUMNS);
const BREAKDOWN_SPEC: UpsertSpec = {
  table: "district_stat_breakdowns",
  key: ["district_id", "breakdown_key", "school_year_start", "category", "subgroup"],
  insert: [
    "district_id",
    "breakdown_key",
    "school_year_start",
    "category",
    "subgroup",
    "value",
    "value_status",
    "source_version",
    "source_url",
  ],
  update: ["value", "value_status", "source_version", "source_url"],
};

const membershipVersion = (year: number) => `CCD ${sy(year)} via NCES ELSI export`;
const f33Version = (fiscalYear: number) => `F-33 FY${fiscalYear} via NCES ELSI export`;

/** The worse of two statuses (a sum is reported only when both parts are). */
const combined = (a: Measured, b: Measured): ValueStatus => (a.status !== "reported" ? a.status : b.status);

interface Parsed {
  stats: Row;
  finance: Row | null;
  breakdowns: Row[];
}

function parse(row: CsvRow, s: Shape, seen: SeenKeys, ids: Map<string, string>): Parsed {
  const idColumn = s.kind === "A" ? A_ID : B_ID;
  const raw = row.get(idColumn).trim();
  if (!/^\d{5,7}$/.test(raw)) throw new RowError(`${idColumn} "${row.get(idColumn)}" is not a LEAID (5 to 7 digits)`);
  const leaid = raw.padStart(7, "0");
  stateCode(row.get(s.kind === "A" ? A_STATE : B_STATE), "State Abbr");
  const duplicate = seen.check(leaid, row.line, "LEAID");
  if (duplicate) throw new RowError(duplicate);
  const districtId = ids.get(leaid);
  if (!districtId)
    throw new RowError(
      `no district with LEAID ${leaid} (${row.get("Agency Name").trim()}) in districts; it is not in the CCD LEA directory`,
    );
  const num = (column: string, integer = false) => measure(row.get(column), column, { integer });
  const version = membershipVersion(s.year);
  const teachers = num(district("Full-Time Equivalent (FTE) Teachers", s.year));
  const measured: Record<string, Measured> = { teachers_fte: teachers };
  const stats: Row = {
    district_id: districtId,
    school_year_start: s.year,
    teachers_fte: teachers.value,
    fed_membership_version: version,
    fed_staff_version: version,
    source_urls: { elsi: ELSI_URL },
  };
  let fy2021: Row | null = null;
  const breakdowns: Row[] = [];
  if (s.kind === "A") {
    const students = num(district("Total Students All Grades (Excludes AE)", s.year), true);
    stats.total_enrollment = students.value;
    stats.enrollment_status = students.status;
    stats.agency_type = code(row.get(district("Agency Type", s.year)));
    if (s.fiscalYear !== null) {
      for (const [column, target] of Object.entries(A_FINANCE)) measured[target] = num(finance(column, s.year));
      stats.finance_fiscal_year = s.fiscalYear;
      stats.f33_version = f33Version(s.fiscalYear);
    }
  } else {
    const male = num(district("Male Students", s.year), true);
    const female = num(district("Female Students", s.year), true);
    stats.total_enrollment = male.value !== null && female.value !== null ? male.value + female.value : null;
    stats.enrollment_status = combined(male, female);
    measured.student_teacher_ratio = num(district("Pupil/Teacher Ratio", s.year));
    measured.total_staff_fte = num(district("Total Staff", s.year));
    for (const [column, key, category, subgroup] of B_BREAKDOWNS) {
      const value = num(district(column, s.year), key !== "staff_category");
      breakdowns.push({
        district_id: districtId,
        breakdown_key: key,
        school_year_start: s.year,
        category,
        subgroup,
        value: value.value,
        value_status: value.status,
        source_version: version,
        source_url: ELSI_URL,
      });
    }
    const fy = s.fiscalYear!;
    const financeMeasured = Object.fromEntries(Object.entries(B_FINANCE).map(([column, target]) => [target, num(finance(column, fy - 1))]));
    fy2021 = {
      district_id: districtId,
      school_year_start: fy - 1,
      finance_fiscal_year: fy,
      f33_version: f33Version(fy),
      source_urls: { elsi: ELSI_URL },
      ...Object.fromEntries(Object.entries(financeMeasured).map(([target, m]) => [target, m.value])),
      value_statuses: valueStatuses(financeMeasured),
    };
  }
  for (const [target, m] of Object.entries(measured)) stats[target] = m.value;
  stats.value_statuses = valueStatuses(measured);
  return { stats, finance: fy2021, breakdowns };
}

async function run(ctx: IngestContext): Promise<void> {
  const s = shape(ctx.csv.header, ctx.csv.name);
  const upserter = await Upserter.create(ctx.q, ["district_annual_stats", "district_stat_breakdowns"]);
  const ids = await loadDistrictIds(ctx.q);
  const seen = new SeenKeys();
  const spec = s.kind === "B" ? B_SPEC : s.fiscalYear !== null ? A_FINANCE_SPEC : A_SPEC;
  await batchRows(
    ctx,
    (row) => parse(row, s, seen, ids),
    async (batch) => {
      ctx.tally.main(
        await upserter.write(
          spec,
          batch.map((b) => b.stats),
        ),
      );
      const financeRows = batch.flatMap((b) => (b.finance ? [b.finance] : []));
      if (financeRows.length)
        ctx.tally.add(`district_annual_stats FY${s.fiscalYear} finance`, await upserter.write(B_FINANCE_SPEC, financeRows));
      const breakdownRows = batch.flatMap((b) => b.breakdowns);
      if (breakdownRows.length) ctx.tally.add("district_stat_breakdowns", await upserter.write(BREAKDOWN_SPEC, breakdownRows));
    },
  );
}

export const ncesElsiLea: Ingestor = {
  description:
    "NCES ELSI district exports (national, one school year per file, 2019-20 to 2023-24) -> that year's district_annual_stats (enrollment, teachers, staff, ratio, agency type), 2023-24 breakdowns (race/ethnicity, sex, grades 9-12, staff categories) and F-33 revenue/expenditures of FY2020-FY2021",
  // Every year, oldest first (first start: src/seed.ts via ingestDemoFiles; timings in data/README.md).
  files: [2019, 2020, 2021, 2022, 2023].map((y) => `data/nces_elsi_lea_multiyear/elsi_lea_${y}_${y + 1}.csv.gz`),
  table: "district_annual_stats",
  layout: LAYOUT,
  columns: (header, file) => shape(header, file).columns,
  run,
};
