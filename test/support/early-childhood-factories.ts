/** Test rows for operators, their Form 990 returns, Head Start programs and childcare centers (plain SQL). */
import type { Db } from "../../src/db/client";
import { insert } from "./factories";

let counter = 0;
const next = () => (counter += 1);

export async function insertOperator(db: Db, values: Record<string, unknown> & { name: string }): Promise<string> {
  const n = next();
  return insert(db, "operators", {
    slug: `test-operator-${n}`,
    normalized_name: values.name.toLowerCase(),
    kind: "nonprofit",
    data_source: "test",
    ...values,
  });
}

/** One Form 990 return and its contractors ([name, amount, services?, line_key?]). */
export async function insertFiling(
  db: Db,
  operatorId: string,
  values: Record<string, unknown> & { tax_period: string },
  contractors: [string, number, string?, string?][] = [],
): Promise<string> {
  const n = next();
  const id = await insert(db, "operator_filings", {
    operator_id: operatorId,
    ein: "000000000",
    form: "990",
    object_id: `2023${String(n).padStart(14, "0")}`,
    data_source: "test",
    ...values,
  });
  for (const [name, amount, services, lineKey] of contractors) {
    await insert(db, "contractor_payments", {
      filing_id: id,
      name,
      normalized_name: name.toLowerCase(),
      amount,
      services: services ?? null,
      line_key: lineKey ?? null,
    });
  }
  return id;
}

export async function insertHeadStart(db: Db, values: Record<string, unknown> & { name: string; state: string }): Promise<string> {
  const n = next();
  return insert(db, "head_start_programs", {
    slug: `test-head-start-${n}`,
    source_key: `TEST-${n}`,
    grant_number: `99CH${String(n).padStart(6, "0")}`,
    program_types: ["head_start"],
    data_source: "test",
    ...values,
  });
}

export async function insertCenter(db: Db, values: Record<string, unknown> & { name: string; state: string }): Promise<string> {
  const n = next();
  return insert(db, "childcare_centers", {
    slug: `test-center-${n}`,
    source_key: `${values.state}:T${n}`,
    license_number: `T${n}`,
    source: `${String(values.state).toLowerCase()}_test_roster`,
    license_type: "center",
    license_status: "active",
    data_source: "test",
    ...values,
  });
}
