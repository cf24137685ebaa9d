/**
 * Head Start Program Information Report (PIR, ACF's clean extract 2019/2021/2022) -> head_start_programs
 * and operators for grant recipients.
 *
 * One program per grant as its recipient runs it (PIR program numbers 000 = Head Start and 200 = Early
 * Head Start of the same grant fold into one record with both program types) and one per delegate
 * agency (any other program number). Each program keeps its latest PIR year; a program the file's
 * latest year no longer reports is `no_open_site` (its grant ended or was re-competed). The fold keeps
 * one small entry per program, never the file.
 *
 * A grant whose PIR rows are all delegates' (the recipient files no program of its own: 625 of 993
 * delegates, 65 grants) still gets its grant-level program, built from the grant number and the
 * delegates' grantee_name (see `grantPrograms`), so every delegate has a parent. These records are
 * counted as the related table `head_start_programs (grant-level, from delegates)`: no PIR row is theirs.
 *
 * Recipients that are school districts link to the district (district_id) instead of an operator
 * (DistrictMatcher: exact normalized name within the state, a few documented aliases).
 * The PIR extract has no funded enrollment, sites or addresses: funded_slots and site counts stay null.
 */
import type { CsvRow } from "../csv";
import { DistrictMatcher, OperatorRegistry, type OperatorCandidate } from "../lookups";
import { kindFromName, looksLikeSchoolDistrict, slug } from "../names";
import type { Ingestor, IngestContext } from "../types";
import { type Row, Upserter, type UpsertSpec, BATCH_SIZE } from "../upsert";
import { RowError, int, required, stateCode } from "../values";

const DATA_SOURCE = "hhs_ohs_pir_2019_2022";
const SOURCE_URL = "https://github.com/HHS/ACF-pir-data";

const COLUMNS = [
  "year",
  "region",
  "service_state",
  "grantee_name",
  "grant_number",
  "grant_type",
  "program_name",
  "program_number",
  "program_type",
];

const PROGRAM_TYPES: Readonly<Record<string, string>> = {
  HS: "head_start",
  EHS: "early_head_start",
  "AIAN HS": "aian_head_start",
  "AIAN EHS": "aian_early_head_start",
  "Migrant HS": "migrant_seasonal",
  "Migrant EHS": "migrant_seasonal",
};
const TYPE_ORDER = ["head_start", "early_head_start", "migrant_seasonal", "aian_head_start", "aian_early_head_start"];

const LEAD_PROGRAM_NUMBERS = new Set(["000", "200"]);

// prettier-ignore
const WRITTEN = [
  "source_key", "name", "grant_number", "delegate_number", "parent_program_id", "recipient_name", "operator_id", "state",
  "district_id", "program_types", "status", "source_url", "source_version", "report_year", "data_source",
];
const PROGRAMS: UpsertSpec = {
  table: "head_start_programs",
  key: ["source_key"],
  insert: ["slug", ...WRITTEN],
  // The slug stays as first minted so links keep working when a program is renamed.
  update: WRITTEN.filter((c) => c !== "source_key"),
  touch: ["updated_at"],
};

interface Program {
  key: string;
  grantNumber: string;
  delegateNumber: string | null;
  year: number;
  line: number;
  name: string;
  nameFromLeadHs: boolean;
  recipient: string;
  state: string | null;
  types: Set<string>;
  /** A grant-level program built from its delegates' rows (no recipient row in the file). */
  fromDelegates?: boolean;
}

/**
 * The grant-level program of each grant that has delegates but no recipient (000/200) row in any year:
 * name and recipient = the grantee_name of the grant's latest delegate rows (first in file order on a
 * tie), year = their latest year, program types = the union of that year's delegate types, state = the
 * state most of that year's delegates serve (alphabetically first on a tie; Acelero's multi-state grants).
 */
