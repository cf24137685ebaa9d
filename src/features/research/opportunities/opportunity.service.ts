/**
 * Reading and re-checking opportunities (docs/opportunities.md). Every read is scoped to the caller's organization:
 * another organization's opportunity or project is not found (404), never forbidden.
 *
 * Reads are one hand-written statement each, as every list (list kit): the page with its total and each row's source
 * checks as JSON. Contacts are resolved per request through the contacts feature's loader (its listing and gating
 * rule: email only where the organization unlocked the contact). window_status is decided at read time from the
 * row's dates and the clock (opportunity.window.ts), so a passed deadline reads closed without a run.
 */
import crypto from "node:crypto";
import { now } from "../../../config/clock";
import type { Db } from "../../../db/client";
import { advisoryXactLock } from "../../../db/locks";
import { SqlParams } from "../../../db/sql";
import { MONEY_TX } from "../../../db/transaction";
import { NotFoundError } from "../../../graphql/errors";
import type { JobQueue } from "../../../jobs/queue";
import type { Viewer } from "../../account/auth/viewer";
import { requireProject } from "../../account/projects/project.service";
import { isoTimestampSql } from "../../kits/common/json-rows";
import { childPageColumns, childPagesSql, pageArgs, readChildPages, readPage, tablePageSql, type PageOf } from "../../kits/common/list-kit";
import { OPPORTUNITY_LIST, OPPORTUNITY_MAX_LIMIT, type OpportunityListArgs } from "./opportunity.inputs";
import { verifyOpportunityJob } from "./opportunity.jobs";
import { Opportunity, OpportunityVerification, RefreshOutcome, VerificationStatus, type WindowStatusValue } from "./opportunity.type";
import { windowStatus } from "./opportunity.window";

/** A run still `verifying` after this long died with its worker: a refresh starts a new one. */
export const VERIFY_STALE_MINUTES = 15;

/** A served row, with what the contacts field and the window need. */
export interface OpportunityRow extends Opportunity {
  __contacts: { contact_id: string }[] | null;
  __window_durable: boolean;
}

const day = (column: string): string => `to_char(${column}, 'YYYY-MM-DD')`;

/** The record's columns over `o`. */
const COLUMNS = `o.id, o.project_id, o.entity_type, o.district_id, o.school_id, o.geo_scope, o.title, o.signal_type,
    ${day("o.event_date")} AS event_date, o.event_date_basis, o.why_now, o.suggested_action, o.caveats, o.confidence,
    coalesce(o.source_urls, '{}') AS source_urls, coalesce(o.signal_ids::text[], '{}') AS signal_ids, o.contacts AS __contacts,
    coalesce(o.suggested_prompts, '{}') AS suggested_prompts, o.supplementary,
    o.verification_status, o.window_status, ${isoTimestampSql("o.last_verified_at")} AS last_verified_at, o.verification_note,
    ${day("o.window_ends_on")} AS window_ends_on, o.window_durable AS __window_durable,
    coalesce((SELECT json_agg(json_build_object('url', c.url, 'checked_at', ${isoTimestampSql("c.checked_at")},
                                                'status', c.status, 'note', c.note) ORDER BY c.checked_at, c.url, c.id)
                FROM opportunity_source_checks c WHERE c.opportunity_id = o.id), '[]'::json) AS source_checks,
    o.data_source, ${isoTimestampSql("o.created_at")} AS created_at, ${isoTimestampSql("o.updated_at")} AS updated_at`;

const json = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

function present(row: Record<string, unknown>): OpportunityRow {
  row.source_checks = json(row.source_checks);
  row.__contacts = json(row.__contacts);
  row.window_status = windowStatus(
    { window_ends_on: row.window_ends_on as string | null, window_durable: row.__window_durable as boolean },
    now(),
  ) as WindowStatusValue;
  return Object.setPrototypeOf(row, Opportunity.prototype) as OpportunityRow;
}

