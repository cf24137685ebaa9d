/**
 * Operator search and lookup, in hand-written SQL (one statement per list or batch of ids: bench/statements.ts
 * and test/rest/operators.test.ts count them). Everything a record shows is computed by it: the counts of
 * active centers and open Head Start programs (scoped to the `state` filter), program_states, the
 * latest current Form 990 and its contractors over $100,000, the page and the total.
 *
 * Merges: an operator with merged_into_id is never listed; its centers, programs and returns count
 * for the operator it became (followed through chains of merges), and its id reads as that operator.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { BadRequestError } from "../../../graphql/errors";
import { checkList, checkState, pageArgs, pageSql, readPage, type PageOf } from "../../kits/common/list-kit";
import { ContractorMode, OPERATOR_LIST, OPERATOR_MAX_LIMIT, type OperatorListArgs } from "./operator.inputs";
import { Operator } from "./operator.type";

/** Contract section 6: the contractors a 990 lists as paid over this amount. */
export const CONTRACTOR_THRESHOLD = 100000;
const CONTRACTOR_MAX_NAMES = 20;
const CONTRACTOR_MAX_LENGTH = 200;
/** Guard against a cycle of merged_into_id links (never written on purpose). */
const MAX_MERGE_DEPTH = 16;

export interface OperatorRow extends Operator {
  __latest_filing_id: string | null;
}

/** The contractor filter's text as comparable keys: lowercase letters and digits only. */
export function contractorKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "");
}
/** The same normalization in SQL, so a name on file and a name asked for compare alike. */
const contractorKeySql = (column: string) => `regexp_replace(lower(${column}), '[^a-z0-9]+', '', 'g')`;

function contractorPatterns(raw: string): string[] {
  const names = raw
    .split("|")
    .map((n) => n.trim())
    .filter(Boolean);
  if (!names.length) throw new BadRequestError("contractor must name at least one contractor (several joined by |)");
  if (names.length > CONTRACTOR_MAX_NAMES) throw new BadRequestError(`contractor takes at most ${CONTRACTOR_MAX_NAMES} names joined by |`);
  return names.map((name) => {
    if (name.length > CONTRACTOR_MAX_LENGTH)
      throw new BadRequestError(`contractor names must be at most ${CONTRACTOR_MAX_LENGTH} characters each`);
    const key = contractorKey(name);
    if (!key) throw new BadRequestError(`contractor name "${name}" has no letters or digits`);
    return `%${key}%`;
  });
}

/** Fiscal year end (YYYY-MM-DD) of an IRS tax period YYYYMM: the last day of that month. */
const fiscalYearEndSql = (column: string) =>
  `CASE WHEN ${column} ~ '^[0-9]{6}$'
     THEN to_char(to_date(${column} || '01', 'YYYYMMDD') + INTERVAL '1 month' - INTERVAL '1 day', 'YYYY-MM-DD')
     ELSE ${column} END`;

/**
 * CTEs (after `WITH RECURSIVE`) `merged` and `merged_root`: each merged operator's `id` and the live
 * operator it became (`root`, chains of merges followed). Rows of a merged operator count for its root.
 */
export const MERGED_ROOT_CTES = `merged(id, root, depth) AS (
      SELECT id, merged_into_id, 1 FROM operators WHERE merged_into_id IS NOT NULL
      UNION ALL
      SELECT m.id, o.merged_into_id, m.depth + 1 FROM merged m JOIN operators o ON o.id = m.root
       WHERE o.merged_into_id IS NOT NULL AND m.depth < ${MAX_MERGE_DEPTH}
    ),
    merged_root AS (SELECT DISTINCT ON (id) id, root FROM merged ORDER BY id, depth DESC)`;

/**
 * For a relation of operators (Operator.childcareCenters ...) over rows whose operator column is `column`
 * (with MERGED_ROOT_CTES): the join reaching each row's live operator (`mr`), that operator (`owner`),
 * and the condition selecting the rows of the live operators `ids` (their own and their merged ones').
 */
export const operatorOwnerSql = (column: string, ids: string) => ({
  join: `LEFT JOIN merged_root mr ON mr.id = ${column}`,
  owner: `coalesce(mr.root, ${column})`,
  of: `${column} IN (SELECT unnest(${ids}::uuid[]) UNION ALL SELECT id FROM merged_root WHERE root = ANY(${ids}::uuid[]))`,
});