function grantPrograms(programs: Map<string, Program>): Program[] {
  const byGrant = new Map<string, Program[]>();
  for (const p of programs.values()) {
    if (!p.delegateNumber || programs.has(p.grantNumber)) continue;
    const list = byGrant.get(p.grantNumber) ?? [];
    list.push(p);
    byGrant.set(p.grantNumber, list);
  }
  const out: Program[] = [];
  for (const [grantNumber, delegates] of byGrant) {
    const year = Math.max(...delegates.map((d) => d.year));
    const latest = delegates.filter((d) => d.year === year).sort((a, b) => a.line - b.line);
    const first = latest[0]!;
    const states = new Map<string, number>();
    for (const d of latest) if (d.state) states.set(d.state, (states.get(d.state) ?? 0) + 1);
    const state = [...states].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
    out.push({
      key: grantNumber,
      grantNumber,
      delegateNumber: null,
      year,
      line: first.line,
      name: first.recipient,
      nameFromLeadHs: false,
      recipient: first.recipient,
      state,
      types: new Set(latest.flatMap((d) => [...d.types])),
      fromDelegates: true,
    });
  }
  return out;
}

interface PirRow {
  year: number;
  grantNumber: string;
  programNumber: string;
  type: string;
  recipient: string;
  name: string;
  state: string | null;
}

function parse(row: CsvRow): PirRow {
  const year = int(row.get("year"), "year");
  if (year === null || year < 1965 || year > 2100) throw new RowError(`year "${row.get("year")}" is not a PIR year`);
  const grantNumber = row.get("grant_number").trim().toUpperCase();
  if (!/^\d{2}[A-Z]{2}\d{4,6}$/.test(grantNumber))
    throw new RowError(`grant_number "${row.get("grant_number")}" is not a Head Start grant number (e.g. 01CH010234)`);
  const programNumber = row.get("program_number").trim();
  if (!/^\d{3}$/.test(programNumber)) throw new RowError(`program_number "${programNumber}" is not three digits`);
  const type = PROGRAM_TYPES[row.get("program_type").trim()];
  if (!type) throw new RowError(`program_type "${row.get("program_type")}" is not one of ${Object.keys(PROGRAM_TYPES).join(", ")}`);
  const rawState = row.get("service_state").trim();
  return {
    year,
    grantNumber,
    programNumber,
    type,
    recipient: required(row.get("grantee_name"), "grantee_name"),
    name: row.get("program_name").trim() || row.get("grantee_name").trim(),
    state: rawState ? stateCode(rawState, "service_state") : null,
  };
}

/** Folds one PIR row into its program: a later year replaces, the same year adds its program type. */
function fold(programs: Map<string, Program>, r: PirRow, line: number): void {
  const lead = LEAD_PROGRAM_NUMBERS.has(r.programNumber);
  const key = lead ? r.grantNumber : `${r.grantNumber}-${r.programNumber}`;
  const current = programs.get(key);
  const isLeadHs = r.programNumber === "000";
  if (!current || r.year > current.year) {
    programs.set(key, {
      key,
      grantNumber: r.grantNumber,
      delegateNumber: lead ? null : r.programNumber,
      year: r.year,
      line,
      name: r.name,
      nameFromLeadHs: isLeadHs,
      recipient: r.recipient,
      // A year without a state keeps the one an earlier year gave.
      state: r.state ?? current?.state ?? null,
      types: new Set([r.type]),
    });
    return;
  }
  if (r.year < current.year) {
    current.state ??= r.state;
    return;
  }
  current.types.add(r.type);
  current.state ??= r.state;
  if (isLeadHs && !current.nameFromLeadHs) {
    current.name = r.name;
    current.nameFromLeadHs = true;
  }
}