/** GET /opportunities: a page of the caller's organization's opportunities and its total. One statement. */
export async function listOpportunities(db: Db, viewer: Viewer, args: OpportunityListArgs): Promise<PageOf<OpportunityRow>> {
  const { limit, offset } = pageArgs(args, OPPORTUNITY_MAX_LIMIT);
  if (args.filter?.projectId) await requireProject(db.prisma, viewer.organizationId, args.filter.projectId);
  const p = new SqlParams();
  const where = [`o.organization_id = ${p.add(viewer.organizationId)}::uuid`, ...OPPORTUNITY_LIST.where(args.filter, p, undefined)];
  const statement = tablePageSql({
    table: "opportunities",
    alias: "o",
    where,
    order: OPPORTUNITY_LIST.order("o", args.orderBy, args.orderAscending),
    limit: p.add(limit),
    offset: p.add(offset),
    select: COLUMNS,
  });
  return readPage(await db.query<Record<string, unknown>>(statement, p.values), limit, offset, present);
}

/** Project.opportunities: the page of each of several projects of the caller's organization. One statement. */
export async function loadOpportunityPagesOfProjects(
  db: Db,
  viewer: Viewer,
  args: OpportunityListArgs,
  projectIds: readonly string[],
): Promise<PageOf<OpportunityRow>[]> {
  const page = pageArgs(args, OPPORTUNITY_MAX_LIMIT);
  const p = new SqlParams();
  const where = [
    `o.organization_id = ${p.add(viewer.organizationId)}::uuid`,
    `o.project_id = ANY(${p.add(projectIds)}::uuid[])`,
    ...OPPORTUNITY_LIST.where(args.filter, p, undefined),
  ];
  const rows = `SELECT o.id AS __id${childPageColumns("o.project_id", OPPORTUNITY_LIST.order("o", args.orderBy, args.orderAscending))}
      FROM opportunities o WHERE ${where.join(" AND ")}`;
  const statement = childPagesSql({
    rows,
    limit: p.add(page.limit),
    offset: p.add(page.offset),
    select: COLUMNS,
    join: "JOIN opportunities o ON o.id = x.__id",
  });
  const found = await db.query<Record<string, unknown>>(statement, p.values);
  return readChildPages(found, projectIds, page, ({ __id, __parent, __rn, __page_total, ...row }) => present(row));
}

/** Opportunities by id, the caller's organization's only (others: null). One statement. */
export async function loadOpportunitiesByIds(db: Db, viewer: Viewer, ids: readonly string[]): Promise<(OpportunityRow | null)[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM opportunities o WHERE o.id = ANY($1::uuid[]) AND o.organization_id = $2::uuid`,
    [ids, viewer.organizationId],
  );
  const byId = new Map(rows.map((row) => [row.id as string, present(row)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** GET /opportunities/{id}/verification: the stored verdict, the window as of now and the last run's checks. */
export function verificationOf(row: OpportunityRow | null, id: string): OpportunityVerification {
  if (!row) throw new NotFoundError(`opportunity ${id}`);
  return {
    verification_status: row.verification_status,
    window_status: row.window_status,
    last_verified_at: row.last_verified_at,
    verification_note: row.verification_note,
    source_checks: row.source_checks ?? [],
  };
}

/**
 * POST /opportunities/{id}/refresh: starts a verification run (a job) and answers `verifying`. While a run is in
 * flight (verifying, started within VERIFY_STALE_MINUTES) no second one starts (`started: false`). The row and the job
 * are written in one transaction, serialized per opportunity.
 */
export async function refreshOpportunity(db: Db, viewer: Viewer, id: string, jobs: JobQueue | undefined): Promise<RefreshOutcome> {
  return db.prisma.$transaction(async (tx) => {
    await advisoryXactLock(tx, `opportunity-verify:${id}`);
    const row = await tx.opportunity.findFirst({
      where: { id, organization_id: viewer.organizationId },
      select: { verification_status: true, verification_started_at: true },
    });
    if (!row) throw new NotFoundError(`opportunity ${id}`);
    const fresh =
      row.verification_status === VerificationStatus.verifying &&
      row.verification_started_at !== null &&
      Date.now() - row.verification_started_at.getTime() < VERIFY_STALE_MINUTES * 60_000;
    if (fresh) return { verification_status: VerificationStatus.verifying, started: false };
    if (!jobs) throw new Error("opportunities: the job queue is not running in this process");
    const jobId = crypto.randomUUID();
    const at = new Date();
    await tx.opportunity.update({
      where: { id },
      data: { verification_status: VerificationStatus.verifying, verification_job_id: jobId, verification_started_at: at, updated_at: at },
    });
    await jobs.send(tx, verifyOpportunityJob, { opportunityId: id, jobId }, jobId);
    return { verification_status: VerificationStatus.verifying, started: true };
  }, MONEY_TX);
}
