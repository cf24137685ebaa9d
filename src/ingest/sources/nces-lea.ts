/**
 * NCES CCD LEA directory (file 029, 2023-24 v0a) -> districts (the directory columns) and the 2023
 * district_annual_stats row (operational_school_count, fed_directory_version).
 */
import type { CsvRow } from "../csv";
import { loadDistrictIds } from "../lookups";
import type { Ingestor } from "../types";
import { type Row, SeenKeys, Upserter, type UpsertSpec } from "../upsert";
import {
  type GradeBucket,
  RowError,
  bucketOf,
  digits,
  grade,
  int,
  joinAddress,
  orderBuckets,
  required,
  span,
  stateCode,
  text,
  zip5,
} from "../values";
import { batchRows, districtStatsSpec } from "./common";

const DATA_SOURCE = "nces_ccd_lea_2324";
const SCHOOL_YEAR_START = 2023;
const DIRECTORY_VERSION = "CCD LEA directory 2023-24 preliminary v0a (ccd_lea_029_2324_w_0a_050824)";
const SOURCE_URL = "https://nces.ed.gov/ccd/files.asp";

const GRADE_FLAGS: readonly [string, GradeBucket][] = [
  ["G_PK_OFFERED", "pre_k"],
  ...["KG", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"].map((g): [string, GradeBucket] => [
    `G_${g}_OFFERED`,
    bucketOf(g === "KG" ? "KG" : g.padStart(2, "0"))!,
  ]),
];

// prettier-ignore
const COLUMNS = [
  "LEAID", "LEA_NAME", "ST", "FIPST", "ST_LEAID",
  "MSTREET1", "MSTREET2", "MSTREET3", "MCITY", "MSTATE", "MZIP",
  "LSTREET1", "LSTREET2", "LSTREET3", "LCITY", "LSTATE", "LZIP",
  "PHONE", "WEBSITE", "SY_STATUS_TEXT", "LEA_TYPE", "LEA_TYPE_TEXT", "CHARTER_LEA_TEXT",
  ...GRADE_FLAGS.map(([column]) => column), "GSLO", "GSHI", "OPERATIONAL_SCHOOLS",
];

// prettier-ignore
const DIRECTORY_COLUMNS = [
  "name", "state", "state_fips", "website_url", "school_count", "grade_span", "grade_low", "grade_high", "grade_levels",
  "physical_address", "physical_city", "physical_state", "physical_zip",
  "mailing_address", "mailing_city", "mailing_state", "mailing_zip",
  "phone", "state_district_id", "district_type", "district_type_code", "charter_lea", "operational_status", "fed_data_year", "data_source",
];

const DISTRICTS: UpsertSpec = {
  table: "districts",
  key: ["fed_id"],
  insert: ["fed_id", ...DIRECTORY_COLUMNS],
  update: DIRECTORY_COLUMNS,
  touch: ["last_updated_at"],
  returning: ["id", "fed_id"],
};

const STATS = districtStatsSpec(["operational_school_count", "fed_directory_version"]);

interface Parsed {
  district: Row;
  operationalSchools: number | null;
}

function parse(row: CsvRow, seen: SeenKeys): Parsed {
  const leaid = digits(row.get("LEAID"), "LEAID", 7);
  const fips = digits(row.get("FIPST"), "FIPST", 2);
  if (!leaid.startsWith(fips)) throw new RowError(`LEAID ${leaid} does not start with FIPST ${fips}`);
  const duplicate = seen.check(leaid, row.line, "LEAID");
  if (duplicate) throw new RowError(duplicate);
  const low = grade(row.get("GSLO"), "GSLO");
  const high = grade(row.get("GSHI"), "GSHI");
  const offered = GRADE_FLAGS.filter(([column]) => row.get(column).trim() === "Yes").map(([, bucket]) => bucket);
  const operationalSchools = int(row.get("OPERATIONAL_SCHOOLS"), "OPERATIONAL_SCHOOLS");
  return {
    operationalSchools,
    district: {
      fed_id: leaid,
      name: required(row.get("LEA_NAME"), "LEA_NAME"),
      state: stateCode(row.get("ST"), "ST"),
      state_fips: fips,
      website_url: text(row.get("WEBSITE")),
      school_count: operationalSchools,
      grade_span: span(low, high),
      grade_low: low,
      grade_high: high,
      grade_levels: orderBuckets(offered),
      physical_address: joinAddress(row.get("LSTREET1"), row.get("LSTREET2"), row.get("LSTREET3")),
      physical_city: text(row.get("LCITY")),
      physical_state: text(row.get("LSTATE")),
      physical_zip: zip5(row.get("LZIP")),
      mailing_address: joinAddress(row.get("MSTREET1"), row.get("MSTREET2"), row.get("MSTREET3")),
      mailing_city: text(row.get("MCITY")),
      mailing_state: text(row.get("MSTATE")),
      mailing_zip: zip5(row.get("MZIP")),
      phone: text(row.get("PHONE")),
      state_district_id: text(row.get("ST_LEAID")),
      district_type: text(row.get("LEA_TYPE_TEXT")),
      district_type_code: text(row.get("LEA_TYPE")),
      charter_lea: text(row.get("CHARTER_LEA_TEXT")),
      operational_status: text(row.get("SY_STATUS_TEXT")),
      fed_data_year: SCHOOL_YEAR_START,
      data_source: DATA_SOURCE,
    },
  };
}

export const ncesLea: Ingestor = {
  description: "NCES CCD LEA directory 2023-24 (file 029): every US school district -> districts + 2023 district_annual_stats",
  files: ["data/nces_ccd_lea_directory/ccd_lea_029_2324_w_0a_050824.csv.gz"],
  table: "districts",
  columns: () => COLUMNS,
  async run(ctx) {
    const upserter = await Upserter.create(ctx.q, ["districts", "district_annual_stats"]);
    const ids = await loadDistrictIds(ctx.q);
    const seen = new SeenKeys();
    await batchRows(
      ctx,
      (row) => parse(row, seen),
      async (batch) => {
        const result = await upserter.write<{ id: string; fed_id: string }>(
          DISTRICTS,
          batch.map((b) => b.district),
        );
        ctx.tally.main(result);
        for (const r of result.rows) ids.set(r.fed_id, r.id);
        const stats = batch.map((b) => ({
          district_id: ids.get(b.district.fed_id as string)!,
          school_year_start: SCHOOL_YEAR_START,
          operational_school_count: b.operationalSchools,
          fed_directory_version: DIRECTORY_VERSION,
          source_urls: { directory: SOURCE_URL },
        }));
        ctx.tally.add("district_annual_stats", await upserter.write(STATS, stats));
      },
    );
  },
};
