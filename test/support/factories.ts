/** Test rows with unique keys, inserted with plain SQL (the same columns the ingestors write). */
import type { Db } from "../../src/db/client";

let counter = 0;
const next = () => (counter += 1);

export async function insertDistrict(db: Db, values: Record<string, unknown> = {}): Promise<string> {
  const n = next();
  const row: Record<string, unknown> = {
    fed_id: `99${String(n).padStart(5, "0")}`,
    name: `Test District ${n}`,
    state: "NE",
    data_source: "test",
    ...values,
  };
  return insert(db, "districts", row);
}

export async function insertDistrictStats(db: Db, districtId: string, year: number, values: Record<string, unknown> = {}): Promise<string> {
  return insert(db, "district_annual_stats", { district_id: districtId, school_year_start: year, ...values });
}

export async function insert(db: Db, table: string, row: Record<string, unknown>): Promise<string> {
  const columns = Object.keys(row);
  const values = columns.map((c) => {
    const v = row[c];
    return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date) ? JSON.stringify(v) : v;
  });
  // RETURNING *: tables keyed by a natural key (e.g. the breakdowns) have no id column; they return "".
  const [inserted] = await db.query<{ id?: string }>(
    `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")}) RETURNING *`,
    values,
  );
  return inserted.id ?? "";
}
