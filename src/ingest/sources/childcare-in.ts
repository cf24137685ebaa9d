/**
 * Indiana FSSA provider profiles (2022-03-31; licensed centers, registered ministries, license-exempt
 * centers, school-district (LEA) programs; homes were removed from the file) -> childcare_centers.
 * Types: Center Licensed and Ministry (church-run, registered) -> center, or infant_toddler when every
 * age group is under three; Center Exempt -> school_age when flagged School_Age, else other; LEA ->
 * school_age / preschool by the same signals, else other. ProviderStatus "Open..." -> active.
 * "NA" marks empty values in this file.
 */
import type { CsvRow } from "../csv";
import { cleanName } from "../names";
import type { Ingestor } from "../types";
import { RowError, int, required, stateCode, text, usDate, yesNo, zip5 } from "../values";
import { type CenterRow, type LicenseType, runRoster } from "./childcare";

// prettier-ignore
const COLUMNS = [
  "Data Date", "FacilityNumber", "FacilityName", "ApplicantName", "FacilityTypeDescription", "CurrentLevel", "Address", "City",
  "StateCode", "ZipCode", "CountyName", "Phone", "InitialDateApprovedToOperate", "EndDate", "Capacity", "CCDFEligibility",
  "ProviderStatus", "School_Age", "Ages",
];

const na = (raw: string): string | null => {
  const value = text(raw);
  return value === null || value === "NA" ? null : value;
};

/** "Infant (7); Toddler (10); Two's (5)" -> { Infant: 7, Toddler: 10, "Two's": 5 }; null if not in that form. */
export function capacityByAge(ages: string | null): Record<string, number> | null {
  if (!ages) return null;
  const groups: Record<string, number> = {};
  for (const part of ages.split(";")) {
    const match = /^\s*(.+?)\s*\((\d+)\)\s*$/.exec(part);
    if (!match) return null;
    groups[match[1]!] = (groups[match[1]!] ?? 0) + Number(match[2]);
  }
  return Object.keys(groups).length ? groups : null;
}

const OLDER_THAN_TODDLER = /three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|school/i;
const YOUNGER_THAN_PRESCHOOL = /infant|toddler|two|weeks|months|twelve|thirteen|ten|school|seven|eight|nine|eleven/i;

function licenseType(facilityType: string, schoolAge: boolean, groups: string[]): LicenseType {
  const infantToddler = groups.length > 0 && groups.every((g) => !OLDER_THAN_TODDLER.test(g));
  const preschoolOnly = groups.length > 0 && groups.every((g) => !YOUNGER_THAN_PRESCHOOL.test(g));
  switch (facilityType) {
    case "Center Licensed":
    case "Ministry":
      return infantToddler ? "infant_toddler" : "center";
    case "Center Exempt":
      return schoolAge ? "school_age" : "other";
    case "LEA":
      return schoolAge ? "school_age" : preschoolOnly ? "preschool" : "other";
    default:
      return "other";
  }
}

function parse(row: CsvRow): CenterRow {
  const facility = required(row.get("FacilityNumber"), "FacilityNumber").toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9-]*$/.test(facility)) throw new RowError(`FacilityNumber "${facility}" is not a facility number`);
  const facilityType = required(row.get("FacilityTypeDescription"), "FacilityTypeDescription");
  const status = required(row.get("ProviderStatus"), "ProviderStatus");
  const ages = na(row.get("Ages"));
  const byAge = capacityByAge(ages);
  const level = na(row.get("CurrentLevel"));
  if (level !== null && !/^[0-4]$/.test(level)) throw new RowError(`CurrentLevel "${level}" is not a Paths to QUALITY level 0-4`);
  const applicant = na(row.get("ApplicantName"));
  return {
    source_key: `IN:${facility}`,
    name: cleanName(required(row.get("FacilityName"), "FacilityName")),
    state: stateCode(row.get("StateCode"), "StateCode"),
    license_number: facility,
    physical_address: na(row.get("Address")),
    physical_city: na(row.get("City")),
    physical_zip: zip5(row.get("ZipCode")),
    county: na(row.get("CountyName")),
    phone: na(row.get("Phone")),
    license_type: licenseType(facilityType, yesNo(row.get("School_Age")) === true, Object.keys(byAge ?? {})),
    license_type_raw: facilityType,
    license_status: /^open/i.test(status) ? "active" : "inactive",
    license_status_raw: status,
    // Two-digit years: approvals are on or before the 2022 data date, license ends after it.
    first_licensed: usDate(row.get("InitialDateApprovedToOperate"), "InitialDateApprovedToOperate", 2022),
    license_expires: usDate(row.get("EndDate"), "EndDate", 2069),
    capacity: int(row.get("Capacity"), "Capacity", { codes: { NA: "missing" } }),
    capacity_by_age: byAge,
    ages_served: byAge ? Object.keys(byAge).join("; ") : ages,
    licensee_name: applicant ? cleanName(applicant) : null,
    quality_rating: level && level !== "0" ? `Paths to QUALITY Level ${level}` : null,
    accepts_subsidy: yesNo(row.get("CCDFEligibility")),
    district_operated: facilityType === "LEA",
  };
}

export const childcareIn: Ingestor = {
  description:
    "Indiana FSSA child care provider profiles (2022-03-31; centers, ministries, exempt and LEA programs) -> childcare_centers + chain operators",
  files: ["data/childcare_licensing_in/in_fssa_provider_profiles_2022-03-30_nonhome.csv"],
  table: "childcare_centers",
  columns: () => COLUMNS,
  run: (ctx) =>
    runRoster(ctx, {
      dataSource: "in_fssa_provider_profiles_20220331",
      source: "Indiana FSSA Child Care Provider Profiles",
      sourceUrl: "https://github.com/RobWiederstein/building_blocks_data",
      sourceVersion: "provider profiles, data date 2022-03-31",
      parse,
    }),
};