interface Scope {
  /** States the counts are scoped to (the `state` filter); null: every state. */
  states: string[] | null;
  /** Requested ids (read through merges); restricts every aggregate to their operators. */
  ids: string[] | null;
  /** LIKE patterns of the contractor filter, and which returns it reads. */
  contractor: { patterns: string[]; mode: ContractorMode } | null;
}

/**
 * The CTEs every operator statement starts with, ending in `x`: one row per live operator with every
 * field of the record except contractor_matches (added after paging) and the page's total.
 */
function operatorCtes(p: SqlParams, scope: Scope): string {
  const stateScope = scope.states ? ` AND state = ANY(${p.add(scope.states)}::text[])` : "";
  const wanted = scope.ids ? ` AND owner IN (SELECT root FROM wanted)` : "";
  // The rows of `table` (as `a`) meeting `where`, each with its live operator (through merges) as `owner`,
  // of the requested operators only.
  const owned = (table: string, a: string, columns: string, where: string) => `SELECT * FROM (
        SELECT coalesce(mr.root, ${a}.operator_id) AS owner, ${columns}
          FROM ${table} ${a} LEFT JOIN merged_root mr ON mr.id = ${a}.operator_id
         WHERE ${where}
      ) s WHERE true${wanted}`;
  const contractorPaid = scope.contractor
    ? `(SELECT string_agg(DISTINCT cp.name, '; ' ORDER BY cp.name)
          FROM current_filings cf JOIN contractor_payments cp ON cp.filing_id = cf.id
         WHERE cf.owner = o.id AND upper(replace(cf.form, '-', '')) <> '990EZ'
           AND cp.amount > ${CONTRACTOR_THRESHOLD}
           AND ${contractorKeySql("cp.name")} LIKE ANY(${p.add(scope.contractor.patterns)}::text[])
           ${scope.contractor.mode === ContractorMode.latest ? "AND cf.id = lf.id" : ""})`
    : "NULL::text";
  return `WITH RECURSIVE ${MERGED_ROOT_CTES},
    wanted AS (
      SELECT req.id AS key, coalesce(mr.root, req.id) AS root
        FROM unnest(${p.add(scope.ids ?? [])}::uuid[]) AS req(id) LEFT JOIN merged_root mr ON mr.id = req.id
    ),
    active_centers AS (${owned("childcare_centers", "c", "c.state, c.capacity", "c.operator_id IS NOT NULL AND c.license_status = 'active'")}),
    open_programs AS (${owned("head_start_programs", "h", "h.state, h.funded_slots", "h.operator_id IS NOT NULL AND h.status = 'active'")}),
    center_totals AS (
      SELECT owner, count(*)::int AS n, sum(capacity)::bigint AS seats FROM active_centers WHERE true${stateScope} GROUP BY owner
    ),
    program_totals AS (
      SELECT owner, count(*)::int AS n, sum(funded_slots)::bigint AS slots FROM open_programs WHERE true${stateScope} GROUP BY owner
    ),
    states_run AS (
      SELECT owner, array_agg(DISTINCT state ORDER BY state) AS states
        FROM (SELECT owner, state FROM active_centers UNION ALL SELECT owner, state FROM open_programs) s GROUP BY owner
    ),
    current_filings AS (${owned("operator_filings", "f", "f.*", "f.is_current")}),
    latest_filing AS (
      SELECT DISTINCT ON (owner) * FROM current_filings ORDER BY owner, tax_period DESC, created_at DESC, id
    ),
    x AS (
      SELECT o.id, o.slug, o.name, o.kind, o.ein, o.uei, o.chain_key, o.ntee_code, o.physical_address, o.physical_city,
        o.state, o.physical_zip, o.website_url, o.website_domain, o.brand_favicon_url, o.brand_hero_url, o.brand_color,
        o.created_at, o.updated_at,
        coalesce(ct.n, 0) AS center_count,
        CASE WHEN ct.n IS NULL THEN 0 ELSE ct.seats END AS center_seats,
        coalesce(pt.n, 0) AS head_start_count,
        CASE WHEN pt.n IS NULL THEN 0 ELSE pt.slots END AS head_start_slots,
        coalesce(sr.states, ARRAY[]::text[]) AS program_states,
        -- The latest current return when one is on file, else the IRS master file's figures.
        CASE WHEN lf.id IS NULL THEN o.total_revenue ELSE lf.total_revenue END AS total_revenue,
        CASE WHEN lf.id IS NULL THEN o.government_grants ELSE lf.government_grants END AS government_grants,
        CASE WHEN lf.id IS NULL THEN o.fiscal_year_end ELSE ${fiscalYearEndSql("lf.tax_period")} END AS fiscal_year_end,
        lf.form AS latest_990_form,
        lf.object_id AS latest_990_object_id,
        lf.id AS __latest_filing_id,
        ${contractorPaid} AS contractor_paid
      FROM operators o
      LEFT JOIN center_totals ct ON ct.owner = o.id
      LEFT JOIN program_totals pt ON pt.owner = o.id
      LEFT JOIN states_run sr ON sr.owner = o.id
      LEFT JOIN latest_filing lf ON lf.owner = o.id
      WHERE o.merged_into_id IS NULL${scope.ids ? " AND o.id IN (SELECT root FROM wanted)" : ""}
    )`;
}

