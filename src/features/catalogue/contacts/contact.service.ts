/**
 * Contact search and lookup (spec "GET /contacts", contract sections 4 and 6), and the contact rules of
 * the unlock orchestrator (src/features/account/unlocks/unlock.service.ts UNLOCK_KINDS.contact).
 *
 * - Listed: a contact is served only once its parent (its school when school_id is set, else its
 *   district) went through extraction (parent status `completed`, or extracted before and being
 *   re-extracted or failed since), or when it comes from an official state directory, and while no newer
 *   directory file replaced it (LISTED); any other contact is not found.
 * - Gated: email, phone, linkedin_url, profile_summary and key_facts are null unless the caller's
 *   organization unlocked the contact (defineAccess; `_access` per record).
 * - `unique` (default true): one row per person across sources, by the matching rule of docs/contacts.md
 *   (PERSON_KEY), keeping the row the caller unlocked, else the enriched one, else the newest.
 * - `_access_summary`: over the whole (deduplicated) result set, in the same statement as the page.
 *
 * A list page is one hand-written statement (filter, dedupe, summary, page): the list kit's pageSql
 * counts only a total, and the summary needs four counts over the filtered set even past the end
 * (test/contacts counts the statements). Reads by id are one statement with the same listing rule
 * and access join as the list (like the district and school records), not a Prisma read per table.
 */
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import { columnsOf } from "../../../graphql/fields";
import { AppError } from "../../../graphql/errors";
import { accessColumnsSql, accessJoinSql, defineAccess, presentGated, type GatedRow } from "../../account/access/access.service";
import { UNLOCK_COST } from "../../account/credits/pricing";
import type { AccessSummary } from "../../account/access/access.type";
import type { Viewer } from "../../account/auth/viewer";
import { pagination } from "../../kits/common/common.type";
import { selectColumnsSql } from "../../kits/common/json-rows";
import {
  checkColumns,
  childPageColumns,
  childPagesSql,
  pageArgs,
  readChildPages,
  runChecks,
  sortClause,
  type FilterCheck,
  type PageOf,
} from "../../kits/common/list-kit";
import type { Tx } from "../../../db/transaction";
import {
  CONTACT_LIST,
  CONTACT_MAX_LIMIT,
  PARENT_CONTACTS_DEFAULT_LIMIT,
  type ContactListArgsOf,
  type ParentContactsArgsOf,
  contactSortValue,
} from "./contact.inputs";
import { Contact } from "./contact.type";

export const CONTACT_ACCESS = defineAccess({
  entityType: "contact",
  unlockCost: UNLOCK_COST.contact,
  gatedColumns: ["email", "phone", "linkedin_url", "profile_summary", "key_facts"],
});

export interface ContactRow extends Contact, GatedRow {}

/** A page of contacts with the access summary of the whole result set. */
export interface ContactPageOf extends PageOf<ContactRow> {
  _access_summary: AccessSummary;
}

/** Alias of the caller's unlock of the contact in every statement here. */
const UNLOCK = "u";

const COLUMNS = selectColumnsSql("c", columnsOf(Contact));

/**
 * Contacts `c` with their parent: `ps` the school, or `pd` the district of a district-level contact (LISTED reads them).
 * Exported with LISTED for searches that rank contacts their own way (semantic search): the rule stays here.
 */
export const WITH_PARENT_SQL = `contacts c
    LEFT JOIN schools ps ON ps.id = c.school_id
    LEFT JOIN districts pd ON pd.id = c.district_id AND c.school_id IS NULL`;

/** Contacts `c` with their parent and the caller's unlock. */
const fromSql = (org: string): string => `${WITH_PARENT_SQL}
    ${accessJoinSql(CONTACT_ACCESS, "c", UNLOCK, org)}`;

/**
 * The listing rule, the only one (lists, reads by id, the unlock orchestrator, briefs' people): the contact is
 * current (not `former_at`: a newer state directory file named another person in its role), and either
 * - the parent went through extraction: it is completed, or an earlier run extracted it (content_extracted_at)
 *   and a re-extraction is running (processing) or failed (error). Status alone would hide every organization's
 *   contacts, unlocked ones included, whenever one organization asks for a re-extraction; or
 * - it comes from an official state directory (`source` state_directory, contract section 4: src/ingest/sources/
 *   state-directory.ts) and has its parent.
 * A contact without a district or school parent is never listed. Over WITH_PARENT_SQL.
 */
