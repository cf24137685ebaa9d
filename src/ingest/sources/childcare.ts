/**
 * What the state licensing rosters share: the childcare_centers upsert, school-district detection, and
 * chains. A licensee holding two or more licenses in the file is a chain: its centers get the chain key
 * (the licensee's normalized name, the same in every state) and it becomes an operator unless it is a
 * school district or a private person. Chains are only known once the whole file is read, so chain and
 * operator_id are set by one UPDATE at the end (outside the row upsert, which would otherwise flip them).
 */
import type { CsvRow } from "../csv";
import { DistrictMatcher, OperatorRegistry, type OperatorCandidate } from "../lookups";
import { chainKey, kindFromName, looksLikePerson, looksLikeSchoolDistrict, slug } from "../names";
import type { IngestContext } from "../types";
import { type Row, Upserter, type UpsertSpec, SeenKeys } from "../upsert";
import { RowError } from "../values";
import { batchRows } from "./common";

export type LicenseType = "center" | "preschool" | "school_age" | "infant_toddler" | "other";
export type LicenseStatus = "active" | "inactive";

/** One parsed roster row; the shared code adds slug, district links, chain and operator. */
export interface CenterRow {
  source_key: string;
  name: string;
  state: string;
  license_number: string;
  physical_address: string | null;
  physical_city: string | null;
  physical_zip: string | null;
  county: string | null;
  phone: string | null;
  license_type: LicenseType;
  license_type_raw: string | null;
  license_status: LicenseStatus;
  license_status_raw: string | null;
  first_licensed: string | null;
  license_expires: string | null;
  capacity: number | null;
  capacity_by_age: Record<string, number> | null;
  ages_served: string | null;
  licensee_name: string | null;
  quality_rating: string | null;
  accepts_subsidy: boolean | null;
  /** The roster itself says the program is run by a school district (Indiana's LEA type). */
  district_operated: boolean;
}

export interface RosterSource {
  dataSource: string;
  source: string;
  sourceUrl: string;
  sourceVersion: string;
  parse(row: CsvRow): CenterRow;
}

// prettier-ignore
const WRITTEN = [
  "source_key", "name", "state", "license_number", "source", "physical_address", "physical_city", "physical_zip", "county", "phone",
  "license_type", "license_type_raw", "license_status", "license_status_raw", "first_licensed", "license_expires", "capacity",
  "capacity_by_age", "ages_served", "licensee_name", "quality_rating", "accepts_subsidy", "district_operated", "district_id",
  "source_url", "source_version", "data_source",
];
const CENTERS: UpsertSpec = {
  table: "childcare_centers",
  key: ["source_key"],
  insert: ["slug", ...WRITTEN],
  update: WRITTEN.filter((c) => c !== "source_key"),
  touch: ["updated_at"],
  returning: ["source_key"],
};

interface Licensee {
  name: string;
  state: string;
  centers: number;
  district: boolean;
}

