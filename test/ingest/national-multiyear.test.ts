/**
 * National multi-year files (issue 15): NCES ELSI district exports 2019-20 to 2023-24 and Census SAIPE
 * ussd12 ... ussd23, on one database after the CCD LEA directory. Malformed ELSI copies (renamed header,
 * truncated row, a data row after the footnotes) are refused with the database untouched; every real
 * file lands with its documented rejects; known values are read back for several districts and years;
 * a second run changes nothing; the School/District Search exports keep their 2022 values whichever
 * loads first; and a metric_query change window 2019 -> 2022 equals the files' difference.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { BadRequestError } from "../../src/graphql/errors";
import { type IngestSummary, runIngest } from "../../src/ingest";
import { createTestApp, type TestApp } from "../support/app";
import { count, counts, dataFile, expectMalformedRefused, fingerprint } from "./helpers";

jest.setTimeout(600_000);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await runIngest(t.db, "nces-lea", dataFile("data/nces_ccd_lea_directory/ccd_lea_029_2324_w_0a_050824.csv.gz"));
});
afterAll(async () => {
  await t?.close();
});

const ELSI = (years: string) => `data/nces_elsi_lea_multiyear/elsi_lea_${years}.csv.gz`;
const SAIPE = (yy: string) => `data/census_saipe_sd_poverty/ussd${yy}.csv${yy === "22" ? "" : ".gz"}`;

/** Read, main-table outcome and rejects of each real file on a database holding the LEA directory. */
const ELSI_FILES: [string, number, number][] = [
  ["2019_2020", 19717, 463],
  ["2020_2021", 19571, 318],
  ["2021_2022", 19592, 201],
  ["2022_2023", 19517, 0],
  ["2023_2024", 19770, 328],
];

async function stats(leaid: string, year: number): Promise<Record<string, unknown>> {
  const [row] = await t.db.query<Record<string, unknown>>(
    `SELECT s.* FROM district_annual_stats s JOIN districts d ON d.id = s.district_id WHERE d.fed_id = $1 AND s.school_year_start = $2`,
    [leaid, year],
  );
  return row ?? {};
}

/** A gzipped copy of an ELSI export with `edit` applied to its decompressed lines. */
function editedCopy(relative: string, name: string, edit: (lines: string[]) => string[]): string {
  const lines = zlib
    .gunzipSync(fs.readFileSync(dataFile(relative)))
    .toString("utf8")
    .split("\n");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-elsi-"));
  const file = path.join(dir, `${name}.csv.gz`);
  fs.writeFileSync(file, zlib.gzipSync(Buffer.from(edit(lines).join("\n"))));
  return file;
}