export const LISTED = `(c.former_at IS NULL AND (coalesce(ps.status, pd.status) = 'completed'
    OR coalesce(ps.content_extracted_at, pd.content_extracted_at) IS NOT NULL
    OR (c.source = 'state_directory' AND coalesce(ps.id, pd.id) IS NOT NULL)))`;

/**
 * One person across sources (docs/contacts.md): the first of these the contact has decides its key:
 * its dedupe_key within its district (the source pipeline's key for a person it recognizes on several
 * pages or sources; scoped, since a pipeline's key such as name|title is not unique nationally), its
 * email (any case, anywhere), or its name (any case, spacing and punctuation ignored) within its district.
 * "Its district" is its school when it has no district.
 */
const DISTRICT_SCOPE = `coalesce(c.district_id, c.school_id)::text`;
const PERSON_KEY = `coalesce('k:' || ${DISTRICT_SCOPE} || ':' || nullif(btrim(c.dedupe_key), ''),
    'e:' || lower(nullif(btrim(c.email), '')),
    'n:' || ${DISTRICT_SCOPE} || ':' || regexp_replace(lower(c.name), '[^[:alnum:]]+', '', 'g'))`;

/** Which row of a person the deduplicated view keeps: the one the caller unlocked, else the enriched one, else the newest. */
const REPRESENTATIVE_ORDER = `coalesce(${UNLOCK}.state = 'unlocked', false) DESC, (c.enrichment_status = 'completed') DESC,
    c.last_updated_at DESC, c.id ASC`;

/** Per contact: unlocked by the caller; processed (its enrichment completed: an unlock would be instant). */
const FLAGS = `coalesce(${UNLOCK}.state = 'unlocked', false) AS __unlocked, (c.enrichment_status = 'completed') AS __processed`;

/** The summary counts over `m` (rows with FLAGS); `over` makes them window aggregates (per parent). */
const summarySql = (m: string, over = ""): string =>
  `count(*)${over}::int AS __total,
   count(*) FILTER (WHERE ${m}.__unlocked)${over}::int AS __unlocked_count,
   count(*) FILTER (WHERE NOT ${m}.__unlocked AND ${m}.__processed)${over}::int AS __locked_processed,
   count(*) FILTER (WHERE NOT ${m}.__unlocked AND NOT ${m}.__processed)${over}::int AS __locked_unprocessed`;

function summaryOf(row: Record<string, unknown> | undefined): AccessSummary {
  const lockedProcessed = Number(row?.__locked_processed ?? 0);
  const lockedUnprocessed = Number(row?.__locked_unprocessed ?? 0);
  return {
    total_results: Number(row?.__total ?? 0),
    unlocked: Number(row?.__unlocked_count ?? 0),
    locked_processed: lockedProcessed,
    locked_unprocessed: lockedUnprocessed,
    unlock_all_cost: (lockedProcessed + lockedUnprocessed) * CONTACT_ACCESS.unlockCost,
  };
}

function present(row: Record<string, unknown>, viewer: Viewer): ContactRow {
  const r = presentGated<ContactRow>(row, viewer, CONTACT_ACCESS);
  return Object.setPrototypeOf(r, Contact.prototype) as ContactRow;
}

/** GET /contacts: one statement for the filter, the deduplication, the summary, the page and the filter's checks. */
export async function listContacts(db: Db, viewer: Viewer, args: ContactListArgsOf): Promise<ContactPageOf> {
  const { limit, offset } = pageArgs(args, CONTACT_MAX_LIMIT);
  const p = new SqlParams();
  const org = p.add(viewer.organizationId);
  const checks: FilterCheck[] = [];
  const where = [LISTED, ...CONTACT_LIST.where(args.filter, p, viewer, checks)];
  const field = args.orderBy ?? CONTACT_LIST.defaultOrder;
  const column = CONTACT_LIST.orderColumns[field];
  const order = sortClause("m", column, args.orderAscending);
  const unique = args.unique !== false;
  const sql = `WITH matched AS MATERIALIZED (
      SELECT ${unique ? `DISTINCT ON (${PERSON_KEY})` : ""} c.id, ${contactSortValue(field)}, ${FLAGS}
        FROM ${fromSql(org)}
       WHERE ${where.join(" AND ")}
       ${unique ? `ORDER BY ${PERSON_KEY}, ${REPRESENTATIVE_ORDER}` : ""}),
    summary AS (SELECT ${summarySql("m")} FROM matched m),
    page AS MATERIALIZED (
      SELECT ranked.*, row_number() OVER () AS __position FROM (
        SELECT m.id AS __id FROM matched m ORDER BY ${order} LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}) ranked)
    SELECT summary.*, page.__position, ${COLUMNS}, ${accessColumnsSql(CONTACT_ACCESS, "c", UNLOCK, org)}${checkColumns(checks)}
      FROM summary LEFT JOIN (page JOIN contacts c ON c.id = page.__id ${accessJoinSql(CONTACT_ACCESS, "c", UNLOCK, org)}) ON true
     ORDER BY page.__position`;
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  // The filter's checks (the caller's lists) ran in the same statement: a failed one answers instead of the page.
  runChecks(checks, rows[0]);
  const data = rows[0]?.__position != null ? rows.map((row) => present(row, viewer)) : [];
  const summary = summaryOf(rows[0]);
  return { data, pagination: pagination(summary.total_results, limit, offset), _access_summary: summary };
}

