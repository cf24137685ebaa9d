/**
 * District-side sources on one database, loaded in dependency order: CCD LEA directory, School/District
 * Search exports, SAIPE, county list, F-33. For each: malformed copies are refused with the database
 * untouched, the real file lands (minus documented rejects), and a second run changes nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { INGEST_SOURCES, runIngest } from "../../src/ingest";
import { createTestDb, type TestDb } from "../support/db";
import { count, counts, dataFile, expectMalformedRefused } from "./helpers";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

const LEA = "data/nces_ccd_lea_directory/ccd_lea_029_2324_w_0a_050824.csv.gz";

describe("nces-lea", () => {
  it("refuses malformed copies (wrong header, truncated row, invalid UTF-8) and writes nothing", async () => {
    await expectMalformedRefused(db, "nces-lea", LEA, "LEAID");
  });

  it("loads every LEA of the directory with a 2023 statistics row", async () => {
    const summary = await runIngest(db, "nces-lea", dataFile(LEA));
    expect(counts(summary)).toEqual({ read: 19627, inserted: 19627, updated: 0, unchanged: 0, rejected: 0, skipped: 0 });
    expect(summary.related.district_annual_stats).toEqual({ inserted: 19627, updated: 0, unchanged: 0 });
    expect(await count(db, `SELECT 1 FROM districts WHERE data_source = 'nces_ccd_lea_2324'`)).toBe(19627);
    expect(
      await count(db, `SELECT 1 FROM district_annual_stats WHERE school_year_start = 2023 AND fed_directory_version IS NOT NULL`),
    ).toBe(19627);
    const [albertville] = await db.query(`SELECT * FROM districts WHERE fed_id = '0100005'`);
    expect(albertville).toMatchObject({
      name: "Albertville City",
      state: "AL",
      state_fips: "01",
      state_district_id: "AL-101",
      phone: "(256)891-1183",
      website_url: "http://www.albertk12.org",
      physical_address: "8379 US Highway 431",
      physical_city: "Albertville",
      physical_zip: "35950",
      grade_span: "PK-12",
      grade_low: "PK",
      grade_high: "12",
      grade_levels: ["pre_k", "elementary", "middle", "high"],
      school_count: 6,
      operational_status: "Open",
      district_type_code: "1",
      fed_data_year: 2023,
      status: "pending",
    });
    // Leading zeros are kept; M/N grade codes become nulls.
    expect(await count(db, `SELECT 1 FROM districts WHERE fed_id !~ '^[0-9]{7}$'`)).toBe(0);
    expect(await count(db, `SELECT 1 FROM districts WHERE grade_span IS NULL`)).toBe(1076);
    const runs = await db.query<{ file_sha256: string }>(`SELECT file_sha256 FROM ingest_runs WHERE source = 'nces-lea'`);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.file_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes nothing on a second run", async () => {
    const summary = await runIngest(db, "nces-lea", dataFile(LEA));
    expect(counts(summary)).toEqual({ read: 19627, inserted: 0, updated: 0, unchanged: 19627, rejected: 0, skipped: 0 });
    expect(summary.related.district_annual_stats).toEqual({ inserted: 0, updated: 0, unchanged: 19627 });
  });
});

describe("nces-school-search", () => {
  const files = INGEST_SOURCES["nces-school-search"].files;
  const expected: Record<string, number> = {
    california_districts: 2112,
    florida_districts: 83,
    michigan_districts: 883,
    washington_districts: 342,
    california_public_schools: 10349,
    florida_schools: 4248,
    michigan_schools: 3487,
    washington_schools: 2553,
  };

  it("refuses malformed copies of a district and a school export", async () => {
    await expectMalformedRefused(
      db,
      "nces-school-search",
      "data/nces_school_search_4states/michigan_districts.csv",
      "NCES District ID",
      700,
    );
    await expectMalformedRefused(
      db,
      "nces-school-search",
      "data/nces_school_search_4states/california_public_schools.csv",
      "NCES School ID",
    );
  });

  it("loads district counts, then schools linked to their district", async () => {
    for (const file of files) {
      const summary = await runIngest(db, "nces-school-search", dataFile(file));
      const rows = expected[file.replace(/^.*\//, "").replace(".csv", "")]!;
      expect(summary.read).toBe(rows);
      expect(summary.rejected).toBe(0);
      if (file.endsWith("_districts.csv")) {
        // Every district is in the LEA directory already: the export only adds its own columns.
        expect(summary.inserted).toBe(0);
        expect(summary.updated + summary.unchanged).toBe(rows);
        expect(summary.related.district_annual_stats?.inserted).toBe(rows);
      } else {
        expect(summary.inserted).toBe(rows);
        expect(summary.related.school_annual_stats?.inserted).toBe(2 * rows);
      }
    }
    expect(await count(db, `SELECT 1 FROM schools`)).toBe(20637);
    expect(await count(db, `SELECT 1 FROM schools WHERE district_id IS NULL`)).toBe(0);
    expect(await count(db, `SELECT 1 FROM school_annual_stats`)).toBe(2 * 20637);
    const [school] = await db.query(`SELECT * FROM schools WHERE fed_id = '060429013779'`);
    expect(school).toMatchObject({
      name: "21st Century Learning Institute",
      district_fed_id: "0604290",
      grade_levels: "KG-12",
      grade_buckets: ["elementary", "middle", "high"],
      locale_code: "21",
      locale_type: "Suburb: Large",
      county: "Riverside County",
      student_count: 334,
      teachers_fte: 7.07,
      student_teacher_ratio: 47.24,
    });
    const [linked] = await db.query(
      `SELECT d.fed_id FROM schools s JOIN districts d ON d.id = s.district_id WHERE s.fed_id = '060429013779'`,
    );
    expect(linked).toEqual({ fed_id: "0604290" });
    const [stats] = await db.query(
      `SELECT st.* FROM school_annual_stats st JOIN schools s ON s.id = st.school_id WHERE s.fed_id = '060429013779' AND school_year_start = 2022`,
    );
    expect(stats).toMatchObject({
      total_enrollment: 334,
      free_lunch_eligible: 182,
      reduced_price_lunch_eligible: 22,
      free_or_reduced_price_lunch_eligible: 204,
      free_or_reduced_price_lunch_pct: 61.08,
      enrollment_status: "reported",
      lunch_status: "reported",
      low_grade: "KG",
      high_grade: "12",
    });
    // "A Place to Grow": † (not applicable) counts and – (missing) teachers become nulls with their status.
    const [suppressed] = await db.query(
      `SELECT st.total_enrollment, st.enrollment_status, st.teachers_fte, st.teachers_status, st.lunch_status
         FROM school_annual_stats st JOIN schools s ON s.id = st.school_id WHERE s.fed_id = '062827013394' AND school_year_start = 2022`,
    );
    expect(suppressed).toEqual({
      total_enrollment: null,
      enrollment_status: "not_applicable",
      teachers_fte: null,
      teachers_status: "missing",
      lunch_status: "not_applicable",
    });
    const [abc] = await db.query(
      `SELECT student_count, teachers_fte, locale_code, locale_type, name FROM districts WHERE fed_id = '0601620'`,
    );
    expect(abc).toEqual({
      student_count: 18354,
      teachers_fte: 810.83,
      locale_code: "21",
      locale_type: "Suburb: Large",
      name: "ABC Unified",
    });
  });

  it("changes nothing on a second run", async () => {
    for (const file of files) {
      const summary = await runIngest(db, "nces-school-search", dataFile(file));
      expect([summary.inserted, summary.updated]).toEqual([0, 0]);
      for (const related of Object.values(summary.related)) expect([related.inserted, related.updated]).toEqual([0, 0]);
    }
  });
});

describe("census-saipe", () => {
  const SAIPE = "data/census_saipe_sd_poverty/ussd22.csv";

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "census-saipe", SAIPE, "district_id");
  });

  it("adds poverty estimates to the 2022 rows, rejecting the 41 districts the LEA directory lacks", async () => {
    const summary = await runIngest(db, "census-saipe", dataFile(SAIPE));
    // 1,836 of the 2022 rows already exist from the district search exports: SAIPE adds its columns to them.
    expect(counts(summary)).toEqual({ read: 13153, inserted: 11276, updated: 1836, unchanged: 0, rejected: 41, skipped: 0 });
    expect(summary.rejects[0]).toEqual({ line: 56, reason: expect.stringContaining("no district with LEAID 0100001") });
    expect(await count(db, `SELECT 1 FROM district_annual_stats WHERE school_year_start = 2022 AND saipe_version IS NOT NULL`)).toBe(13112);
    const [abc] = await db.query(
      `SELECT s.total_population, s.school_age_population, s.school_age_children_in_poverty, s.school_age_poverty_pct, s.total_enrollment, s.source_urls
         FROM district_annual_stats s JOIN districts d ON d.id = s.district_id WHERE d.fed_id = '0601620' AND s.school_year_start = 2022`,
    );
    // Both sources' columns (and source URLs) live side by side in the one row.
    expect(abc).toMatchObject({ total_enrollment: 18354, total_population: expect.any(Number), school_age_population: expect.any(Number) });
    expect(Object.keys(abc!.source_urls as object).sort()).toEqual(["membership", "saipe", "staff"]);
    const [alabaster] = await db.query(
      `SELECT s.* FROM district_annual_stats s JOIN districts d ON d.id = s.district_id WHERE d.fed_id = '0100190' AND s.school_year_start = 2022`,
    );
    expect(alabaster).toMatchObject({
      total_population: 34391,
      school_age_population: 6494,
      school_age_children_in_poverty: 610,
      school_age_poverty_pct: 9.39,
    });
  });

  it("changes nothing on a second run, and other sources' columns survive re-runs", async () => {
    const summary = await runIngest(db, "census-saipe", dataFile(SAIPE));
    expect(counts(summary)).toEqual({ read: 13153, inserted: 0, updated: 0, unchanged: 13112, rejected: 41, skipped: 0 });
    const again = await runIngest(db, "nces-school-search", dataFile("data/nces_school_search_4states/california_districts.csv"));
    expect(again.related.district_annual_stats).toEqual({ inserted: 0, updated: 0, unchanged: 2112 });
    expect(await count(db, `SELECT 1 FROM district_annual_stats WHERE school_year_start = 2022 AND saipe_version IS NOT NULL`)).toBe(13112);
  });
});

describe("census-county", () => {
  const COUNTY = "data/census_sd_county_list/sdlist-21.csv";

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "census-county", COUNTY, "county_fips");
  });

  it("sets every county a district overlaps", async () => {
    const summary = await runIngest(db, "census-county", dataFile(COUNTY));
    // 18,998 rows = 13,080 districts + 5,798 extra counties folded in + 120 rows of 92 districts not in the directory.
    expect(counts(summary)).toEqual({ read: 18998, inserted: 0, updated: 13080, unchanged: 0, rejected: 120, skipped: 5798 });
    expect(await db.query(`SELECT county, county_fips FROM districts WHERE fed_id = '0100005'`)).toEqual([
      { county: "Marshall County", county_fips: "01095" },
    ]);
    // A district in three counties lists all three, in the file's order.
    expect(await db.query(`SELECT county, county_fips FROM districts WHERE fed_id = '0100011'`)).toEqual([
      { county: "Jefferson County; St. Clair County; Shelby County", county_fips: "01073;01115;01117" },
    ]);
  });

  it("changes nothing on a second run", async () => {
    const summary = await runIngest(db, "census-county", dataFile(COUNTY));
    expect([summary.inserted, summary.updated, summary.unchanged]).toEqual([0, 0, 13080]);
  });
});

describe("urban-f33", () => {
  const F33 = "data/urban_edp_tn_district_finance/tn_district_finance_urban_edp.csv";

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "urban-f33", F33, "leaid");
  });

  it("writes the finance columns of 2017-18 with the ODC-By attribution", async () => {
    const summary = await runIngest(db, "urban-f33", dataFile(F33));
    // Six TN agencies (state schools) have no finance value at all and get no finance row.
    expect(counts(summary)).toEqual({ read: 148, inserted: 142, updated: 0, unchanged: 0, rejected: 0, skipped: 6 });
    const [asd] = await db.query(
      `SELECT s.* FROM district_annual_stats s JOIN districts d ON d.id = s.district_id WHERE d.fed_id = '4700147' AND s.school_year_start = 2017`,
    );
    expect(asd).toMatchObject({
      finance_fiscal_year: 2018,
      total_expenditures: 115241000,
      current_expenditures: 112697000,
      instruction_expenditures: 62895000,
      support_services_expenditures: 49673000,
      f33_version: expect.stringContaining("Urban Institute"),
      source_urls: expect.objectContaining({ f33_attribution: expect.stringContaining("ODC-By") }),
      total_population: null,
    });
    const [district] = await db.query(
      `SELECT total_expenditures, instructional_expenditures_percent FROM districts WHERE fed_id = '4700147'`,
    );
    expect(district).toEqual({ total_expenditures: 115241000, instructional_expenditures_percent: 55.81 });
  });

  it("writes the extract's enrollment as 2022 enrollment, never as FY2018's denominator", async () => {
    // data_dictionary.csv: enrollment is CCD year 2022, spending F-33 year 2018. Two real districts.
    const rows = await db.query<{ fed_id: string; school_year_start: number } & Record<string, unknown>>(
      `SELECT d.fed_id, s.school_year_start, s.total_enrollment, s.fed_membership_version, s.current_expenditures,
              s.current_expenditures_per_student, s.finance_fiscal_year
         FROM district_annual_stats s JOIN districts d ON d.id = s.district_id
        WHERE d.fed_id IN ('4700147', '4700030') AND s.school_year_start IN (2017, 2022)
        ORDER BY d.fed_id, s.school_year_start`,
    );
    expect(rows).toEqual([
      // Alamo
      expect.objectContaining({ fed_id: "4700030", school_year_start: 2017, total_enrollment: null, current_expenditures: 5136000 }),
      expect.objectContaining({ fed_id: "4700030", school_year_start: 2022, total_enrollment: 578, finance_fiscal_year: null }),
      // Achievement School District
      expect.objectContaining({ fed_id: "4700147", school_year_start: 2017, total_enrollment: null, current_expenditures: 112697000 }),
      expect.objectContaining({ fed_id: "4700147", school_year_start: 2022, total_enrollment: 5966, current_expenditures: null }),
    ]);
    for (const row of rows) expect(row.current_expenditures_per_student).toBeNull();
    expect(rows[1]!.fed_membership_version).toContain("2022-23 membership via Urban Institute");
    expect(await count(db, `SELECT 1 FROM district_annual_stats WHERE fed_membership_version LIKE '%via Urban Institute%'`)).toBe(148);
  });

  it("changes nothing on a second run", async () => {
    const summary = await runIngest(db, "urban-f33", dataFile(F33));
    expect([summary.inserted, summary.updated, summary.unchanged]).toEqual([0, 0, 142]);
    expect(summary.related.districts).toEqual({ inserted: 0, updated: 0, unchanged: 142 });
    expect(summary.related["district_annual_stats 2022 enrollment"]).toEqual({ inserted: 0, updated: 0, unchanged: 148 });
  });

  it("divides FY2018 spending only by a 2017-18 enrollment, and keeps another source's 2022 enrollment", async () => {
    const alamo = `(SELECT id FROM districts WHERE fed_id = '4700030')`;
    // As if another source (e.g. an ELSI 2017-18 export) had written the same-year enrollment and 2022's.
    await db.query(`UPDATE district_annual_stats SET total_enrollment = 600 WHERE district_id = ${alamo} AND school_year_start = 2017`);
    await db.query(
      `UPDATE district_annual_stats SET total_enrollment = 580, fed_membership_version = 'CCD 2022-23 via NCES ELSI export'
        WHERE district_id = ${alamo} AND school_year_start = 2022`,
    );
    await runIngest(db, "urban-f33", dataFile(F33));
    const [fy2018] = await db.query(
      `SELECT current_expenditures_per_student FROM district_annual_stats WHERE district_id = ${alamo} AND school_year_start = 2017`,
    );
    expect(fy2018).toEqual({ current_expenditures_per_student: 8560 }); // 5,136,000 / 600
    const [sy2022] = await db.query(
      `SELECT total_enrollment, fed_membership_version FROM district_annual_stats WHERE district_id = ${alamo} AND school_year_start = 2022`,
    );
    expect(sy2022).toEqual({ total_enrollment: 580, fed_membership_version: "CCD 2022-23 via NCES ELSI export" });
  });

  it("never labels a row as demo data", async () => {
    for (const table of ["districts", "schools"])
      expect(await count(db, `SELECT 1 FROM ${table} WHERE data_source ILIKE '%demo%'`)).toBe(0);
  });
});

describe("nces-school-search with a district the LEA directory lacks", () => {
  it("creates the district from the export and links the school to it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-new-district-"));
    const [districtHeader, districtRow] = fs
      .readFileSync(dataFile("data/nces_school_search_4states/florida_districts.csv"), "utf8")
      .split("\n");
    const [schoolHeader, schoolRow] = fs.readFileSync(dataFile("data/nces_school_search_4states/florida_schools.csv"), "utf8").split("\n");
    const districts = path.join(dir, "florida_districts.csv");
    const schools = path.join(dir, "florida_schools.csv");
    // LEAID 1299999 is not in the directory; the school id keeps its 5-digit school part.
    fs.writeFileSync(districts, `${districtHeader}\n${districtRow!.replace(/^1200030,/, "1299999,")}\n`);
    fs.writeFileSync(
      schools,
      `${schoolHeader}\n${schoolRow!.replace(/^\d{7}(\d{5}),FL-48-1444,\d{7},/, "1299999$1,FL-48-1444,1299999,")}\n`,
    );

    const district = await runIngest(db, "nces-school-search", districts);
    expect(counts(district)).toEqual({ read: 1, inserted: 1, updated: 0, unchanged: 0, rejected: 0, skipped: 0 });
    const [created] = await db.query(`SELECT name, state, county, student_count, data_source FROM districts WHERE fed_id = '1299999'`);
    expect(created).toEqual({
      name: "ALACHUA",
      state: "FL",
      county: "Alachua County",
      student_count: 28964,
      data_source: "nces_ccd_school_search_2324",
    });
    const school = await runIngest(db, "nces-school-search", schools);
    expect(counts(school)).toEqual({ read: 1, inserted: 1, updated: 0, unchanged: 0, rejected: 0, skipped: 0 });
    const [linked] = await db.query(
      `SELECT d.fed_id FROM schools s JOIN districts d ON d.id = s.district_id WHERE s.district_fed_id = '1299999'`,
    );
    expect(linked).toEqual({ fed_id: "1299999" });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