async function run(ctx: IngestContext): Promise<void> {
  const programs = new Map<string, Program>();
  let valid = 0;
  for await (const row of ctx.csv.rows()) {
    try {
      fold(programs, parse(row), row.line);
      valid += 1;
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      ctx.tally.reject(row.line, error.message);
    }
  }
  const latestYear = Math.max(0, ...[...programs.values()].map((p) => p.year));
  const usable: (Program & { state: string })[] = [];
  for (const program of programs.values()) {
    if (program.state) usable.push(program as Program & { state: string });
    else {
      ctx.tally.reject(program.line, `program ${program.key}: service_state is empty in every year`);
      valid -= 1;
    }
  }
  // After the rejects: a grant-level program needs a delegate with a state, and it reads no row of its own.
  const builtLeads = grantPrograms(new Map(usable.map((p) => [p.key, p]))) as (Program & { state: string })[];
  ctx.tally.skipped += valid - usable.length;

  // School-district recipients become district links; every other recipient of a grant is an operator.
  const districts = await DistrictMatcher.load(ctx.q);
  const registry = await OperatorRegistry.load(ctx.q);
  const upserter = await Upserter.create(ctx.q, ["head_start_programs", "operators"]);
  const districtOf = new Map<string, string | null>();
  const candidates: OperatorCandidate[] = [];
  for (const p of [...usable, ...builtLeads]) {
    const districtName = p.delegateNumber ? p.name : p.recipient;
    const districtId = districts.match(districtName, p.state);
    districtOf.set(p.key, districtId);
    if (!p.delegateNumber && !districtId && !looksLikeSchoolDistrict(p.recipient)) {
      candidates.push({ name: p.recipient, state: p.state, kind: kindFromName(p.recipient, "nonprofit"), dataSource: DATA_SOURCE });
    }
  }
  ctx.tally.add("operators", (await registry.ensure(ctx.q, upserter, candidates)).counts);
  const operatorOf = (p: Program & { state: string }) => {
    if (p.delegateNumber || districtOf.get(p.key)) return null;
    return registry.find(p.recipient, p.state)?.id ?? null;
  };

  const toRow = (p: Program & { state: string }, parentId: string | null): Row => ({
    slug: slug(p.name, p.state, `head-start:${p.key}`),
    source_key: p.key,
    name: p.name,
    grant_number: p.grantNumber,
    delegate_number: p.delegateNumber,
    parent_program_id: parentId,
    recipient_name: p.recipient,
    operator_id: operatorOf(p),
    state: p.state,
    district_id: districtOf.get(p.key) ?? null,
    program_types: TYPE_ORDER.filter((t) => p.types.has(t)),
    status: p.year === latestYear ? "active" : "no_open_site",
    source_url: SOURCE_URL,
    source_version: p.fromDelegates
      ? `PIR ${p.year} (ACF pir_clean_2019_2022; grant-level record from its delegates' rows)`
      : `PIR ${p.year} (ACF pir_clean_2019_2022)`,
    report_year: p.year,
    data_source: DATA_SOURCE,
  });

  const leads = usable.filter((p) => !p.delegateNumber);
  for (let start = 0; start < leads.length; start += BATCH_SIZE) {
    ctx.tally.main(
      await upserter.write(
        PROGRAMS,
        leads.slice(start, start + BATCH_SIZE).map((p) => toRow(p, null)),
      ),
    );
  }
  for (let start = 0; start < builtLeads.length; start += BATCH_SIZE) {
    ctx.tally.add(
      "head_start_programs (grant-level, from delegates)",
      await upserter.write(
        PROGRAMS,
        builtLeads.slice(start, start + BATCH_SIZE).map((p) => toRow(p, null)),
      ),
    );
  }
  // Delegates point at their grant's program; one query finds the ids of the leads just written.
  const delegates = usable.filter((p) => p.delegateNumber);
  // Hand-written: bulk ingestion on the file's transaction `q` (data/README.md load times, bench/startup.ts).
  const parents = await ctx.q.query<{ id: string; source_key: string }>(
    `SELECT id, source_key FROM head_start_programs WHERE source_key = ANY($1::text[])`,
    [[...new Set(delegates.map((p) => p.grantNumber))]],
  );
  const parentIds = new Map(parents.map((r) => [r.source_key, r.id]));
  for (let start = 0; start < delegates.length; start += BATCH_SIZE) {
    const rows = delegates.slice(start, start + BATCH_SIZE).map((p) => toRow(p, parentIds.get(p.grantNumber) ?? null));
    ctx.tally.main(await upserter.write(PROGRAMS, rows));
  }
  const active = usable.filter((p) => p.year === latestYear).length;
  ctx.log(
    `${ctx.csv.name}: ${usable.length + builtLeads.length} programs (${leads.length} grants, ${builtLeads.length} grant-level built from delegates, ${delegates.length} delegates), ${active} reported in ${latestYear}`,
  );
}

export const hhsHeadStart: Ingestor = {
  description:
    "HHS ACF Head Start PIR 2019-2022 (program level) -> head_start_programs (one per grant and per delegate) + operators for grant recipients",
  files: ["data/hhs_head_start_pir/pir_clean_2019_2022.csv"],
  table: "head_start_programs",
  columns: () => COLUMNS,
  run,
};
