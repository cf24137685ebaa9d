/**
 * Census SAIPE school-district estimates, any income year (ussd12 ... ussd23) -> that year's
 * district_annual_stats row: total population, population 5-17, related children 5-17 in poverty and
 * their share. The files carry no year column: the year is the file's name (ussdYY = income year 20YY,
 * which describes the school year starting in 20YY). LEAID = state_fips + district_id; geographic
 * districts only, so a row whose LEAID is not in districts is rejected (see data/README.md).
 */
import path from "node:path";
import { BadRequestError } from "../../graphql/errors";
import type { CsvRow } from "../csv";
import { loadDistrictIds } from "../lookups";
import type { Ingestor } from "../types";
import { SeenKeys, Upserter } from "../upsert";
import { RowError, digits, int, percent, stateCode } from "../values";
import { batchRows, districtStatsSpec } from "./common";

/** Release of each income year's school-district estimates (Census publishes year Y in December Y+1). */
const versionOf = (year: number) =>
  year === 2022 ? "SAIPE 2022 school district estimates (released December 2023)" : `SAIPE ${year} school district estimates`;

/** The income year of a ussdYY file (2000 + YY); a file named otherwise is refused before anything is read. */
export function saipeYear(file: string): number {
  const match = /^ussd(\d{2})(?![0-9])/i.exec(path.basename(file));
  if (!match)
    throw new BadRequestError(
      `${file}: a SAIPE school-district file is named ussdYY (e.g. ussd22.csv, ussd19.csv.gz): the year comes from the name`,
    );
  return 2000 + Number(match[1]);
}
const SOURCE_URL = "https://www.census.gov/programs-surveys/saipe.html";

const COLUMNS = [
  "state_postal",
  "state_fips",
  "district_id",
  "name",
  "est_total_population",
  "est_population_5_17",
  "est_children_5_17_in_poverty_related",
];

const STATS = districtStatsSpec([
  "total_population",
  "school_age_population",
  "school_age_children_in_poverty",
  "school_age_poverty_pct",
  "saipe_version",
]);

function parse(row: CsvRow, seen: SeenKeys, ids: Map<string, string>, year: number) {
  stateCode(row.get("state_postal"), "state_postal");
  const leaid = digits(row.get("state_fips"), "state_fips", 2) + digits(row.get("district_id"), "district_id", 5);
  const duplicate = seen.check(leaid, row.line, "LEAID");
  if (duplicate) throw new RowError(duplicate);
  const districtId = ids.get(leaid);
  if (!districtId)
    throw new RowError(`no district with LEAID ${leaid} (${row.get("name").trim()}) in districts; it is not in the CCD LEA directory`);
  const population = int(row.get("est_total_population"), "est_total_population");
  const schoolAge = int(row.get("est_population_5_17"), "est_population_5_17");
  const poverty = int(row.get("est_children_5_17_in_poverty_related"), "est_children_5_17_in_poverty_related");
  return {
    district_id: districtId,
    school_year_start: year,
    total_population: population,
    school_age_population: schoolAge,
    school_age_children_in_poverty: poverty,
    school_age_poverty_pct: percent(poverty, schoolAge),
    saipe_version: versionOf(year),
    source_urls: { saipe: SOURCE_URL },
  };
}

export const censusSaipe: Ingestor = {
  description:
    "Census SAIPE school-district poverty estimates (any ussdYY file, 2012-2023) -> that year's district_annual_stats (population, age 5-17, poverty)",
  // Every income year 2012-2023, oldest first (ussd22 is the only uncompressed copy).
  files: [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23].map((y) => `data/census_saipe_sd_poverty/ussd${y}.csv${y === 22 ? "" : ".gz"}`),
  table: "district_annual_stats",
  columns: (_header, file) => {
    saipeYear(file);
    return COLUMNS;
  },
  async run(ctx) {
    const upserter = await Upserter.create(ctx.q, ["district_annual_stats"]);
    const ids = await loadDistrictIds(ctx.q);
    const seen = new SeenKeys();
    const year = saipeYear(ctx.csv.name);
    await batchRows(
      ctx,
      (row) => parse(row, seen, ids, year),
      async (batch) => ctx.tally.main(await upserter.write(STATS, batch)),
    );
  },
};