export async function runRoster(ctx: IngestContext, roster: RosterSource): Promise<void> {
  const upserter = await Upserter.create(ctx.q, ["childcare_centers", "operators"]);
  const districts = await DistrictMatcher.load(ctx.q);
  const seen = new SeenKeys();
  const licensees = new Map<string, Licensee>();
  const licenseeOf = new Map<string, { key: string | null; state: string }>();
  const written = new Set<string>();

  await batchRows(
    ctx,
    (row) => {
      const center = roster.parse(row);
      const duplicate = seen.check(center.source_key, row.line, "license");
      if (duplicate) throw new RowError(duplicate);
      // "Michigan City Area Schools - Safe Harbor": the district is the part before " - ".
      const names = center.licensee_name ? [center.licensee_name, center.licensee_name.split(" - ")[0]!.trim()] : [];
      const districtId = names.map((n) => districts.match(n, center.state)).find((id) => id) ?? null;
      const districtOperated = center.district_operated || districtId !== null || names.some(looksLikeSchoolDistrict);
      const key = center.licensee_name ? chainKey(center.licensee_name) || null : null;
      if (key) {
        const licensee = licensees.get(key) ?? { name: center.licensee_name!, state: center.state, centers: 0, district: false };
        licensee.centers += 1;
        licensee.district ||= districtOperated;
        licensees.set(key, licensee);
      }
      licenseeOf.set(center.source_key, { key, state: center.state });
      const out: Row = {
        ...center,
        slug: slug(center.name, center.state, `childcare:${center.source_key}`),
        district_operated: districtOperated,
        district_id: districtId,
        source: roster.source,
        source_url: roster.sourceUrl,
        source_version: roster.sourceVersion,
        data_source: roster.dataSource,
      };
      return out;
    },
    async (batch) => {
      const result = await upserter.write<{ source_key: string }>(CENTERS, batch);
      ctx.tally.main(result);
      for (const r of result.rows) written.add(r.source_key);
    },
  );

  // Chains and their operators, now that every license of the file has been counted.
  const registry = await OperatorRegistry.load(ctx.q);
  const candidates: OperatorCandidate[] = [];
  for (const [key, licensee] of licensees) {
    if (licensee.centers < 2 || licensee.district || looksLikePerson(licensee.name)) continue;
    candidates.push({
      name: licensee.name,
      state: licensee.state,
      kind: kindFromName(licensee.name, "other"),
      chainKey: key,
      dataSource: roster.dataSource,
    });
  }
  const ensured = await registry.ensure(ctx.q, upserter, candidates);
  ctx.tally.add("operators", ensured.counts);
  // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
  const chainSets = await ctx.q.query<{ id: string }>(
    `UPDATE operators o SET chain_key = x.chain_key, updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, chain_key text)
      WHERE o.id = x.id AND o.chain_key IS NULL
      RETURNING o.id`,
    [JSON.stringify(candidates.map((c) => ({ id: registry.find(c.name, c.state)?.id, chain_key: c.chainKey })).filter((c) => c.id))],
  );
  if (chainSets.length) ctx.tally.add("operators", { inserted: 0, updated: chainSets.length, unchanged: -chainSets.length });

  const links = [...licenseeOf].map(([sourceKey, { key, state }]) => {
    const licensee = key ? licensees.get(key) : undefined;
    const chain = licensee && licensee.centers >= 2 ? key : null;
    // Any licensee already known as an operator (a chain here, a Head Start recipient, an IRS charity) is linked.
    const operatorId = licensee && !licensee.district ? (registry.find(licensee.name, state)?.id ?? null) : null;
    return { source_key: sourceKey, chain, operator_id: operatorId };
  });
  // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
  const changed = await ctx.q.query<{ source_key: string }>(
    `UPDATE childcare_centers c SET chain = x.chain, operator_id = x.operator_id, updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS x(source_key text, chain text, operator_id uuid)
      WHERE c.source_key = x.source_key AND (c.chain, c.operator_id) IS DISTINCT FROM (x.chain, x.operator_id)
      RETURNING c.source_key`,
    [JSON.stringify(links)],
  );
  // A center whose only change is its chain or operator counts as updated, not unchanged.
  const relinked = changed.filter((r) => !written.has(r.source_key)).length;
  ctx.tally.updated += relinked;
  ctx.tally.unchanged -= relinked;
  const chains = [...licensees.values()].filter((l) => l.centers >= 2).length;
  ctx.log(
    `${ctx.csv.name}: ${licensees.size} licensees, ${chains} with several centers (chains), ${links.filter((l) => l.operator_id).length} centers linked to an operator`,
  );
}

/** Upper end of an age range like "6 WKS To 13 YRS", in months; null when absent. */
export function upperAgeMonths(ages: string | null): number | null {
  const match = ages ? /to\s+(\d+)\s*(yrs?|years?|mos?|months?|wks?|weeks?)\b/i.exec(ages) : null;
  if (!match) return null;
  const n = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  return unit.startsWith("y") ? n * 12 : unit.startsWith("m") ? n : n / 4.33;
}
