/**
 * Nebraska DHHS child care licensing roster (centers, preschools, school-age-only centers; family homes
 * were removed from the file) -> childcare_centers. The license prefix is the reliable type (the parsed
 * License_Type is blank for 111 rows and labels SAOC licenses "Child Care Center"): CCC center,
 * PRE preschool, SAOC school_age; a CCC center whose ages stop under 3 years is infant_toddler.
 * Every license on the roster is current, so all are active.
 */
import type { CsvRow } from "../csv";
import { cleanName } from "../names";
import type { Ingestor } from "../types";
import { RowError, int, required, stateCode, text, usDate, yesNo, zip5 } from "../values";
import { type CenterRow, type LicenseType, runRoster, upperAgeMonths } from "./childcare";

// prettier-ignore
const COLUMNS = [
  "Zip_Code", "County", "Provider_Name", "License_Number", "License_Type", "Owner_Name", "Effective_Date", "Address", "City",
  "State", "Phone", "Capacity", "Ages", "Currently_Accepts_Subsidy", "Step_Up_Quality",
];

const PREFIX_TYPES: Readonly<Record<string, LicenseType>> = { CCC: "center", PRE: "preschool", SAOC: "school_age" };

function parse(row: CsvRow): CenterRow {
  const license = required(row.get("License_Number"), "License_Number").toUpperCase();
  const prefix = /^([A-Z]+)\d+$/.exec(license)?.[1];
  if (!prefix) throw new RowError(`License_Number "${license}" is not a roster license number (letters then digits, e.g. CCC9578)`);
  const ages = text(row.get("Ages"));
  let type: LicenseType = PREFIX_TYPES[prefix] ?? "other";
  const upper = upperAgeMonths(ages);
  if (type === "center" && upper !== null && upper < 36) type = "infant_toddler";
  const quality = text(row.get("Step_Up_Quality"));
  if (quality !== null && !/^[1-5]$/.test(quality)) throw new RowError(`Step_Up_Quality "${quality}" is not a rating 1-5`);
  const owner = text(row.get("Owner_Name"));
  return {
    source_key: `NE:${license}`,
    name: cleanName(required(row.get("Provider_Name"), "Provider_Name")),
    state: stateCode(row.get("State"), "State"),
    license_number: license,
    physical_address: text(row.get("Address")),
    physical_city: text(row.get("City")),
    physical_zip: zip5(row.get("Zip_Code")),
    county: text(row.get("County")),
    phone: text(row.get("Phone")),
    license_type: type,
    license_type_raw: text(row.get("License_Type")),
    license_status: "active",
    license_status_raw: null,
    first_licensed: usDate(row.get("Effective_Date"), "Effective_Date"),
    license_expires: null,
    capacity: int(row.get("Capacity"), "Capacity"),
    capacity_by_age: null,
    ages_served: ages,
    licensee_name: owner ? cleanName(owner) : null,
    quality_rating: quality ? `Step Up to Quality ${quality}` : null,
    accepts_subsidy: yesNo(row.get("Currently_Accepts_Subsidy")),
    district_operated: false,
  };
}

export const childcareNe: Ingestor = {
  description:
    "Nebraska DHHS child care licensing roster (2026-02-16; centers, preschools, school-age centers) -> childcare_centers + chain operators",
  files: ["data/childcare_licensing_ne/ne_dhhs_child_care_roster_2026-02-16_centers.csv"],
  table: "childcare_centers",
  columns: () => COLUMNS,
  run: (ctx) =>
    runRoster(ctx, {
      dataSource: "ne_dhhs_childcare_roster_20260216",
      source: "Nebraska DHHS Child Care Licensing Roster",
      sourceUrl: "https://dhhs.ne.gov/licensure/Documents/ChildCareRoster.pdf",
      sourceVersion: "roster downloaded 2026-02-16",
      parse,
    }),
};