/** Listed contacts by id (the loader's batch): one statement, in no particular order. */
export async function loadContactsByIds(db: Db, viewer: Viewer, ids: readonly string[]): Promise<ContactRow[]> {
  const p = new SqlParams();
  const org = p.add(viewer.organizationId);
  const sql = `SELECT ${COLUMNS}, ${accessColumnsSql(CONTACT_ACCESS, "c", UNLOCK, org)}
      FROM ${fromSql(org)}
     WHERE ${LISTED} AND c.id = ANY(${p.add(ids)}::uuid[])`;
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  return rows.map((row) => present(row, viewer));
}

export type ContactParentKind = "district" | "school";
const PARENT_COLUMN: Record<ContactParentKind, string> = { district: "district_id", school: "school_id" };

/**
 * One page of contacts per parent (District.contacts: every contact with that district_id, district and
 * school level; School.contacts: the school's), for every parent of `parentIds` in one statement, with
 * each parent's access summary. The window numbers each parent's contacts in page order; row 1 always
 * comes back so a parent whose page lies past its end still reports its total. Pages in key order.
 * offset + limit is bigint: past the int range at the largest offset.
 */
export async function loadContactPagesOfParents(
  db: Db,
  viewer: Viewer,
  parent: ContactParentKind,
  parentIds: readonly string[],
  args: ParentContactsArgsOf,
): Promise<ContactPageOf[]> {
  const { limit, offset } = pageArgs(args, CONTACT_MAX_LIMIT, PARENT_CONTACTS_DEFAULT_LIMIT);
  const p = new SqlParams();
  const org = p.add(viewer.organizationId);
  const owner = `c.${PARENT_COLUMN[parent]}`;
  const field = args.orderBy ?? CONTACT_LIST.defaultOrder;
  const column = CONTACT_LIST.orderColumns[field];
  const unique = args.unique !== false;
  const window = " OVER (PARTITION BY m.__parent)";
  const sql = childPagesSql({
    with: `WITH matched AS MATERIALIZED (
      SELECT ${unique ? `DISTINCT ON (${owner}, ${PERSON_KEY})` : ""} ${owner} AS __parent, c.id, ${contactSortValue(field)}, ${FLAGS}
        FROM ${fromSql(org)}
       WHERE ${LISTED} AND ${owner} = ANY(${p.add(parentIds)}::uuid[])
       ${unique ? `ORDER BY ${owner}, ${PERSON_KEY}, ${REPRESENTATIVE_ORDER}` : ""})`,
    rows: `SELECT m.id AS __id, ${summarySql("m", window)}${childPageColumns("m.__parent", sortClause("m", column, args.orderAscending))}
        FROM matched m`,
    limit: p.add(limit),
    offset: p.add(offset),
    select: `${COLUMNS}, ${accessColumnsSql(CONTACT_ACCESS, "c", UNLOCK, org)}`,
    join: `JOIN contacts c ON c.id = x.__id ${accessJoinSql(CONTACT_ACCESS, "c", UNLOCK, org)}`,
  });
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  // Each parent's summary is on each of its rows (row 1 always comes back).
  const summaries = new Map<unknown, AccessSummary>();
  for (const row of rows) if (!summaries.has(row.__parent)) summaries.set(row.__parent, summaryOf(row));
  return readChildPages(rows, parentIds, { limit, offset }, (row) => present(row, viewer)).map((page, i) => ({
    ...page,
    _access_summary: summaries.get(parentIds[i]) ?? summaryOf(undefined),
  }));
}

