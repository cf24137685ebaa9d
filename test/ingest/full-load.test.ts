/**
 * Every real file under data/, loaded once on one database, source by source in dependency order (the
 * order of INGEST_SOURCES, which ingestDemoFiles follows): CCD LEA directory, School/District Search
 * exports, the national school list of 2019-20, SAIPE (every year), county list, F-33, NCES ELSI (every year), the California and Illinois state
 * directories' leaders (contacts), Head Start PIR, the Nebraska and
 * Indiana licensing rosters, the IRS BMF. Each source's tests check its files as they land; malformed
 * copies are refused with the database untouched; the early-childhood records are read back through
 * GraphQL (formerly test/graphql/early-childhood-ingest.test.ts, which loaded three of these files on
 * its own database). Then ingestDemoFiles runs over the loaded database:
 * that one second run of every file holds each source's "changes nothing on a second run" checks (the
 * describe blocks of those tests are repeated after it, so every test keeps its name).
 *
 * A source is loaded when the first test needing it runs (loadThrough), so a single test (-t) still
 * finds its precondition. Tests needing another precondition stay elsewhere: the ELSI-first order and
 * the malformed ELSI / SAIPE copies in national-multiyear.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { type IngestSource, type IngestSummary, ingestDemoFiles, INGEST_SOURCES, runIngest } from "../../src/ingest";
import { createTestApp, type TestApp } from "../support/app";
import type { TestDb } from "../support/db";
import { measureStatements } from "../support/statements";
import { count, counts, dataFile, expectMalformedRefused } from "./helpers";
import { temporaryDirs } from "../support/temp-dirs";

const tmp = temporaryDirs();

let t: TestApp;
let db: TestDb;
beforeAll(async () => {
  t = await createTestApp();
  db = t.db;
});
afterAll(async () => {
  await t?.close();
});

const SOURCES = Object.keys(INGEST_SOURCES) as IngestSource[];
/** File (as INGEST_SOURCES names it) -> the summary of its first load. */
const firstRuns = new Map<string, IngestSummary>();
let loadedSources = 0;

/**
 * Loads, once, every source up to and including `source`, in dependency order, each file by runIngest. The
 * district record's latest-year fields are refreshed after a source's last file only (as ingestDemoFiles does
 * after the whole load): the refresh reads every stats row, and after each of the 14 files that can change them
 * it was a fifth of this file's time. It is a function of the stored rows, so the state after each source is the same.
 */
async function loadThrough(source: IngestSource): Promise<void> {
  for (const last = SOURCES.indexOf(source); loadedSources <= last; loadedSources++) {
    const name = SOURCES[loadedSources]!;
    const { files } = INGEST_SOURCES[name];
    for (const file of files)
      firstRuns.set(file, await runIngest(db, name, dataFile(file), { refreshSummary: file === files[files.length - 1] }));
  }
}
const firstRun = (file: string): IngestSummary => firstRuns.get(file)!;

interface SecondRun {
  summaries: IngestSummary[];
  log: string[];
}
let secondRunning: Promise<SecondRun> | undefined;

/**
 * ingestDemoFiles over the fully loaded database, once. Before it, a column the ELSI 2023-24 file does not
 * have is written as if by another source (checked in "changes nothing on a second run of every file").
 */
function secondRun(): Promise<SecondRun> {
  secondRunning ??= (async () => {
    await loadThrough(SOURCES[SOURCES.length - 1]!);
    // The 2023-24 file has no agency type column, so it must not own (and null) one another source wrote.
    await db.query(
      `UPDATE district_annual_stats SET agency_type = 'written elsewhere'
        WHERE school_year_start = 2023 AND district_id = (SELECT id FROM districts WHERE fed_id = '0100005')`,
    );
    const log: string[] = [];
    const summaries = await ingestDemoFiles(db, { log: (line) => log.push(line) });
    return { summaries, log };
  })();
  return secondRunning;
}
const secondRunOf = async (file: string): Promise<IngestSummary> => (await secondRun()).summaries.find((s) => s.file === file)!;

async function stats(leaid: string, year: number): Promise<Record<string, unknown>> {
  const [row] = await db.query<Record<string, unknown>>(
    `SELECT s.* FROM district_annual_stats s JOIN districts d ON d.id = s.district_id WHERE d.fed_id = $1 AND s.school_year_start = $2`,
    [leaid, year],
  );
  return row ?? {};
}

const LEA = "data/nces_ccd_lea_directory/ccd_lea_029_2324_w_0a_050824.csv.gz";
const SCHOOL_SEARCH = INGEST_SOURCES["nces-school-search"].files;
const SAIPE22 = "data/census_saipe_sd_poverty/ussd22.csv";
const COUNTY = "data/census_sd_county_list/sdlist-21.csv";
const F33 = "data/urban_edp_tn_district_finance/tn_district_finance_urban_edp.csv";
const ELSI = (years: string) => `data/nces_elsi_lea_multiyear/elsi_lea_${years}.csv.gz`;
const SAIPE = (yy: string) => `data/census_saipe_sd_poverty/ussd${yy}.csv${yy === "22" ? "" : ".gz"}`;
const PIR = "data/hhs_head_start_pir/pir_clean_2019_2022.csv";
const NE = "data/childcare_licensing_ne/ne_dhhs_child_care_roster_2026-02-16_centers.csv";
const IN = "data/childcare_licensing_in/in_fssa_provider_profiles_2022-03-30_nonhome.csv";
const IRS = INGEST_SOURCES["irs-bmf"].files;
const CA_DIRECTORY = INGEST_SOURCES["ca-cde-districts"].files[0]!;
const IL_DIRECTORY = INGEST_SOURCES["il-isbe-directory"].files[0]!;
const NATIONAL_SCHOOLS = INGEST_SOURCES["urban-ccd-schools"].files[0]!;
/** Schools of the national list's first run: the 4 exports' states skipped (their districts' FIPS 06, 12, 26, 53). */
const NATIONAL = { read: 101688, inserted: 80791, skipped: 20897 };
/** Schools after the national list: the exports' 20,637 and the list's rows of every other state. */
const ALL_SCHOOLS = 20637 + NATIONAL.inserted;

