/**
 * California Department of Education, School Directory "Public Districts" export (tab-delimited, UTF-8) ->
 * contacts: the administrator of each district (Superintendent) or county office of education (County
 * Superintendent); other agency types (ROC/P, State Board of Education charters, State Special Schools) name
 * an Administrator. The district is the catalogue's district whose state_district_id (NCES ST_LEAID) is
 * `CA-` + CD Code; a CD Code the catalogue lacks rejects the row. A row naming nobody (`No Data`) is skipped.
 * Shared rules: state-directory.ts.
 */
import type { CsvRow } from "../csv";
import { openCsv } from "../csv";
import type { Ingestor } from "../types";
import { RowError, digits } from "../values";
import { type DirectoryEntry, type DirectoryLookups, runDirectory } from "./state-directory";

// prettier-ignore
const COLUMNS = ["CD Code", "County", "District", "Phone", "Ext", "AdmFName", "AdmLName", "DOCType", "StatusType", "LastUpDate"];

const SOURCE_URL = "https://www.cde.ca.gov/ds/si/ds/pubschls.asp";

/** The file's missing value. */
const value = (raw: string): string | null => {
  const v = raw.trim();
  return v === "" || v === "No Data" ? null : v;
};

function titleOf(docType: string): string {
  if (/^County Office of Education/i.test(docType)) return "County Superintendent";
  if (/School District$/i.test(docType)) return "Superintendent";
  return "Administrator";
}

function parse(row: CsvRow, lookups: DirectoryLookups): DirectoryEntry | null {
  const cdCode = digits(row.get("CD Code"), "CD Code", 7);
  const first = value(row.get("AdmFName"));
  const last = value(row.get("AdmLName"));
  if (first === null && last === null) return null;
  const districtId = lookups.districtByStateId.get(`CA-${cdCode}`);
  if (!districtId) throw new RowError(`no district with state id CA-${cdCode} (${row.get("District").trim()}) in the catalogue`);
  const phone = value(row.get("Phone"));
  const ext = value(row.get("Ext"));
  const docType = row.get("DOCType").trim();
  const facts: Record<string, string> = { directory_entity: row.get("District").trim(), entity_type: docType };
  const updated = value(row.get("LastUpDate"));
  if (updated) facts.record_last_updated = updated;
  return {
    kind: "district",
    code: cdCode,
    district_id: districtId,
    school_id: null,
    title: titleOf(docType),
    original: [first, last].filter(Boolean).join(" "),
    phone: phone && ext ? `${phone} ext. ${ext}` : phone,
    state: "CA",
    facts,
  };
}

export const caCdeDistricts: Ingestor = {
  description:
    "California Department of Education school directory, public districts (2026-03): superintendents and county superintendents -> contacts",
  files: ["data/state_directories_ca_il/ca_cde_public_districts_2026-03.txt"],
  table: "contacts",
  columns: () => COLUMNS,
  open: (filePath, name, options) => openCsv(filePath, name, { ...options, delimiter: "\t" }),
  run: (ctx) => runDirectory(ctx, "CA", { dataSource: "ca_cde_public_districts_202603", sourceUrl: SOURCE_URL, parse }),
};
