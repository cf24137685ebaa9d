/**
 * Illinois State Board of Education, Directory of Educational Entities (Excel 97 .xls, sheet `1 Public Dist & Sch`)
 * -> contacts: the Administrator of each district (RecType `Dist`, `State Auth Dist`: Superintendent), school
 * (`Sch`, `Dist Auth  Chtr`, `State Auth Chtr`: Principal) or other entity (`Other`: Administrator). The entity
 * is the catalogue's district (7-digit NCES ID = districts.fed_id) or school (12-digit = schools.fed_id); a row
 * without a valid NCES ID or whose entity the catalogue lacks is rejected. Shared rules: state-directory.ts.
 */
import type { CsvRow } from "../csv";
import { openSheet } from "../sheet";
import type { Ingestor } from "../types";
import { RowError, text } from "../values";
import { type DirectoryEntry, type DirectoryLookups, runDirectory } from "./state-directory";

export const IL_SHEET = "1 Public Dist & Sch";

// prettier-ignore
const COLUMNS = ["CountyName", "RecType", "FacilityName", "Administrator", "City", "Telephone", "NCES ID", "LastUpdated"];

const SOURCE_URL = "https://www.isbe.net/pages/data-analysis-directories.aspx";

function titleOf(recType: string): string {
  if (recType === "Dist" || recType === "State Auth Dist") return "Superintendent";
  if (recType === "Sch" || /Chtr$/.test(recType)) return "Principal";
  return "Administrator";
}

function parse(row: CsvRow, lookups: DirectoryLookups): DirectoryEntry | null {
  const recType = row.get("RecType").replace(/\s+/g, " ").trim();
  const original = row.get("Administrator").trim();
  if (original === "") return null;
  const nces = row.get("NCES ID").trim();
  const facility = row.get("FacilityName").trim();
  const facts: Record<string, string> = { directory_entity: facility, record_type: recType };
  let kind: "district" | "school";
  let districtId: string;
  let schoolId: string | null = null;
  if (/^\d{7}$/.test(nces)) {
    kind = "district";
    const id = lookups.districtByFedId.get(nces);
    if (!id) throw new RowError(`no district with NCES id ${nces} (${facility}) in the catalogue`);
    districtId = id;
  } else if (/^\d{12}$/.test(nces)) {
    kind = "school";
    const school = lookups.schoolByFedId.get(nces);
    if (!school) throw new RowError(`no school with NCES id ${nces} (${facility}) in the catalogue`);
    if (!school.district_id) throw new RowError(`school ${nces} (${facility}) has no district in the catalogue`);
    schoolId = school.id;
    districtId = school.district_id;
  } else {
    throw new RowError(`NCES ID "${nces}" is neither a district (7 digits) nor a school (12 digits) id (${facility})`);
  }
  return {
    kind,
    code: nces,
    district_id: districtId,
    school_id: schoolId,
    title: titleOf(recType),
    original,
    phone: text(row.get("Telephone")),
    state: "IL",
    facts,
  };
}

export const ilIsbeDirectory: Ingestor = {
  description:
    "Illinois State Board of Education Directory of Educational Entities (2026-03-17), public districts and schools: superintendents and principals -> contacts",
  files: ["data/state_directories_ca_il/il_isbe_directory_of_educational_entities_2026-03-17.xls"],
  table: "contacts",
  columns: () => COLUMNS,
  open: (filePath, name, options) => openSheet(filePath, name, IL_SHEET, options),
  run: (ctx) => runDirectory(ctx, "IL", { dataSource: "il_isbe_directory_20260317", sourceUrl: SOURCE_URL, parse }),
};