async function refused(source: string, file: string, pattern: RegExp): Promise<void> {
  const error = await runIngest(t.db, source, file).then(
    (summary: IngestSummary) => new Error(`accepted: ${JSON.stringify(summary)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BadRequestError);
  expect((error as Error).message).toContain(path.basename(file));
  expect((error as Error).message).toMatch(pattern);
}

describe("nces-elsi-lea", () => {
  it("refuses malformed copies (renamed header, truncated row, data after the footnotes, no year) and writes nothing", async () => {
    const before = await fingerprint(t.db);
    const a = ELSI("2019_2020");
    // Header on line 7 (six title lines above it), 1,200 data rows: several batches before the problem.
    const renamed = editedCopy(a, "elsi-renamed", (l) => [
      ...l.slice(0, 6),
      l[6]!.replace("Total Students All Grades (Excludes AE)", "Total Students"),
      ...l.slice(7),
    ]);
    await refused(
      "nces-elsi-lea",
      renamed,
      /line 7: the header lacks column\(s\) "Total Students All Grades \(Excludes AE\) \[District\] 2019-20"/,
    );
    const truncated = editedCopy(a, "elsi-truncated", (l) => [
      ...l.slice(0, 1206),
      l[1206]!.split(",").slice(0, 2).join(","),
      ...l.slice(1207),
    ]);
    await refused("nces-elsi-lea", truncated, /line 1207: 2 field\(s\) where the header has 12 \(truncated/);
    const afterFooter = editedCopy(a, "elsi-after-footer", (l) => [...l.slice(0, 1207), ",,,,,,,,,,,", ...l.slice(1207)]);
    await refused("nces-elsi-lea", afterFooter, /line 1209: a data row after the footer notes/);
    const b = ELSI("2023_2024");
    const renamedB = editedCopy(b, "elsi-b-renamed", (l) => [l[0]!.replace("Male Students", "Boys"), ...l.slice(1)]);
    await refused("nces-elsi-lea", renamedB, /line 1: the header lacks column\(s\) "Male Students \[District\] 2023-24"/);
    // A row without quotes (a quoted name cut in two would merge with the next line); the B file ends its lines with CRLF.
    const bLines = zlib
      .gunzipSync(fs.readFileSync(dataFile(b)))
      .toString("utf8")
      .split("\n");
    const cut = bLines.findIndex((line, i) => i >= 1500 && !line.includes('"'));
    const truncatedB = editedCopy(b, "elsi-b-truncated", (l) => [
      ...l.slice(0, cut),
      l[cut]!.split(",").slice(0, 2).join(",") + "\r",
      ...l.slice(cut + 1),
    ]);
    await refused("nces-elsi-lea", truncatedB, new RegExp(`line ${cut + 1}: 2 field\\(s\\) where the header has 25`));
    const noTable = editedCopy(a, "elsi-no-header", (l) => l.slice(7));
    await refused("nces-elsi-lea", noTable, /no header row in the first 11 rows/);
    expect(await fingerprint(t.db)).toEqual(before);
  });

  it("loads each school year with rejects for LEAIDs absent from the directory", async () => {
    for (const [years, read, rejected] of ELSI_FILES) {
      const summary = await runIngest(t.db, "nces-elsi-lea", dataFile(ELSI(years)));
      expect([years, summary.read, summary.rejected, summary.skipped]).toEqual([years, read, rejected, 0]);
      expect(summary.inserted + summary.updated).toBe(read - rejected);
      expect(
        summary.rejects.every((r) =>
          /^no district with LEAID \d{7} \(.+\) in districts; it is not in the CCD LEA directory$/.test(r.reason),
        ),
      ).toBe(true);
    }
    // The 2023-24 file (no preamble) also writes its FY2021 finance on the 2020 row.
    expect(
      await count(t.db, `SELECT 1 FROM district_annual_stats WHERE school_year_start = 2020 AND revenue_per_student IS NOT NULL`),
    ).toBeGreaterThan(17000);
    for (const year of [2019, 2020, 2021, 2022, 2023]) {
      expect(
        await count(t.db, `SELECT 1 FROM district_annual_stats WHERE school_year_start = $1 AND fed_membership_version LIKE '%ELSI%'`, [
          year,
        ]),
      ).toBe({ 2019: 19254, 2020: 19253, 2021: 19391, 2022: 19517, 2023: 19442 }[year]);
    }
  });

  it("reads back known values for several districts and years (leading zeros restored, codes to null with status)", async () => {
    // Albertville City (AL): LEAID "100005" in the 2019-20 file.
    expect(await stats("0100005", 2019)).toMatchObject({
      total_enrollment: 5824,
      enrollment_status: "reported",
      teachers_fte: 301,
      total_revenue: 63333000,
      local_revenue: 15607000,
      state_revenue: 40121000,
      federal_revenue: 7605000,
      total_expenditures: 54630000,
      finance_fiscal_year: 2020,
      f33_version: "F-33 FY2020 via NCES ELSI export",
      fed_membership_version: "CCD 2019-20 via NCES ELSI export",
    });
    expect(await stats("0100005", 2020)).toMatchObject({
      total_enrollment: 5842,
      teachers_fte: 301.5,
      total_revenue: 74420000,
      total_expenditures: 59207000,
      revenue_per_student: 12739,
      finance_fiscal_year: 2021,
    });
    expect(await stats("0100005", 2021)).toMatchObject({ total_enrollment: 5956, teachers_fte: 282 });
    expect(await stats("0100005", 2022)).toMatchObject({ total_enrollment: 5900, teachers_fte: 303.2 });
    // 2023-24: total = Male 2949 + Female 2872.
    expect(await stats("0100005", 2023)).toMatchObject({
      total_enrollment: 5821,
      teachers_fte: 314.5,
      total_staff_fte: 453.5,
      student_teacher_ratio: 18.51,
      fed_directory_version: expect.any(String),
      operational_school_count: 6,
    });
    // Zionsville Community Schools (IN).
    expect(await stats("1802830", 2019)).toMatchObject({
      total_enrollment: 7435,
      teachers_fte: 426.16,
      total_revenue: 104105000,
      total_expenditures: 102238000,
    });
    expect(await stats("1802830", 2020)).toMatchObject({
      total_enrollment: 7450,
      local_revenue: 51558000,
      state_revenue: 47172000,
      revenue_per_student: 13596,
    });
    expect(await stats("1802830", 2022)).toMatchObject({ total_enrollment: 7906, teachers_fte: 474.03 });
    expect(await stats("1802830", 2023)).toMatchObject({ total_enrollment: 7923, total_staff_fte: 967.08, student_teacher_ratio: 16.27 });
    // Zuni (NM) and 21st Century Cyber CS (PA).
    expect(await stats("3502800", 2021)).toMatchObject({ total_enrollment: 1152, teachers_fte: 110.21 });
    expect(await stats("4200091", 2020)).toMatchObject({ total_enrollment: 2503, total_revenue: 36448000, total_expenditures: 21086000 });
    // † / – / ‡ become null with the status kept: 21st Century Public Academy (NM) 2023-24 has both sexes
    // reported; A E R O Spec Educ Coop (IL) has † for both.
    expect(await stats("1700024", 2023)).toMatchObject({
      total_enrollment: null,
      enrollment_status: "not_applicable",
      total_staff_fte: 251.95,
      student_teacher_ratio: null,
    });
    expect(await stats("3500187", 2023)).toMatchObject({ total_enrollment: 378, enrollment_status: "reported" });
    // WAY Michigan 2022-23: ‡ in ELSI (below standards).
    expect(await stats("2601074", 2022)).toMatchObject({ total_enrollment: null, enrollment_status: "below_standards", teachers_fte: 1.9 });
  });

  it("keeps the agency type of each year and the status of every coded value", async () => {
    expect(await stats("0100005", 2019)).toMatchObject({
      agency_type: "1-Regular local school district that is NOT a component of a supervisory union",
      value_statuses: null,
    });
    expect(await stats("1800046", 2021)).toMatchObject({ agency_type: "7-Independent Charter District" });
    // 2023-24 has no agency type column.
    expect(await stats("0100005", 2023)).toMatchObject({ agency_type: null });
    // A+ Charter Schools (AZ) 2020-21: teachers "–"; A. Linwood Holton Governor's School (VA): teachers "†", finance "–".
    expect(await stats("0400998", 2020)).toMatchObject({
      teachers_fte: null,
      value_statuses: { teachers_fte: "missing" },
      total_revenue: 1943000,
    });
    expect(await stats("5100033", 2020)).toMatchObject({
      teachers_fte: null,
      total_revenue: null,
      value_statuses: {
        teachers_fte: "not_applicable",
        total_revenue: "missing",
        local_revenue: "missing",
        state_revenue: "missing",
        federal_revenue: "missing",
        total_expenditures: "missing",
      },
    });
    // A E R O Spec Educ Coop (IL) 2023-24: ratio "–"; its FY2021 revenue per pupil "†" lands on the 2020 row.
    expect((await stats("1700024", 2023)).value_statuses).toEqual({ student_teacher_ratio: "missing" });
    expect(await stats("1700024", 2020)).toMatchObject({ revenue_per_student: null, local_revenue: 30321000 });
    expect((await stats("1700024", 2020)).value_statuses).toMatchObject({ revenue_per_student: "not_applicable" });
  });

  it("writes the 2023-24 breakdowns: race/ethnicity and sex, grades 9-12 and staff categories", async () => {
    const rows = await t.db.query<{
      breakdown_key: string;
      category: string;
      subgroup: string;
      value: number | null;
      value_status: string;
    }>(
      `SELECT b.breakdown_key, b.category, b.subgroup, b.value, b.value_status FROM district_stat_breakdowns b
         JOIN districts d ON d.id = b.district_id WHERE d.fed_id = $1 AND b.school_year_start = 2023
        ORDER BY b.breakdown_key, b.category, b.subgroup`,
      ["0100005"],
    );
    const by = (key: string) =>
      Object.fromEntries(rows.filter((r) => r.breakdown_key === key).map((r) => [`${r.category}:${r.subgroup}`, r.value]));
    expect(by("enrollment_race_sex")).toEqual({
      "race:American Indian or Alaska Native": 29,
      "race:Asian": 26,
      "race:Black or African American": 298,
      "race:Hispanic": 3426,
      "race:Native Hawaiian or Other Pacific Islander": 5,
      "race:Two or more races": 151,
      "race:White": 1886,
      "sex:Female": 2872,
      "sex:Male": 2949,
    });
    expect(by("enrollment_grade")).toEqual({ "grade_band:09-12": 1710 });
    expect(by("staff_category")).toEqual({
      "staff:librarians_media_specialists": 6,
      "staff:media_support_staff": 2,
      "staff:teachers": 314.5,
      "staff:total_staff": 453.5,
    });
    // The races sum to the total (Male + Female) for Albertville.
    const races = rows.filter((r) => r.category === "race").reduce((sum, r) => sum + r.value!, 0);
    expect(races).toBe(5821);
    // † keeps its status on the breakdown row.
    const [aero] = await t.db.query<{ value: number | null; value_status: string }>(
      `SELECT b.value, b.value_status FROM district_stat_breakdowns b JOIN districts d ON d.id = b.district_id
        WHERE d.fed_id = '1700024' AND b.breakdown_key = 'enrollment_race_sex' AND b.subgroup = 'White'`,
    );
    expect(aero).toEqual({ value: null, value_status: "not_applicable" });
  });

  it("sets the district record from the latest year having each field (ratio and per-student from one year)", async () => {
    const [albertville] = await t.db.query<Record<string, unknown>>(
      `SELECT student_count, teachers_fte, total_staff, student_teacher_ratio, total_revenue, total_expenditures,
              revenue_per_student, expenditures_per_student FROM districts WHERE fed_id = '0100005'`,
    );
    expect(albertville).toEqual({
      student_count: 5821, // 2023-24
      teachers_fte: 314.5, // 2023-24
      total_staff: 453.5, // 2023-24
      student_teacher_ratio: 18.51, // 2023-24 published, with that year's enrollment and teachers
      total_revenue: 74420000, // FY2021 (school year 2020)
      total_expenditures: 59207000, // FY2021
      revenue_per_student: 12739, // FY2021 V33 of the same row
      expenditures_per_student: 10134.71, // FY2021 / 2020-21 enrollment 5,842
    });
  });

  it("the School/District Search exports win for 2022 whichever loads first; ELSI keeps its other years", async () => {
    const michigan = dataFile("data/nces_school_search_4states/michigan_districts.csv");
    // ELSI first (previous test), then the export: the export overwrites its columns.
    await runIngest(t.db, "nces-school-search", michigan);
    const search = {
      total_enrollment: null,
      enrollment_status: "not_applicable",
      teachers_fte: 1.9,
      fed_membership_version: "CCD 2022-23 via NCES School/District Search export",
    };
    expect(await stats("2601074", 2022)).toMatchObject(search);
    // ELSI again: the export's rows are kept (nothing changes anywhere).
    const again = await runIngest(t.db, "nces-elsi-lea", dataFile(ELSI("2022_2023")));
    expect(counts(again)).toEqual({ read: 19517, inserted: 0, updated: 0, unchanged: 19517, rejected: 0, skipped: 0 });
    expect(await stats("2601074", 2022)).toMatchObject(search);
    // Atlanta Community Schools: ELSI ‡ teachers, export † -> null either way; enrollment 267 from both.
    expect(await stats("2603570", 2022)).toMatchObject({ total_enrollment: 267, teachers_fte: null });
    // ...and the export's status of that value (†), not ELSI's (‡).
    expect((await stats("2603570", 2022)).value_statuses).toMatchObject({ teachers_fte: "not_applicable" });
    expect(await stats("2601074", 2021)).toMatchObject({ fed_membership_version: "CCD 2021-22 via NCES ELSI export" });
  });

  it("changes nothing on a second run of every file", async () => {
    // The 2023-24 file has no agency type column, so it must not own (and null) one another source wrote.
    await t.db.query(
      `UPDATE district_annual_stats SET agency_type = 'written elsewhere'
        WHERE school_year_start = 2023 AND district_id = (SELECT id FROM districts WHERE fed_id = '0100005')`,
    );
    for (const [years, read, rejected] of ELSI_FILES) {
      const summary = await runIngest(t.db, "nces-elsi-lea", dataFile(ELSI(years)));
      expect([years, counts(summary)]).toEqual([
        years,
        { read, inserted: 0, updated: 0, unchanged: read - rejected, rejected, skipped: 0 },
      ]);
      expect(summary.districts_refreshed).toBe(0);
    }
    expect(await stats("0100005", 2023)).toMatchObject({ agency_type: "written elsewhere" });
  });

  it("a metric_query change window 2019 -> 2022 equals the files' difference", async () => {
    const [row] = await t.db.query<{ id: string }>(`SELECT id FROM districts WHERE fed_id = '1802830'`);
    const [alb] = await t.db.query<{ id: string }>(`SELECT id FROM districts WHERE fed_id = '0100005'`);
    const mq = JSON.stringify({ select: [{ metric: "total_enrollment", change: { from: 2019, to: 2022, kind: "absolute" }, as: "d" }] });
    const res = await t.get(`/api/v1/districts?ids=${row!.id},${alb!.id}&metric_query=${encodeURIComponent(mq)}`).expect(200);
    const byName = Object.fromEntries(
      res.body.data.map((d: { fed_id?: string; id: string; metric_values: unknown }) => [d.id, d.metric_values]),
    );
    // Zionsville 7906 (2022-23) - 7435 (2019-20); Albertville 5900 - 5824.
    expect(byName[row!.id]).toEqual({ d: 471 });
    expect(byName[alb!.id]).toEqual({ d: 76 });
  });
});

describe("census-saipe, every year", () => {
  // [yy, read, rejected] on a database holding the 2023-24 LEA directory.
  const YEARS: [string, number, number][] = [
    ["12", 13545, 542],
    ["19", 13184, 114],
    ["22", 13153, 41],
    ["23", 13144, 37],
  ];

  it("refuses a file whose name carries no year, and malformed copies, writing nothing", async () => {
    const before = await fingerprint(t.db);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-saipe-"));
    const noYear = path.join(dir, "saipe-poverty.csv.gz");
    fs.copyFileSync(dataFile(SAIPE("19")), noYear);
    await refused("census-saipe", noYear, /named ussdYY/);
    expect(await fingerprint(t.db)).toEqual(before);
    await expectMalformedRefused(t.db, "census-saipe", SAIPE("19"), "district_id");
  });

  it("loads each year into that school year's row, idempotently", async () => {
    for (const [yy, read, rejected] of YEARS) {
      const first = await runIngest(t.db, "census-saipe", dataFile(SAIPE(yy)));
      expect([yy, first.read, first.rejected, first.inserted + first.updated]).toEqual([yy, read, rejected, read - rejected]);
      const second = await runIngest(t.db, "census-saipe", dataFile(SAIPE(yy)));
      expect([yy, counts(second)]).toEqual([yy, { read, inserted: 0, updated: 0, unchanged: read - rejected, rejected, skipped: 0 }]);
    }
    // Albertville City School District (AL 01 00005), Zionsville (IN 18 02830), ABC Unified (CA 06 01620).
    expect(await stats("0100005", 2012)).toMatchObject({
      total_population: 21527,
      school_age_population: 4057,
      school_age_children_in_poverty: 1803,
      school_age_poverty_pct: 44.44,
      saipe_version: "SAIPE 2012 school district estimates",
    });
    expect(await stats("0100005", 2019)).toMatchObject({
      total_population: 22051,
      school_age_children_in_poverty: 957,
      total_enrollment: 5824,
    });
    expect(await stats("0100005", 2023)).toMatchObject({
      total_population: 23117,
      school_age_population: 4825,
      school_age_children_in_poverty: 1042,
    });
    expect(await stats("1802830", 2012)).toMatchObject({
      total_population: 25324,
      school_age_population: 6209,
      school_age_children_in_poverty: 170,
    });
    expect(await stats("1802830", 2023)).toMatchObject({
      total_population: 37656,
      school_age_children_in_poverty: 141,
      total_enrollment: 7923,
    });
    expect(await stats("0601620", 2019)).toMatchObject({
      total_population: 108331,
      school_age_population: 17163,
      school_age_children_in_poverty: 2106,
    });
    expect(await stats("0601620", 2022)).toMatchObject({
      total_population: 103745,
      school_age_children_in_poverty: 1993,
      total_enrollment: 18354,
    });
  });
});
