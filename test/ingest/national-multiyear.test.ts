/**
 * National multi-year files (issue 15) in the other load order and broken: on one database holding the
 * CCD LEA directory, malformed NCES ELSI copies (renamed header, truncated row, a data row after the
 * footnotes) and malformed Census SAIPE copies are refused with the database untouched, and the
 * School/District Search exports keep their 2022 values when ELSI loads first. Every real file loaded
 * in dependency order (each ELSI and SAIPE year, read-backs, second runs, a metric_query change window):
 * full-load.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { BadRequestError } from "../../src/graphql/errors";
import { type IngestSummary, runIngest } from "../../src/ingest";
import { createTestDb, type TestDb } from "../support/db";
import { counts, dataFile, expectMalformedRefused, fingerprint } from "./helpers";
import { temporaryDirs } from "../support/temp-dirs";

const tmp = temporaryDirs();

jest.setTimeout(600_000);

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await runIngest(db, "nces-lea", dataFile("data/nces_ccd_lea_directory/ccd_lea_029_2324_w_0a_050824.csv.gz"));
});
afterAll(async () => {
  await db?.close();
});

const ELSI = (years: string) => `data/nces_elsi_lea_multiyear/elsi_lea_${years}.csv.gz`;
const SAIPE = (yy: string) => `data/census_saipe_sd_poverty/ussd${yy}.csv${yy === "22" ? "" : ".gz"}`;

async function stats(leaid: string, year: number): Promise<Record<string, unknown>> {
  const [row] = await db.query<Record<string, unknown>>(
    `SELECT s.* FROM district_annual_stats s JOIN districts d ON d.id = s.district_id WHERE d.fed_id = $1 AND s.school_year_start = $2`,
    [leaid, year],
  );
  return row ?? {};
}

/**
 * The first COPY_LINES lines of an ELSI export, decompressed once per file. Every copy below is refused at or
 * before its line 1,600 (after more than one batch was written), so the rest of the file (some 18,000 rows,
 * gunzipped and gzipped again for each of the seven copies) would prove nothing more.
 */
const COPY_LINES = 2000;
const heads = new Map<string, string[]>();
function head(relative: string): string[] {
  let lines = heads.get(relative);
  if (!lines) {
    lines = zlib
      .gunzipSync(fs.readFileSync(dataFile(relative)))
      .toString("utf8")
      .split("\n")
      .slice(0, COPY_LINES);
    heads.set(relative, lines);
  }
  return lines;
}

/** A gzipped copy of the head of an ELSI export (head above) with `edit` applied to its decompressed lines. */
function editedCopy(relative: string, name: string, edit: (lines: string[]) => string[]): string {
  const lines = [...head(relative)];
  const dir = tmp.make("edm-elsi-");
  const file = path.join(dir, `${name}.csv.gz`);
  fs.writeFileSync(file, zlib.gzipSync(Buffer.from(edit(lines).join("\n"))));
  return file;
}