type Record_ = Record<string, any>;

/** Read, main-table outcome and rejects of each ELSI file on a database holding the LEA directory. */
const ELSI_FILES: [string, number, number][] = [
  ["2019_2020", 19717, 463],
  ["2020_2021", 19571, 318],
  ["2021_2022", 19592, 201],
  ["2022_2023", 19517, 0],
  ["2023_2024", 19770, 328],
];

describe("nces-lea", () => {
  it("refuses malformed copies (wrong header, truncated row, invalid UTF-8) and writes nothing", async () => {
    await expectMalformedRefused(db, "nces-lea", LEA, "LEAID");
  });

  it("loads every LEA of the directory with a 2023 statistics row", async () => {
    await loadThrough("nces-lea");
    const summary = firstRun(LEA);
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
});

// ---------------------------------------------------------------- malformed copies, on the LEA directory
//
// Refused with the database untouched (helpers.ts: fingerprint of every ingest table); each copy holds
// enough rows that batches are written before the problem. Before the other sources load, so the
// fingerprint stays small; the IRS copies come after the operators they update (irs-bmf below).

describe("nces-school-search", () => {
  beforeAll(() => loadThrough("nces-lea"));

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
});

describe("urban-ccd-schools", () => {
  beforeAll(() => loadThrough("nces-lea"));

  it("refuses malformed copies of the gzipped national list", async () => {
    await expectMalformedRefused(db, "urban-ccd-schools", NATIONAL_SCHOOLS, "ncessch");
  });
});

describe("census-saipe", () => {
  beforeAll(() => loadThrough("nces-lea"));

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "census-saipe", SAIPE22, "district_id");
  });
});

describe("census-county", () => {
  beforeAll(() => loadThrough("nces-lea"));

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "census-county", COUNTY, "county_fips");
  });
});

describe("urban-f33", () => {
  beforeAll(() => loadThrough("nces-lea"));

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "urban-f33", F33, "leaid");
  });
});

describe("hhs-head-start", () => {
  beforeAll(() => loadThrough("nces-lea"));

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "hhs-head-start", PIR, "grant_number");
  });
});

describe("childcare-ne", () => {
  beforeAll(() => loadThrough("nces-lea"));

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "childcare-ne", NE, "License_Number");
  });
});

describe("childcare-in", () => {
  beforeAll(() => loadThrough("nces-lea"));

  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "childcare-in", IN, "FacilityNumber");
  });
});

// ---------------------------------------------------------------- the first load, in dependency order

