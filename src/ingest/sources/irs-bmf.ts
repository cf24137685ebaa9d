/**
 * IRS Exempt Organizations Business Master File -> operators: ein, ntee_code, total_revenue (latest
 * return), fiscal_year_end and kind (church when the foundation code says church, else nonprofit).
 *
 * Each organization is matched, in order, to an operator with its EIN, or to an operator without an
 * EIN whose normalized name (NAME or SORT_NAME) and state agree (never a tribe or a government: a BMF
 * entry carrying a tribe's name is a related body such as its health foundation). Unmatched ones become
 * operators only when they are child care: NTEE P33 (child day care) or B21 (preschools). Everything
 * else (schools, scholarships, PTAs, unrelated charities) is counted as skipped. A child care
 * organization added here is linked to the licensed centers it holds (same normalized name and state).
 */
import type { CsvRow } from "../csv";
import { type KnownOperator, OperatorRegistry } from "../lookups";
import { normalizeName, slug } from "../names";
import type { Ingestor, IngestContext } from "../types";
import { type Row, SeenKeys, Upserter, type UpsertSpec } from "../upsert";
import { RowError, digits, measure, required, stateCode, text, zip5 } from "../values";
import { batchRows } from "./common";

const DATA_SOURCE = "irs_eo_bmf_202604";
const CHILD_CARE_NTEE = /^(P33|B21)/;

const COLUMNS = ["EIN", "NAME", "STREET", "CITY", "STATE", "ZIP", "FOUNDATION", "TAX_PERIOD", "REVENUE_AMT", "NTEE_CD", "SORT_NAME"];

const IRS_FIELDS = ["ein", "ntee_code", "total_revenue", "fiscal_year_end", "kind"];
/** Operators the IRS file created: it owns their name and address too. */
const IRS_OWNED = [
  "name",
  "normalized_name",
  "physical_address",
  "physical_city",
  "state",
  "physical_zip",
  "data_source",
  ...IRS_FIELDS.filter((c) => c !== "ein"),
];
const CREATED: UpsertSpec = {
  table: "operators",
  key: ["ein"],
  insert: ["slug", "ein", ...IRS_OWNED],
  update: IRS_OWNED,
  touch: ["updated_at"],
  returning: ["id", "ein"],
};

interface Organization {
  line: number;
  ein: string;
  name: string;
  sortName: string | null;
  state: string;
  fields: Row;
  created: Row;
}

function parse(row: CsvRow, seen: SeenKeys): Organization {
  const ein = digits(row.get("EIN"), "EIN", 9);
  const duplicate = seen.check(ein, row.line, "EIN");
  if (duplicate) throw new RowError(duplicate);
  const name = required(row.get("NAME"), "NAME");
  const state = stateCode(row.get("STATE"), "STATE");
  const period = text(row.get("TAX_PERIOD"));
  let fiscalYearEnd: string | null = null;
  if (period !== null) {
    const match = /^(\d{4})(\d{2})$/.exec(period);
    const month = Number(match?.[2]);
    if (!match || month < 1 || month > 12) throw new RowError(`TAX_PERIOD "${period}" is not YYYYMM`);
    // Last day of the period's month: the fiscal year end of the latest return.
    fiscalYearEnd = new Date(Date.UTC(Number(match[1]), month, 0)).toISOString().slice(0, 10);
  }
  const revenue = measure(row.get("REVENUE_AMT"), "REVENUE_AMT", { allowNegative: true }).value;
  const fields: Row = {
    ein,
    ntee_code: text(row.get("NTEE_CD")),
    total_revenue: revenue,
    fiscal_year_end: fiscalYearEnd,
    kind: row.get("FOUNDATION").trim() === "10" ? "church" : "nonprofit",
  };
  return {
    line: row.line,
    ein,
    name,
    sortName: text(row.get("SORT_NAME")),
    state,
    fields,
    created: {
      ...fields,
      slug: slug(name, state, `ein:${ein}`),
      name,
      normalized_name: normalizeName(name),
      physical_address: text(row.get("STREET")),
      physical_city: text(row.get("CITY")),
      state,
      physical_zip: zip5(row.get("ZIP")),
      data_source: DATA_SOURCE,
    },
  };
}