// ---------------------------------------------------------------------------------------------------
// Unlock rules (the orchestrator's contact kind)

export interface ContactUnlockTarget {
  /** Its enrichment completed: an unlock is instant; otherwise pending until the enrichment runs. */
  extracted: boolean;
  parent: { type: ContactParentKind; id: string };
}

/** The contact as the unlock orchestrator reads it: null when it does not exist or is not listed (LISTED). One statement. */
export async function readContactForUnlock(tx: Tx, id: string): Promise<ContactUnlockTarget | null> {
  const [row] = await tx.$queryRawUnsafe<{ school_id: string | null; district_id: string | null; extracted: boolean }[]>(
    `SELECT c.school_id, c.district_id, coalesce(c.enrichment_status = 'completed', false) AS extracted
       FROM ${WITH_PARENT_SQL}
      WHERE c.id = $1::uuid AND ${LISTED}`,
    id,
  );
  if (!row) return null;
  // Listed, so it has a parent: its school, else its district.
  const parent = row.school_id ? { type: "school" as const, id: row.school_id } : { type: "district" as const, id: row.district_id! };
  return { extracted: row.extracted, parent };
}

/** 403 PARENT_ENTITY_LOCKED unless the caller's organization unlocked the contact's parent (a pending parent unlock is still locked). */
export async function requireParentUnlocked(tx: Tx, viewer: Viewer, target: ContactUnlockTarget): Promise<void> {
  const { type, id } = target.parent;
  const row = await tx.unlock.findUnique({
    where: { organization_id_entity_type_entity_id: { organization_id: viewer.organizationId, entity_type: type, entity_id: id } },
    select: { state: true },
  });
  if (row?.state === "unlocked") return;
  throw new AppError("PARENT_ENTITY_LOCKED", `unlock the contact's ${type} ${id} first (${UNLOCK_COST[type]} credits)`, {
    parent_entity_type: type,
    parent_entity_id: id,
    unlock_cost: UNLOCK_COST[type],
  });
}

// ---------------------------------------------------------------------------------------------------
// Briefs' people (src/features/research/briefs): the listed catalogue contacts of one district or school

/** A person's name as briefs match it: any case, spacing and punctuation ignored (the contacts' name rule). */
export const NAME_KEY_SQL = (column: string): string => `regexp_replace(lower(${column}), '[^[:alnum:]]+', '', 'g')`;

export interface CatalogueContactRef {
  id: string;
  name: string;
  title: string | null;
  is_district_contact: boolean;
  source_url: string | null;
  data_source: string;
  /** NAME_KEY_SQL of the name. */
  name_key: string;
}

/**
 * The listed contacts of a district (district and school level) or school, one per person name (the row
 * kept as the deduplicated view keeps it: enriched, then newest), district level first, then by name;
 * at most `limit`. `name` narrows to the person of that name (its NAME_KEY_SQL). One statement.
 */
export async function listedContactsOfParent(
  db: Db,
  parent: ContactParentKind,
  parentId: string,
  options: { limit: number; name?: string },
): Promise<CatalogueContactRef[]> {
  const p = new SqlParams();
  const where = [LISTED, `c.${PARENT_COLUMN[parent]} = ${p.add(parentId)}::uuid`];
  if (options.name !== undefined) where.push(`${NAME_KEY_SQL("c.name")} = ${NAME_KEY_SQL(`${p.add(options.name)}::text`)}`);
  const sql = `SELECT * FROM (
      SELECT DISTINCT ON (${NAME_KEY_SQL("c.name")}) c.id, c.name, c.title, c.is_district_contact, c.source_url, c.data_source,
             ${NAME_KEY_SQL("c.name")} AS name_key
        FROM ${WITH_PARENT_SQL}
       WHERE ${where.join(" AND ")}
       ORDER BY ${NAME_KEY_SQL("c.name")}, (c.enrichment_status = 'completed') DESC, c.last_updated_at DESC, c.id) people
     WHERE name_key <> ''
     ORDER BY is_district_contact DESC, name_key, id
     LIMIT ${p.add(options.limit)}`;
  return db.query<CatalogueContactRef>(sql, p.values);
}