async function refused(source: string, file: string, pattern: RegExp): Promise<void> {
  const error = await runIngest(db, source, file).then(
    (summary: IngestSummary) => new Error(`accepted: ${JSON.stringify(summary)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BadRequestError);
  expect((error as Error).message).toContain(path.basename(file));
  expect((error as Error).message).toMatch(pattern);
}

describe("nces-elsi-lea", () => {
  it("the fingerprint changes on any committed write: an update to the same value, a delete and a re-insert", async () => {
    const before = await fingerprint(db);
    await db.query(`UPDATE districts SET name = name WHERE fed_id = '0100005'`);
    const updated = await fingerprint(db);
    expect(updated.districts).not.toEqual(before.districts);
    expect({ ...updated, districts: before.districts }).toEqual(before);
    const [row] = await db.query<Record<string, unknown>>(
      `DELETE FROM district_annual_stats WHERE id = (SELECT id FROM district_annual_stats ORDER BY id LIMIT 1) RETURNING *`,
    );
    expect((await fingerprint(db)).district_annual_stats.n).toBe(before.district_annual_stats.n - 1);
    const columns = Object.keys(row!)
      .map((c) => `"${c}"`)
      .join(", ");
    await db.query(
      `INSERT INTO district_annual_stats (${columns}) SELECT ${columns} FROM jsonb_populate_record(NULL::district_annual_stats, $1::jsonb)`,
      [JSON.stringify(row)],
    );
    const back = await fingerprint(db);
    expect(back.district_annual_stats.n).toBe(before.district_annual_stats.n);
    expect(back.district_annual_stats.h).not.toBe(before.district_annual_stats.h);
  });

  it("refuses malformed copies (renamed header, truncated row, data after the footnotes, no year) and writes nothing", async () => {
    const before = await fingerprint(db);
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
    const bLines = head(b);
    const cut = bLines.findIndex((line, i) => i >= 1500 && !line.includes('"'));
    expect(cut).toBeGreaterThanOrEqual(1500); // found in the head
    const truncatedB = editedCopy(b, "elsi-b-truncated", (l) => [
      ...l.slice(0, cut),
      l[cut]!.split(",").slice(0, 2).join(",") + "\r",
      ...l.slice(cut + 1),
    ]);
    await refused("nces-elsi-lea", truncatedB, new RegExp(`line ${cut + 1}: 2 field\\(s\\) where the header has 25`));
    const noTable = editedCopy(a, "elsi-no-header", (l) => l.slice(7));
    await refused("nces-elsi-lea", noTable, /no header row in the first 11 rows/);
    expect(await fingerprint(db)).toEqual(before);
  });

  it("the School/District Search exports win for 2022 whichever loads first; ELSI keeps its other years", async () => {
    const michigan = dataFile("data/nces_school_search_4states/michigan_districts.csv");
    // ELSI first (2021-22 and 2022-23), then the export: the export overwrites its columns.
    for (const years of ["2021_2022", "2022_2023"]) await runIngest(db, "nces-elsi-lea", dataFile(ELSI(years)));
    // WAY Michigan 2022-23: ‡ in ELSI (below standards).
    expect(await stats("2601074", 2022)).toMatchObject({ total_enrollment: null, enrollment_status: "below_standards", teachers_fte: 1.9 });
    await runIngest(db, "nces-school-search", michigan);
    const search = {
      total_enrollment: null,
      enrollment_status: "not_applicable",
      teachers_fte: 1.9,
      fed_membership_version: "CCD 2022-23 via NCES School/District Search export",
    };
    expect(await stats("2601074", 2022)).toMatchObject(search);
    // ELSI again: the export's rows are kept (nothing changes anywhere).
    const again = await runIngest(db, "nces-elsi-lea", dataFile(ELSI("2022_2023")));
    expect(counts(again)).toEqual({ read: 19517, inserted: 0, updated: 0, unchanged: 19517, rejected: 0, skipped: 0 });
    expect(await stats("2601074", 2022)).toMatchObject(search);
    // Atlanta Community Schools: ELSI ‡ teachers, export † -> null either way; enrollment 267 from both.
    expect(await stats("2603570", 2022)).toMatchObject({ total_enrollment: 267, teachers_fte: null });
    // ...and the export's status of that value (†), not ELSI's (‡).
    expect((await stats("2603570", 2022)).value_statuses).toMatchObject({ teachers_fte: "not_applicable" });
    expect(await stats("2601074", 2021)).toMatchObject({ fed_membership_version: "CCD 2021-22 via NCES ELSI export" });
  });
});

describe("census-saipe, every year", () => {
  it("refuses a file whose name carries no year, and malformed copies, writing nothing", async () => {
    const before = await fingerprint(db);
    const dir = tmp.make("edm-saipe-");
    const noYear = path.join(dir, "saipe-poverty.csv.gz");
    fs.copyFileSync(dataFile(SAIPE("19")), noYear);
    await refused("census-saipe", noYear, /named ussdYY/);
    expect(await fingerprint(db)).toEqual(before);
    await expectMalformedRefused(db, "census-saipe", SAIPE("19"), "district_id");
  });
});