async function run(ctx: IngestContext): Promise<void> {
  const upserter = await Upserter.create(ctx.q, ["operators"]);
  const registry = await OperatorRegistry.load(ctx.q);
  const unlinked = await unlinkedLicensees(ctx);
  const seen = new SeenKeys();
  let byName = 0;
  await batchRows(
    ctx,
    (row) => parse(row, seen),
    async (batch) => {
      const matched: Row[] = [];
      const created: Row[] = [];
      for (const org of batch) {
        let operator: KnownOperator | undefined = registry.findByEin(org.ein);
        if (!operator) {
          const candidate = registry.find(org.name, org.state) ?? (org.sortName ? registry.find(org.sortName, org.state) : undefined);
          // Tribes and governments are not exempt organizations: a BMF entry with their name is a related body.
          if (candidate && !candidate.ein && candidate.kind !== "tribe" && candidate.kind !== "government") {
            registry.claimEin(candidate, org.ein);
            operator = candidate;
            byName += 1;
          }
        }
        if (operator && !operator.dataSource.startsWith("irs_")) matched.push({ ...org.fields, id: operator.id });
        else if (operator || CHILD_CARE_NTEE.test(String(org.fields.ntee_code ?? ""))) created.push(org.created);
        else ctx.tally.skipped += 1;
      }
      if (matched.length) {
        const set = IRS_FIELDS.map((c) => `${c} = x.${c}`).join(", ");
        // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
        const changed = await ctx.q.query(
          `UPDATE operators o SET ${set}, updated_at = now()
             FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, ein text, ntee_code text, total_revenue double precision, fiscal_year_end text, kind text)
            WHERE o.id = x.id AND (${IRS_FIELDS.map((c) => `o.${c}`).join(", ")}) IS DISTINCT FROM (${IRS_FIELDS.map((c) => `x.${c}`).join(", ")})
            RETURNING o.id`,
          [JSON.stringify(matched)],
        );
        ctx.tally.main({ inserted: 0, updated: changed.length, unchanged: matched.length - changed.length });
      }
      const result = await upserter.write<{ id: string; ein: string }>(CREATED, created);
      ctx.tally.main(result);
      const createdByEin = new Map(created.map((c) => [c.ein as string, c]));
      const links: { id: string; operator_id: string }[] = [];
      for (const r of result.rows) {
        const row = createdByEin.get(r.ein)!;
        registry.remember(row.normalized_name as string, row.state as string, {
          id: r.id,
          ein: r.ein,
          chainKey: null,
          dataSource: DATA_SOURCE,
          kind: row.kind as string,
        });
        for (const centerId of unlinked.get(OperatorRegistry.key(row.normalized_name as string, row.state as string)) ?? []) {
          links.push({ id: centerId, operator_id: r.id });
        }
      }
      if (links.length) {
        // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
        const linked = await ctx.q.query(
          `UPDATE childcare_centers c SET operator_id = x.operator_id, updated_at = now()
             FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, operator_id uuid)
            WHERE c.id = x.id AND c.operator_id IS NULL
            RETURNING c.id`,
          [JSON.stringify(links)],
        );
        ctx.tally.add("childcare_centers", { inserted: 0, updated: linked.length, unchanged: 0 });
      }
    },
  );
  ctx.log(`${ctx.csv.name}: ${byName} organization(s) matched to an operator by name; ${ctx.tally.skipped} outside child care left out`);
}

/**
 * Centers whose licensee is no operator yet, by normalized licensee name + state: a child care charity
 * this file adds as an operator is linked to the centers it holds licenses for.
 */
async function unlinkedLicensees(ctx: IngestContext): Promise<Map<string, string[]>> {
  // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
  const rows = await ctx.q.query<{ id: string; licensee_name: string; state: string }>(
    `SELECT id, licensee_name, state FROM childcare_centers
      WHERE operator_id IS NULL AND licensee_name IS NOT NULL AND district_operated IS NOT TRUE`,
  );
  const index = new Map<string, string[]>();
  for (const row of rows) {
    const key = OperatorRegistry.key(normalizeName(row.licensee_name), row.state);
    index.set(key, [...(index.get(key) ?? []), row.id]);
  }
  return index;
}

export const irsBmf: Ingestor = {
  description:
    "IRS EO Business Master File (Apr 2026; NE complete + B*/P33 in 25 states) -> operators: EIN, NTEE, revenue, fiscal year end for matched operators; " +
    "new operators only for child day care (P33) and preschools (B21)",
  files: ["data/irs_eo_bmf/eo_ne.csv", "data/irs_eo_bmf/eo_bmf_education_childcare_25states.csv.gz"],
  table: "operators",
  columns: () => COLUMNS,
  run,
};
