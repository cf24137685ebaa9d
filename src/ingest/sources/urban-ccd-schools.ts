/**
 * The national school list: NCES CCD school directory 2019-20 as served by the Urban Institute Education Data
 * Portal (101,688 schools of every state, DC, territories and BIE; ids, names, city, state, grade span only).
 * It fills the states the richer School/District Search exports do not cover: a state whose districts already
 * hold schools of a richer source keeps them, and this file's rows of that state (by the LEAID's state FIPS
 * prefix) are skipped, so CA, FL, MI and WA come from the 2023-24 exports. Its own rows carry fed_data_year 2019, `source` and
 * `data_source` naming the file, and nulls for what it lacks (address, phone, type, locale, counts).
 */
import type { CsvRow } from "../csv";
import { loadDistrictIds } from "../lookups";
import type { Ingestor, IngestContext } from "../types";
import { type Row, SeenKeys, Upserter, type UpsertSpec } from "../upsert";
import { RowError, bucketsOfSpan, digits, grade, required, span, stateCode, text } from "../values";
import { batchRows } from "./common";

export const NATIONAL_SCHOOLS_DATA_SOURCE = "urban_edp_ccd_school_directory_2019";
const DIRECTORY_YEAR = 2019;
const SOURCE = "NCES CCD school directory 2019-20 via Urban Institute Education Data Portal";
const API_URL = "https://educationdata.urban.org/api/v1/schools/ccd/directory/2019/";

// prettier-ignore
const COLUMNS = [
  "ncessch", "leaid", "school_name", "lea_name", "city_location", "state_location", "lowest_grade_offered", "highest_grade_offered",
];

/** Urban's grade labels -> CCD grade codes; "Not applicable" and empty have none. */
const GRADE_LABELS: Readonly<Record<string, string | null>> = {
  "Pre-K": "PK",
  Kindergarten: "KG",
  Ungraded: "UG",
  "Adult education": "AE",
  "Not applicable": null,
  "": null,
};

function gradeOf(raw: string, column: string): string | null {
  const label = raw.trim();
  if (Object.prototype.hasOwnProperty.call(GRADE_LABELS, label)) return GRADE_LABELS[label];
  if (!/^\d{1,2}$/.test(label))
    throw new RowError(`${column} "${raw}" is not a grade (Pre-K, Kindergarten, 1-13, Ungraded, Adult education)`);
  return grade(label, column);
}

// prettier-ignore
const WRITTEN = [
  "district_id", "district_fed_id", "name", "state", "grade_levels", "grade_low", "grade_high", "grade_buckets",
  "physical_city", "physical_state", "fed_data_year", "source", "source_url", "data_source",
];
const SCHOOLS: UpsertSpec = {
  table: "schools",
  key: ["fed_id"],
  insert: ["fed_id", ...WRITTEN],
  update: WRITTEN,
  touch: ["last_updated_at"],
};

function parse(row: CsvRow, seen: SeenKeys, districtIds: ReadonlyMap<string, string>): Row {
  const ncessch = digits(row.get("ncessch"), "ncessch", 12);
  const leaid = digits(row.get("leaid"), "leaid", 7);
  if (!ncessch.startsWith(leaid)) throw new RowError(`ncessch ${ncessch} does not start with its leaid ${leaid}`);
  const duplicate = seen.check(ncessch, row.line, "ncessch");
  if (duplicate) throw new RowError(duplicate);
  const state = stateCode(row.get("state_location"), "state_location");
  const low = gradeOf(row.get("lowest_grade_offered"), "lowest_grade_offered");
  const high = gradeOf(row.get("highest_grade_offered"), "highest_grade_offered");
  return {
    fed_id: ncessch,
    district_id: districtIds.get(leaid) ?? null,
    district_fed_id: leaid,
    name: required(row.get("school_name"), "school_name"),
    state,
    grade_levels: span(low, high),
    grade_low: low,
    grade_high: high,
    grade_buckets: bucketsOfSpan(low, high),
    physical_city: text(row.get("city_location")),
    physical_state: state,
    fed_data_year: DIRECTORY_YEAR,
    source: SOURCE,
    source_url: `${API_URL}?ncessch=${ncessch}`,
    data_source: NATIONAL_SCHOOLS_DATA_SOURCE,
  };
}

async function run(ctx: IngestContext): Promise<void> {
  const upserter = await Upserter.create(ctx.q, ["schools"]);
  const districtIds = await loadDistrictIds(ctx.q);
  // Hand-written: bulk ingestion on the file's transaction `q` (bench/startup.ts). A state is covered when a richer
  // source holds schools of its districts (the district's state, from the LEAID's FIPS prefix: a Michigan virtual
  // school with an Illinois address does not make Illinois covered).
  const covered = await ctx.q.query<{ fips: string }>(
    `SELECT DISTINCT left(district_fed_id, 2) AS fips FROM schools WHERE data_source <> $1 AND district_fed_id IS NOT NULL`,
    [NATIONAL_SCHOOLS_DATA_SOURCE],
  );
  const richer = new Set(covered.map((r) => r.fips));
  const seen = new SeenKeys();
  let unlinked = 0;
  await batchRows(
    ctx,
    (row) => {
      const school = parse(row, seen, districtIds);
      if (richer.has((school.district_fed_id as string).slice(0, 2))) {
        ctx.tally.skipped += 1;
        return null;
      }
      if (school.district_id === null) unlinked += 1;
      return school;
    },
    async (batch) => ctx.tally.main(await upserter.write(SCHOOLS, batch)),
  );
  if (richer.size)
    ctx.log(`${ctx.csv.name}: state FIPS codes kept from a richer school source (rows skipped): ${[...richer].sort().join(", ")}`);
  if (unlinked)
    ctx.log(`${ctx.csv.name}: ${unlinked} school(s) whose district is not in the catalogue keep district_fed_id but no district_id`);
}

export const urbanCcdSchools: Ingestor = {
  description:
    "National school list, NCES CCD 2019-20 via the Urban Institute Education Data Portal: schools of every state " +
    "the School/District Search exports do not cover (ids, name, district, city, grade span). Load after nces-lea and nces-school-search.",
  files: ["data/urban_edp_school_directory_2019/school_directory_2019-20_subset.csv.gz"],
  table: "schools",
  columns: () => COLUMNS,
  run,
};