describe("nces-school-search", () => {
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

  it("loads district counts, then schools linked to their district", async () => {
    await loadThrough("nces-school-search");
    for (const file of SCHOOL_SEARCH) {
      const summary = firstRun(file);
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
    expect(await count(db, `SELECT 1 FROM schools WHERE data_source = 'nces_ccd_school_search_2324'`)).toBe(20637);
    expect(await count(db, `SELECT 1 FROM schools WHERE district_id IS NULL AND data_source = 'nces_ccd_school_search_2324'`)).toBe(0);
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
    const [schoolStats] = await db.query(
      `SELECT st.* FROM school_annual_stats st JOIN schools s ON s.id = st.school_id WHERE s.fed_id = '060429013779' AND school_year_start = 2022`,
    );
    expect(schoolStats).toMatchObject({
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
});

describe("urban-ccd-schools", () => {
  const schoolsOf = (leaid: string) =>
    count(db, `SELECT 1 FROM schools s JOIN districts d ON d.id = s.district_id WHERE d.fed_id = $1`, [leaid]);

  it("loads every school of the states the exports do not cover, labelled 2019-20, linked to its district", async () => {
    await loadThrough("urban-ccd-schools");
    expect(counts(firstRun(NATIONAL_SCHOOLS))).toEqual({ ...NATIONAL, updated: 0, unchanged: 0, rejected: 0 });
    expect(await count(db, `SELECT 1 FROM schools`)).toBe(ALL_SCHOOLS);
    expect(await count(db, `SELECT 1 FROM schools WHERE data_source = 'urban_edp_ccd_school_directory_2019'`)).toBe(NATIONAL.inserted);
    // The exports' states keep their 2023-24 records (none of the list's rows of CA, FL, MI, WA districts was written).
    expect(
      await count(
        db,
        `SELECT 1 FROM schools WHERE data_source = 'urban_edp_ccd_school_directory_2019' AND left(district_fed_id, 2) IN ('06', '12', '26', '53')`,
      ),
    ).toBe(0);
    const [bellaire] = await db.query(`SELECT * FROM schools WHERE fed_id = '482364002397'`);
    expect(bellaire).toMatchObject({
      name: "BELLAIRE H S",
      district_fed_id: "4823640",
      state: "TX",
      physical_city: "BELLAIRE",
      physical_state: "TX",
      physical_address: null,
      phone: null,
      student_count: null,
      grade_levels: "09-12",
      grade_low: "09",
      grade_high: "12",
      grade_buckets: ["high"],
      fed_data_year: 2019,
      source: "NCES CCD school directory 2019-20 via Urban Institute Education Data Portal",
      source_url: "https://educationdata.urban.org/api/v1/schools/ccd/directory/2019/?ncessch=482364002397",
    });
    const [picotte] = await db.query(`SELECT name, grade_levels, grade_buckets FROM schools WHERE fed_id = '317482000084'`);
    expect(picotte).toEqual({ name: "PICOTTE ELEMENTARY SCHOOL", grade_levels: expect.any(String), grade_buckets: expect.any(Array) });
    // Houston ISD: 282 schools in the 2019-20 list (274 operational in the 2023-24 LEA directory: docs/catalogue.md).
    expect(await schoolsOf("4823640")).toBe(282);
    expect(await schoolsOf("3174820")).toBe(110);
    // The districts of every state, DC, territory and the BIE ("BI") that report schools list schools, except the
    // Northern Mariana Islands, which the national list does not cover.
    const empty = await db.query<{ state: string }>(
      `SELECT d.state FROM districts d LEFT JOIN schools s ON s.district_id = d.id GROUP BY d.state
        HAVING sum(d.school_count) > 0 AND count(s.id) = 0 ORDER BY 1`,
    );
    expect(empty.map((r) => r.state)).toEqual(["MP"]);
  });
});

describe("census-saipe", () => {
  it("adds poverty estimates to the 2022 rows, rejecting the 41 districts the LEA directory lacks", async () => {
    await loadThrough("census-saipe");
    const summary = firstRun(SAIPE22);
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
});

describe("census-county", () => {
  it("sets every county a district overlaps", async () => {
    await loadThrough("census-county");
    const summary = firstRun(COUNTY);
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
});

describe("urban-f33", () => {
  it("writes the finance columns of 2017-18 with the ODC-By attribution", async () => {
    await loadThrough("urban-f33");
    const summary = firstRun(F33);
    // Six TN agencies (state schools) have no finance value at all and get no finance row. Of the 142
    // finance rows, 140 exist already: SAIPE 2017 (ussd17, loaded before F-33) wrote them.
    expect(counts(summary)).toEqual({ read: 148, inserted: 2, updated: 140, unchanged: 0, rejected: 0, skipped: 6 });
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
    await loadThrough("urban-f33");
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

  it("divides FY2018 spending only by a 2017-18 enrollment, and keeps another source's 2022 enrollment", async () => {
    await loadThrough("urban-f33");
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
    await loadThrough("urban-f33");
    for (const table of ["districts", "schools"])
      expect(await count(db, `SELECT 1 FROM ${table} WHERE data_source ILIKE '%demo%'`)).toBe(0);
  });
});

describe("nces-elsi-lea", () => {
  it("loads each school year with rejects for LEAIDs absent from the directory", async () => {
    await loadThrough("nces-elsi-lea");
    for (const [years, read, rejected] of ELSI_FILES) {
      const summary = firstRun(ELSI(years));
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
      await count(db, `SELECT 1 FROM district_annual_stats WHERE school_year_start = 2020 AND revenue_per_student IS NOT NULL`),
    ).toBeGreaterThan(17000);
    // 2022: the School/District Search exports (loaded before ELSI) keep their 2022 rows: 3,405 of the 3,420
    // districts of the four states' exports are in the 2022-23 file (national-multiyear.test.ts: they win
    // whichever loads first).
    for (const year of [2019, 2020, 2021, 2022, 2023]) {
      expect(
        await count(db, `SELECT 1 FROM district_annual_stats WHERE school_year_start = $1 AND fed_membership_version LIKE '%ELSI%'`, [
          year,
        ]),
      ).toBe({ 2019: 19254, 2020: 19253, 2021: 19391, 2022: 19517 - 3405, 2023: 19442 }[year]);
    }
  });

  it("reads back known values for several districts and years (leading zeros restored, codes to null with status)", async () => {
    await loadThrough("nces-elsi-lea");
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
    // WAY Michigan 2022-23 (‡ in ELSI, below standards) is read in national-multiyear.test.ts, where ELSI
    // loads before the Michigan district export that wins for 2022.
  });

  it("keeps the agency type of each year and the status of every coded value", async () => {
    await loadThrough("nces-elsi-lea");
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
    await loadThrough("nces-elsi-lea");
    const rows = await db.query<{
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
    const [aero] = await db.query<{ value: number | null; value_status: string }>(
      `SELECT b.value, b.value_status FROM district_stat_breakdowns b JOIN districts d ON d.id = b.district_id
        WHERE d.fed_id = '1700024' AND b.breakdown_key = 'enrollment_race_sex' AND b.subgroup = 'White'`,
    );
    expect(aero).toEqual({ value: null, value_status: "not_applicable" });
  });

  it("sets the district record from the latest year having each field (ratio and per-student from one year)", async () => {
    await loadThrough("nces-elsi-lea");
    // runIngest refreshed them after the last ELSI file (the earlier ones were loaded without the refresh).
    expect(ELSI_FILES.map(([years]) => firstRun(ELSI(years)).districts_refreshed)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      expect.any(Number),
    ]);
    expect(firstRun(ELSI("2023_2024")).districts_refreshed).toBeGreaterThan(15000);
    const [albertville] = await db.query<Record<string, unknown>>(
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

  it("a metric_query change window 2019 -> 2022 equals the files' difference", async () => {
    await loadThrough("nces-elsi-lea");
    const [row] = await db.query<{ id: string }>(`SELECT id FROM districts WHERE fed_id = '1802830'`);
    const [alb] = await db.query<{ id: string }>(`SELECT id FROM districts WHERE fed_id = '0100005'`);
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

describe("ca-cde-districts", () => {
  it("writes a contact per named California district leader; CD codes the catalogue lacks rejected, unnamed rows skipped", async () => {
    await loadThrough("ca-cde-districts");
    expect(counts(firstRun(CA_DIRECTORY))).toEqual({ read: 1070, inserted: 1047, updated: 0, unchanged: 0, rejected: 14, skipped: 9 });
    expect(await count(db, `SELECT 1 FROM contacts WHERE data_source = 'ca_cde_public_districts_202603' AND former_at IS NULL`)).toBe(1047);
  });
});

describe("il-isbe-directory", () => {
  it("writes a contact per named Illinois district leader and principal; schools the 2019-20 list lacks rejected", async () => {
    await loadThrough("il-isbe-directory");
    expect(counts(firstRun(IL_DIRECTORY))).toEqual({ read: 4870, inserted: 4764, updated: 0, unchanged: 0, rejected: 106, skipped: 0 });
    expect(await count(db, `SELECT 1 FROM contacts WHERE data_source = 'il_isbe_directory_20260317' AND is_district_contact`)).toBe(866);
    expect(await count(db, `SELECT 1 FROM contacts WHERE data_source = 'il_isbe_directory_20260317' AND title = 'Principal'`)).toBe(3889);
    // Opened after 2019-20 (or an id of neither 7 nor 12 digits): the school is not in the catalogue.
    expect(firstRun(IL_DIRECTORY).rejects.filter((r) => /no school with NCES id/.test(r.reason)).length).toBeGreaterThan(50);
  });
});

describe("hhs-head-start", () => {
  it("loads one program per grant and per delegate, with operators for the recipients", async () => {
    await loadThrough("hhs-head-start");
    const summary = firstRun(PIR);
    // 10,314 PIR rows = 4,733 programs + 5,580 rows folded in (other years, the EHS half of a grant) + 1 reject.
    expect(counts(summary)).toEqual({ read: 10314, inserted: 4733, updated: 0, unchanged: 0, rejected: 1, skipped: 5580 });
    expect(summary.rejects).toEqual([{ line: 4830, reason: "program 04CH011174: service_state is empty in every year" }]);
    // 65 grants have only delegate rows: their grant-level program is built from the delegates' rows.
    expect(summary.related["head_start_programs (grant-level, from delegates)"]).toEqual({ inserted: 65, updated: 0, unchanged: 0 });
    expect(await count(db, `SELECT 1 FROM head_start_programs`)).toBe(4733 + 65);
    const operators = summary.related.operators!;
    expect(operators.inserted).toBeGreaterThan(1000);
    expect(await count(db, `SELECT 1 FROM operators`)).toBe(operators.inserted);
    // A recipient's Head Start and Early Head Start rows are one program; its delegate points to it.
    const [manchester] = await db.query(`SELECT * FROM head_start_programs WHERE source_key = '01CH010841'`);
    expect(manchester).toMatchObject({
      grant_number: "01CH010841",
      delegate_number: null,
      status: "active",
      report_year: 2022,
      state: "CT",
      operator_id: null,
    });
    expect(manchester!.district_id).not.toBeNull(); // Manchester Board of Education is a school district, not an operator
    const [enfield] = await db.query(`SELECT * FROM head_start_programs WHERE source_key = '01CH010841-001'`);
    expect(enfield).toMatchObject({
      name: "Enfield Head Start",
      delegate_number: "001",
      parent_program_id: manchester!.id,
      program_types: ["head_start"],
    });
    const [both] = await db.query<{ program_types: string[] }>(
      `SELECT program_types FROM head_start_programs WHERE delegate_number IS NULL AND program_types @> ARRAY['head_start','early_head_start'] LIMIT 1`,
    );
    expect(both).toBeDefined();
    expect(await count(db, `SELECT 1 FROM head_start_programs WHERE status = 'active'`)).toBe(2462 + 35);
    const [linked] = await db.query(
      `SELECT o.kind, o.data_source, o.slug FROM head_start_programs h JOIN operators o ON o.id = h.operator_id WHERE h.recipient_name = 'Hualapai Tribe' LIMIT 1`,
    );
    expect(linked).toMatchObject({
      kind: "tribe",
      data_source: "hhs_ohs_pir_2019_2022",
      slug: expect.stringMatching(/^hualapai-tribe-az-[0-9a-f]{8}$/),
    });
  });

  it("gives every delegate a parent: grants without a recipient row get one from the grant number and grantee_name", async () => {
    await loadThrough("hhs-head-start");
    // Without the built grant-level programs 625 of the 993 delegates (267 of the 472 active) had no parent.
    const delegates = `SELECT status, parent_program_id FROM head_start_programs WHERE delegate_number IS NOT NULL`;
    expect(await count(db, delegates)).toBe(993);
    expect(await count(db, `${delegates} AND status = 'active'`)).toBe(472);
    expect(await count(db, `${delegates} AND parent_program_id IS NULL`)).toBe(0);
    // Every parent is its grant's own record.
    expect(
      await count(
        db,
        `SELECT 1 FROM head_start_programs c JOIN head_start_programs p ON p.id = c.parent_program_id
          WHERE p.source_key <> c.grant_number OR p.delegate_number IS NOT NULL`,
      ),
    ).toBe(0);
    // A school-district recipient: the NYC DOE (grant 02CH010989, 69 delegates, no row of its own) is the
    // CCD's NYC CHANCELLOR'S OFFICE (LEAID 3620580) by the documented alias, not an operator.
    const [nyc] = await db.query(
      `SELECT h.id, h.name, h.recipient_name, h.state, h.status, h.program_types, h.operator_id, h.source_version, d.fed_id
         FROM head_start_programs h LEFT JOIN districts d ON d.id = h.district_id WHERE h.source_key = '02CH010989'`,
    );
    expect(nyc).toMatchObject({
      name: "New York City Department of Education",
      recipient_name: "New York City Department of Education",
      state: "NY",
      status: "active",
      program_types: ["head_start", "early_head_start"],
      operator_id: null,
      fed_id: "3620580",
      source_version: "PIR 2022 (ACF pir_clean_2019_2022; grant-level record from its delegates' rows)",
    });
    expect(await count(db, `SELECT 1 FROM head_start_programs WHERE parent_program_id = $1`, [nyc!.id])).toBe(69);
    expect(await count(db, `SELECT 1 FROM operators WHERE normalized_name = 'new york city department of education'`)).toBe(0);
    // Exact name within the state: the Los Angeles County Office of Education is a CCD LEA of that name.
    const [lacoe] = await db.query(
      `SELECT d.fed_id FROM head_start_programs h JOIN districts d ON d.id = h.district_id WHERE h.source_key = '09CH010682'`,
    );
    expect(lacoe).toEqual({ fed_id: "0691078" });
    // A multi-state grant (Acelero 02CH3129: three NJ delegates, one PA, last reported 2019) takes the majority state.
    const [acelero] = await db.query(
      `SELECT h.state, h.status, h.report_year, o.name AS operator FROM head_start_programs h JOIN operators o ON o.id = h.operator_id
        WHERE h.source_key = '02CH3129'`,
    );
    expect(acelero).toEqual({ state: "NJ", status: "no_open_site", report_year: 2019, operator: "Acelero, Inc." });
  });
});

describe("childcare-ne", () => {
  it("loads every center with mapped license types, chains and chain operators", async () => {
    await loadThrough("childcare-ne");
    const summary = firstRun(NE);
    expect(counts(summary)).toEqual({ read: 1102, inserted: 1102, updated: 0, unchanged: 0, rejected: 0, skipped: 0 });
    const types = await db.query(`SELECT license_type, count(*)::int AS n FROM childcare_centers WHERE state = 'NE' GROUP BY 1 ORDER BY 1`);
    expect(types).toEqual([
      { license_type: "center", n: 727 },
      { license_type: "infant_toddler", n: 1 },
      { license_type: "preschool", n: 97 },
      { license_type: "school_age", n: 277 },
    ]);
    const [center] = await db.query(`SELECT * FROM childcare_centers WHERE source_key = 'NE:CCC9578'`);
    expect(center).toMatchObject({
      name: "EDUCATION EXPLORERS",
      license_number: "CCC9578",
      license_type: "center",
      license_type_raw: "Child Care Center",
      license_status: "active",
      capacity: 20,
      ages_served: "6 WKS To 12 YRS",
      quality_rating: "Step Up to Quality 1",
      accepts_subsidy: true,
      chain: null,
      data_source: "ne_dhhs_childcare_roster_20260216",
    });
    const ymca = await db.query<{ chain: string; operator_id: string }>(
      `SELECT chain, operator_id FROM childcare_centers WHERE licensee_name = 'YMCA OF GREATER OMAHA'`,
    );
    expect(ymca).toHaveLength(7);
    expect(new Set(ymca.map((c) => c.chain))).toEqual(new Set(["ymca-of-greater-omaha"]));
    expect(new Set(ymca.map((c) => c.operator_id)).size).toBe(1);
    const [operator] = await db.query(`SELECT * FROM operators WHERE id = $1`, [ymca[0]!.operator_id]);
    expect(operator).toMatchObject({ name: "YMCA OF GREATER OMAHA", kind: "nonprofit", chain_key: "ymca-of-greater-omaha", state: "NE" });
    // School districts and private persons run several centers too, but are not operators.
    expect(
      await count(
        db,
        `SELECT 1 FROM childcare_centers WHERE licensee_name = 'KEARNEY PUBLIC SCHOOLS' AND district_operated AND district_id IS NOT NULL AND operator_id IS NULL`,
      ),
    ).toBe(11);
    expect(await count(db, `SELECT 1 FROM operators WHERE name IN ('KEARNEY PUBLIC SCHOOLS', 'CASEY MILLER')`)).toBe(0);
  });
});

describe("childcare-in", () => {
  it("loads every center, keeping raw type and status beside the mapped ones", async () => {
    await loadThrough("childcare-in");
    const summary = firstRun(IN);
    expect(counts(summary)).toEqual({ read: 1903, inserted: 1903, updated: 0, unchanged: 0, rejected: 0, skipped: 0 });
    const [ministry] = await db.query(`SELECT * FROM childcare_centers WHERE source_key = 'IN:RM-99250-A'`);
    expect(ministry).toMatchObject({
      name: "St. Joseph Daycare Ministry",
      license_type: "center",
      license_type_raw: "Ministry",
      license_status: "active",
      license_status_raw: "Open",
      capacity: 167,
      capacity_by_age: { Infant: 7, Toddler: 10, "Two's": 5, "Three's": 9, "Three's to Four's": 15 },
      ages_served: "Infant; Toddler; Two's; Three's; Three's to Four's",
      licensee_name: "St. Mary's Catholic Church",
      quality_rating: null,
      accepts_subsidy: false,
      district_operated: false,
    });
    expect(
      await db.query(`SELECT first_licensed::text, license_expires::text FROM childcare_centers WHERE source_key = 'IN:RM-99250-A'`),
    ).toEqual([{ first_licensed: "1995-08-24", license_expires: "2023-03-31" }]);
    expect(
      await count(db, `SELECT 1 FROM childcare_centers WHERE state = 'IN' AND license_type_raw = 'LEA' AND NOT district_operated`),
    ).toBe(0);
    expect(await count(db, `SELECT 1 FROM childcare_centers WHERE state = 'IN' AND license_status = 'active'`)).toBe(1903);
    expect(await count(db, `SELECT 1 FROM childcare_centers WHERE name LIKE '%\\%' OR name LIKE '\\%'`)).toBe(0);
  });
});

describe("irs-bmf", () => {
  it("refuses malformed copies (plain and gzipped)", async () => {
    // After the sources that create operators (Head Start, the rosters): the copies' rows update them.
    await loadThrough("childcare-in");
    await expectMalformedRefused(db, "irs-bmf", IRS[0]!, "EIN");
    await expectMalformedRefused(db, "irs-bmf", IRS[1]!, "EIN");
  });

  it("adds EIN, NTEE and revenue to matched operators and creates child care organizations", async () => {
    await loadThrough("childcare-in");
    const before = await count(db, `SELECT 1 FROM operators`);
    await loadThrough("irs-bmf");
    const ne = firstRun(IRS[0]!);
    const states = firstRun(IRS[1]!);
    expect(ne.read).toBe(14811);
    expect(states.read).toBe(29621);
    for (const s of [ne, states]) {
      expect(s.rejected).toBe(0);
      expect(s.inserted + s.updated + s.unchanged + s.skipped).toBe(s.read);
    }
    expect(await count(db, `SELECT 1 FROM operators`)).toBe(before + ne.inserted + states.inserted);
    const [created] = await db.query(`SELECT * FROM operators WHERE ein = '208424659'`);
    expect(created).toMatchObject({
      name: "ST MARKS PRESCHOOL KIDZONE INC",
      kind: "nonprofit",
      ntee_code: "P33",
      total_revenue: 937891,
      fiscal_year_end: "2024-12-31",
      state: "NE",
      physical_city: "LINCOLN",
      data_source: "irs_eo_bmf_202604",
    });
    // Only child care (P33) and preschools (B21) become new operators.
    expect(await count(db, `SELECT 1 FROM operators WHERE data_source = 'irs_eo_bmf_202604' AND ntee_code !~ '^(P33|B21)'`)).toBe(0);
    const [ymca] = await db.query(`SELECT ein, ntee_code, total_revenue, data_source FROM operators WHERE name = 'YMCA OF GREATER OMAHA'`);
    expect(ymca).toMatchObject({ ein: "470376586", data_source: "ne_dhhs_childcare_roster_20260216" });
    // A tribe keeps its kind and never takes the EIN of a body named after it.
    expect(await db.query(`SELECT kind, ein FROM operators WHERE name = 'Winnebago Tribe of Nebraska'`)).toEqual([
      { kind: "tribe", ein: null },
    ]);
  });
});

// ---------------------------------------------------------------- read back through GraphQL

// The expected names and numbers were looked up in the files themselves (see the comments).
describe("early childhood over the real files", () => {
  beforeAll(() => loadThrough("irs-bmf"));

  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await t.graphql(query, variables);
    expect(res.errors).toBeUndefined();
    return res.data;
  };

  it("Head Start: every program of the PIR extract, active ones by default, Nebraska's grants", async () => {
    const totals = await gql(`{ all: headStartPrograms(filter: { status: all }, limit: 1) { pagination { total } }
      active: headStartPrograms(limit: 1) { pagination { total } }
      ne: headStartPrograms(filter: { state: ["NE"], status: all }, limit: 1) { pagination { total } }
      neActive: headStartPrograms(filter: { state: ["NE"] }, limit: 1) { pagination { total } } }`);
    // 4,733 programs (grants + delegates) + 65 grant-level programs built from their delegates' rows;
    // 2,462 + 35 reported in 2022 (data/README.md); Nebraska rows of the CSV fold into 49 programs, 25 of
    // them in the 2022 report.
    expect(totals.all.pagination.total).toBe(4733 + 65);
    expect(totals.active.pagination.total).toBe(2462 + 35);
    expect(totals.ne.pagination.total).toBe(49);
    expect(totals.neActive.pagination.total).toBe(25);

    // Grant 07CH010901: Blue Valley Community Action's HS (000) and EHS (200) rows, 2019-2022.
    const { headStartPrograms } = await gql(`{ headStartPrograms(filter: { search: "07ch010901" }) {
        data { name grantNumber delegateNumber recipientName state programTypes status sourceVersion operator { name headStartCount } } } }`);
    expect(headStartPrograms.data).toEqual([
      {
        name: "Blue Valley Community Action, Inc",
        grantNumber: "07CH010901",
        delegateNumber: null,
        recipientName: "Blue Valley Community Action, Inc.",
        state: "NE",
        programTypes: ["head_start", "early_head_start"],
        status: "active",
        sourceVersion: "PIR 2022 (ACF pir_clean_2019_2022)",
        // its second open grant is 07HP000344 (EHS, 2021-2022); 07HP0012 (2019 only) has no open site
        operator: { name: "Blue Valley Community Action, Inc.", headStartCount: 2 },
      },
    ]);
  });

  it("childcare: the Nebraska roster, one center by license number, a county", async () => {
    const data = await gql(`{ ne: childcareCenters(filter: { state: ["NE"] }, limit: 1) { pagination { total } }
      douglas: childcareCenters(filter: { county: ["douglas"] }, limit: 1) { pagination { total } }
      one: childcareCenters(filter: { search: "CCC9578" }) { data { name capacity county physicalCity licenseType acceptsSubsidy people { name } } } }`);
    expect(data.ne.pagination.total).toBe(1102); // every row of the roster (homes already removed)
    expect(data.douglas.pagination.total).toBe(393); // rows with County "Douglas"
    expect(data.one.data).toEqual([
      {
        name: "EDUCATION EXPLORERS",
        capacity: 20,
        county: "Washington",
        physicalCity: "Arlington",
        licenseType: "center",
        acceptsSubsidy: true,
        people: [],
      },
    ]);
  });

  it("operators: a Nebraska chain with its IRS figures, found by name or EIN", async () => {
    const query = `query($search: String) { operators(filter: { search: $search, state: ["NE"] }) {
        data { name kind ein nteeCode chainKey centerCount centerSeats headStartCount programStates totalRevenue fiscalYearEnd
               latest990Form contractorMatches { name } } } }`;
    // YMCA OF GREATER OMAHA: 7 roster rows (capacity 1,060 in all); IRS EIN 470376586, TAX_PERIOD 202412,
    // REVENUE_AMT 27991806, NTEE P27Z.
    const ymca = {
      name: "YMCA OF GREATER OMAHA",
      kind: "nonprofit",
      ein: "470376586",
      nteeCode: "P27Z",
      chainKey: "ymca-of-greater-omaha",
      centerCount: 7,
      centerSeats: 1060,
      headStartCount: 0,
      programStates: ["NE"],
      totalRevenue: 27991806,
      fiscalYearEnd: "2024-12-31",
      latest990Form: null,
      contractorMatches: [],
    };
    expect((await gql(query, { search: "ymca of greater omaha" })).operators.data).toEqual([ymca]);
    expect((await gql(query, { search: "47-0376586" })).operators.data).toEqual([ymca]);
    // KIDS CAN COMMUNITY CENTER: 10 roster rows, capacity 1,582; EIN 470376597, REVENUE_AMT 5357572.
    const kidsCan = (await gql(query, { search: "kids can community" })).operators.data;
    expect(kidsCan).toMatchObject([{ ein: "470376597", centerCount: 10, centerSeats: 1582, totalRevenue: 5357572 }]);
  });

  it("operators over the whole catalogue: one statement whatever the page size", async () => {
    const query = `query($limit: Int) { operators(filter: { state: ["NE"] }, orderBy: center_count, orderAscending: false, limit: $limit) {
        data { name centerCount headStartCount contractorMatches { name } } pagination { total } } }`;
    const statements = async (limit: number) => {
      const { statements, result: data } = await measureStatements(t.db, () => gql(query, { limit }));
      return { statements, data };
    };
    const one = await statements(1);
    const many = await statements(200);
    expect(one.statements).toBe(many.statements);
    expect(many.statements).toBe(2); // the API key, the list
    // ELKHORN KIDS CAMPUS LLC holds 14 licenses, the most of any licensee in the roster.
    expect(one.data.operators.data).toEqual([
      { name: "ELKHORN KIDS CAMPUS LLC", centerCount: 14, headStartCount: 0, contractorMatches: [] },
    ]);
    const operators = many.data.operators;
    expect(operators.pagination.total).toBeGreaterThan(50);
    expect(operators.data.every((o: Record_) => o.centerCount + o.headStartCount > 0)).toBe(true);
  });
});

// ---------------------------------------------------------------- second run of every file

describe("ingestDemoFiles", () => {
  it("loads every source's files in dependency order; already-loaded ones are unchanged", async () => {
    const { summaries, log } = await secondRun();
    expect(summaries.map((s) => s.file)).toEqual(Object.values(INGEST_SOURCES).flatMap((s) => s.files));
    // Every source is already loaded here (by runIngest, file by file, in this order).
    for (const s of summaries) expect([s.source, s.file, s.inserted, s.updated]).toEqual([s.source, s.file, 0, 0]);
    // The one district-record refresh at the end changes nothing either.
    expect(log[log.length - 1]).toMatch(/^district record fields from the latest year: 0 districts updated/);
    expect(await count(db, `SELECT 1 FROM schools`)).toBe(ALL_SCHOOLS);
    for (const table of ["districts", "schools", "operators", "head_start_programs", "childcare_centers"]) {
      expect(await count(db, `SELECT 1 FROM ${table} WHERE data_source ILIKE '%demo%'`)).toBe(0);
    }
  });
});

describe("nces-lea", () => {
  it("changes nothing on a second run", async () => {
    const summary = await secondRunOf(LEA);
    expect(counts(summary)).toEqual({ read: 19627, inserted: 0, updated: 0, unchanged: 19627, rejected: 0, skipped: 0 });
    expect(summary.related.district_annual_stats).toEqual({ inserted: 0, updated: 0, unchanged: 19627 });
  });
});

describe("nces-school-search", () => {
  it("changes nothing on a second run", async () => {
    for (const file of SCHOOL_SEARCH) {
      const summary = await secondRunOf(file);
      expect([summary.inserted, summary.updated]).toEqual([0, 0]);
      for (const related of Object.values(summary.related)) expect([related.inserted, related.updated]).toEqual([0, 0]);
    }
  });
});

describe("census-saipe", () => {
  it("changes nothing on a second run, and other sources' columns survive re-runs", async () => {
    const summary = await secondRunOf(SAIPE22);
    expect(counts(summary)).toEqual({ read: 13153, inserted: 0, updated: 0, unchanged: 13112, rejected: 41, skipped: 0 });
    // The district exports ran again after SAIPE's first run (and before its second): SAIPE's columns stay.
    const again = await secondRunOf("data/nces_school_search_4states/california_districts.csv");
    expect(again.related.district_annual_stats).toEqual({ inserted: 0, updated: 0, unchanged: 2112 });
    expect(await count(db, `SELECT 1 FROM district_annual_stats WHERE school_year_start = 2022 AND saipe_version IS NOT NULL`)).toBe(13112);
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

  it("loads each year into that school year's row, idempotently", async () => {
    for (const [yy, read, rejected] of YEARS) {
      await loadThrough("census-saipe");
      const first = firstRun(SAIPE(yy));
      expect([yy, first.read, first.rejected, first.inserted + first.updated]).toEqual([yy, read, rejected, read - rejected]);
      const second = await secondRunOf(SAIPE(yy));
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

describe("census-county", () => {
  it("changes nothing on a second run", async () => {
    const summary = await secondRunOf(COUNTY);
    expect([summary.inserted, summary.updated, summary.unchanged]).toEqual([0, 0, 13080]);
  });
});

describe("urban-f33", () => {
  it("changes nothing on a second run", async () => {
    const summary = await secondRunOf(F33);
    expect([summary.inserted, summary.updated, summary.unchanged]).toEqual([0, 0, 142]);
    expect(summary.related.districts).toEqual({ inserted: 0, updated: 0, unchanged: 142 });
    expect(summary.related["district_annual_stats 2022 enrollment"]).toEqual({ inserted: 0, updated: 0, unchanged: 148 });
  });
});

describe("nces-elsi-lea", () => {
  it("changes nothing on a second run of every file", async () => {
    const { log } = await secondRun();
    for (const [years, read, rejected] of ELSI_FILES) {
      const summary = await secondRunOf(ELSI(years));
      expect([years, counts(summary)]).toEqual([
        years,
        { read, inserted: 0, updated: 0, unchanged: read - rejected, rejected, skipped: 0 },
      ]);
    }
    // ingestDemoFiles sets the district record once, after every file (not per file): no district changed.
    expect(log[log.length - 1]).toMatch(/^district record fields from the latest year: 0 districts updated/);
    // Written before the second run (secondRun): the 2023-24 file left it alone.
    expect(await stats("0100005", 2023)).toMatchObject({ agency_type: "written elsewhere" });
  });
});

describe("urban-ccd-schools", () => {
  it("changes nothing on a second run", async () => {
    expect(counts(await secondRunOf(NATIONAL_SCHOOLS))).toEqual({
      read: NATIONAL.read,
      inserted: 0,
      updated: 0,
      unchanged: NATIONAL.inserted,
      rejected: 0,
      skipped: NATIONAL.skipped,
    });
  });
});

describe("ca-cde-districts", () => {
  it("changes nothing on a second run", async () => {
    expect(counts(await secondRunOf(CA_DIRECTORY))).toEqual({
      read: 1070,
      inserted: 0,
      updated: 0,
      unchanged: 1047,
      rejected: 14,
      skipped: 9,
    });
  });
});

describe("il-isbe-directory", () => {
  it("changes nothing on a second run", async () => {
    expect(counts(await secondRunOf(IL_DIRECTORY))).toEqual({
      read: 4870,
      inserted: 0,
      updated: 0,
      unchanged: 4764,
      rejected: 106,
      skipped: 0,
    });
  });
});

describe("hhs-head-start", () => {
  it("changes nothing on a second run", async () => {
    const summary = await secondRunOf(PIR);
    expect(counts(summary)).toEqual({ read: 10314, inserted: 0, updated: 0, unchanged: 4733, rejected: 1, skipped: 5580 });
    expect(summary.related.operators!.inserted).toBe(0);
    expect(summary.related["head_start_programs (grant-level, from delegates)"]).toEqual({ inserted: 0, updated: 0, unchanged: 65 });
    expect(await count(db, `SELECT 1 FROM head_start_programs WHERE delegate_number IS NOT NULL AND parent_program_id IS NULL`)).toBe(0);
  });
});

describe("childcare-ne", () => {
  it("changes nothing on a second run", async () => {
    const summary = await secondRunOf(NE);
    expect(counts(summary)).toEqual({ read: 1102, inserted: 0, updated: 0, unchanged: 1102, rejected: 0, skipped: 0 });
  });
});

describe("childcare-in", () => {
  it("changes nothing on a second run", async () => {
    const summary = await secondRunOf(IN);
    expect(counts(summary)).toEqual({ read: 1903, inserted: 0, updated: 0, unchanged: 1903, rejected: 0, skipped: 0 });
  });
});

describe("irs-bmf", () => {
  it("changes nothing on a second run", async () => {
    for (const file of IRS) {
      const summary = await secondRunOf(file);
      expect([summary.inserted, summary.updated]).toEqual([0, 0]);
      expect(summary.related.childcare_centers).toBeUndefined();
    }
  });
});

// ---------------------------------------------------------------- after both runs

describe("nces-school-search with a district the LEA directory lacks", () => {
  it("creates the district from the export and links the school to it", async () => {
    // Last: it adds a district and a school the real files do not have.
    await secondRun();
    const dir = tmp.make("edm-new-district-");
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