/** Contractors over the threshold on the row's latest return, as the record's JSON list. */
const contractorMatchesJoin = (alias: string) => `LEFT JOIN LATERAL (
    SELECT json_agg(json_build_object('name', cp.name, 'amount', cp.amount, 'services', cp.services,
             'line_key', cp.line_key, 'fiscal_year_end', ${alias}.fiscal_year_end) ORDER BY cp.amount DESC, cp.name, cp.id) AS items
      FROM contractor_payments cp
     WHERE cp.filing_id = ${alias}.__latest_filing_id AND cp.amount > ${CONTRACTOR_THRESHOLD}
  ) cm ON true`;

function presentOperator(row: Record<string, unknown>): OperatorRow {
  row.contractor_matches = (row.contractor_matches as unknown[] | null) ?? [];
  return Object.setPrototypeOf(row, Operator.prototype) as OperatorRow;
}

/**
 * Operators by id; a merged id yields the operator it became. Rows carry `__key`, the id asked for.
 * Hand-written SQL, not Prisma: the record is computed (merge chains, scoped counts, latest 990 and its
 * contractors), which the client cannot express in one statement; one statement per batch is what
 * bench/statements.ts and test/rest/operators.test.ts measure.
 */
export async function loadOperatorsByIds(db: Db, ids: readonly string[]): Promise<(OperatorRow & { __key: string })[]> {
  const p = new SqlParams();
  const ctes = operatorCtes(p, { states: null, ids: [...ids], contractor: null });
  const sql = `${ctes}
    SELECT w.key AS __key, x.*, cm.items AS contractor_matches
      FROM wanted w JOIN x ON x.id = w.root
      ${contractorMatchesJoin("x")}`;
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  return rows.map((row) => presentOperator(row) as OperatorRow & { __key: string });
}

export async function listOperators(db: Db, args: OperatorListArgs): Promise<PageOf<OperatorRow>> {
  const { limit, offset } = pageArgs(args, OPERATOR_MAX_LIMIT);
  const filter = args.filter ?? {};
  const states = filter.state != null ? checkList("state", filter.state, checkState) : null;
  const contractor =
    filter.contractor != null
      ? { patterns: contractorPatterns(filter.contractor), mode: filter.contractorMode ?? ContractorMode.any }
      : null;
  if (filter.ids != null && !filter.ids.length) throw new BadRequestError("ids must be a non-empty comma-separated list");
  const p = new SqlParams();
  const ctes = operatorCtes(p, { states, ids: filter.ids ?? null, contractor });
  const where = OPERATOR_LIST.where(filter, p, undefined);
  // Hand-written list page, one statement with page and total (list kit; bench/statements.ts counts it).
  // The page keeps the computed records whole; contractor_matches is read for its rows only.
  const sql = pageSql({
    with: ctes,
    from: "x",
    where,
    order: OPERATOR_LIST.order("x", args.orderBy, args.orderAscending),
    keep: "x.*",
    limit: p.add(limit),
    offset: p.add(offset),
    select: "page.*, cm.items AS contractor_matches",
    join: contractorMatchesJoin("page"),
  });
  return readPage(await db.query<Record<string, unknown>>(sql, p.values), limit, offset, presentOperator);
}
