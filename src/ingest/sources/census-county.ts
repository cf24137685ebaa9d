/**
 * Census school district <-> county list (2021) -> districts.county / county_fips. A district spanning
 * several counties appears once per county; all of them are kept, in the file's order, joined by "; "
 * (names) and ";" (5-digit FIPS), because the list gives no share to pick a main county by.
 * The grouping holds one small entry per district (not the file) until the file is read.
 */
import { loadDistrictIds } from "../lookups";
import type { Ingestor } from "../types";
import { Upserter, type UpsertSpec, BATCH_SIZE } from "../upsert";
import { RowError, digits, required, stateCode } from "../values";

const COLUMNS = ["state_postal", "state_fips", "district_id", "school_district_name", "county_name", "county_fips"];

const DISTRICTS: UpsertSpec = {
  table: "districts",
  key: ["fed_id"],
  // Insert never happens (only districts already present are sent); name/state/data_source satisfy NOT NULL.
  insert: ["fed_id", "name", "state", "data_source", "county", "county_fips"],
  update: ["county", "county_fips"],
  touch: ["last_updated_at"],
};

interface Group {
  fedId: string;
  name: string;
  state: string;
  counties: string[];
  fips: string[];
}

export const censusCounty: Ingestor = {
  description: "Census 2021 school district-county list -> districts.county and districts.county_fips (every county a district overlaps)",
  files: ["data/census_sd_county_list/sdlist-21.csv"],
  table: "districts",
  columns: () => COLUMNS,
  async run(ctx) {
    const upserter = await Upserter.create(ctx.q, ["districts"]);
    const ids = await loadDistrictIds(ctx.q);
    const groups = new Map<string, Group>();
    for await (const row of ctx.csv.rows()) {
      try {
        const state = stateCode(row.get("state_postal"), "state_postal");
        const stateFips = digits(row.get("state_fips"), "state_fips", 2);
        const leaid = stateFips + digits(row.get("district_id"), "district_id", 5);
        const county = required(row.get("county_name"), "county_name");
        const countyFips = stateFips + digits(row.get("county_fips"), "county_fips", 3);
        if (!ids.has(leaid))
          throw new RowError(
            `no district with LEAID ${leaid} (${row.get("school_district_name").trim()}) in districts; it is not in the CCD LEA directory`,
          );
        const group = groups.get(leaid);
        if (!group) {
          groups.set(leaid, { fedId: leaid, name: row.get("school_district_name").trim(), state, counties: [county], fips: [countyFips] });
        } else if (group.fips.includes(countyFips)) {
          throw new RowError(`county ${countyFips} is listed twice for district ${leaid}`);
        } else {
          group.counties.push(county);
          group.fips.push(countyFips);
          ctx.tally.skipped += 1; // folded into the district's first row
        }
      } catch (error) {
        if (!(error instanceof RowError)) throw error;
        ctx.tally.reject(row.line, error.message);
      }
    }
    const all = [...groups.values()];
    for (let start = 0; start < all.length; start += BATCH_SIZE) {
      const rows = all.slice(start, start + BATCH_SIZE).map((g) => ({
        fed_id: g.fedId,
        name: g.name,
        state: g.state,
        data_source: "census_sdlist_2021",
        county: g.counties.join("; "),
        county_fips: g.fips.join(";"),
      }));
      ctx.tally.main(await upserter.write(DISTRICTS, rows));
    }
    const multi = all.filter((g) => g.counties.length > 1).length;
    ctx.log(`${ctx.csv.name}: ${all.length} districts, ${multi} of them in more than one county`);
  },
};
