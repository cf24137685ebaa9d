/**
 * Deep-research briefs (spec "Brief" state table and POST /briefs; contract sections 2, 3 and 7;
 * docs/briefs.md). One current brief per (project, entity) pair (unique in `briefs`).
 *
 *   no brief                        POST -> building, a build job sent (started true)
 *   building, started < 60 min ago  POST -> building, no second build (started false)
 *   building, started >= 60 min ago read -> reported failed; POST -> a new build (started true)
 *   ready                           POST -> the ready brief reused (started false)
 *   failed                          POST -> a new build (started true)
 *
 * Who may request: the project must be the caller's (404 otherwise, revealing nothing); enterprise and
 * internal organizations may request any district or school; other plans must follow the entity in
 * that project first (403 forbidden). A request runs in one transaction holding a lock on the pair, so
 * concurrent requests of one pair start one build; the job is sent in that transaction (it exists
 * exactly when the building row was committed).
 */
import crypto from "node:crypto";
import type { Db } from "../../../db/client";
import { advisoryXactLock } from "../../../db/locks";
import { BadRequestError, ForbiddenError, NotFoundError } from "../../../graphql/errors";
import type { JobQueue } from "../../../jobs/queue";
import { isPaidPlan, type Viewer } from "../../account/auth/viewer";
import { listedContactsOfParent } from "../../catalogue/contacts/contact.service";
import { unlockedSql } from "../../account/access/access.service";
import { MONEY_TX, type Tx } from "../../../db/transaction";
import { presentEvent } from "../../catalogue/events/event.access";
import { holdsEntitySlotSql } from "../../account/follows/follow.slots";
import { requireProject, requireProjectEntity } from "../../account/projects/project.service";
import { PERSON_KEY_PATTERN, type DossierPerson } from "./brief.dossier";
import type { BriefRequestInput } from "./brief.inputs";
import { buildBriefJob } from "./brief.jobs";
import {
  BriefStatus,
  type Brief,
  type BriefEntityType,
  type BriefRequestOutcome,
  type PromoteOutcome,
  type PromotedContact,
} from "./brief.type";

/** A build still `building` this long after it started is reported failed, and a new request restarts it (spec Limits). */
export const BRIEF_STUCK_MS = 60 * 60 * 1000;
export const STUCK_ERROR = "the build was stuck in building for over 60 minutes; POST /briefs starts it again";

/** Plans that may request a brief of an entity their project does not follow (contract section 3). */
const WITHOUT_FOLLOW = new Set(["enterprise", "internal"]);

export const pollUrl = (briefId: string): string => `/api/v1/briefs/${briefId}`;

const isStuck = (status: string, startedAt: Date, now: Date): boolean =>
  status === BriefStatus.building && now.getTime() - startedAt.getTime() > BRIEF_STUCK_MS;

interface BriefRow {
  id: string;
  project_id: string;
  entity_type: string;
  entity_id: string;
  status: string;
  dossier: unknown;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
  /** The caller's organization holds a follow slot of the brief's entity (follow.slots.ts): history gating. */
  followed: boolean;
  /** The caller's organization has unlocked the brief's entity now: gated events are shown whole. */
  unlocked: boolean;
}

/**
 * A row as served: a build stuck in building is reported failed (the row is left as it is; POST restarts it).
 * History gating (contract section 4) applies on every read, not only at the build: a free organization that
 * holds no follow slot of the entity (follow.slots.ts: not followed, or unfollowed and the slot released) sees the
 * latest year only (statistics, finance), no enrollment change, and no narrative (it quotes the history);
 * following again opens them again.
 * Events are presented with the organization's unlock of the entity at read time (event.access.ts): a gated
 * event stored whole (every build stores them so; builds before issue 20 point 2 did so while locked) is in its
 * public form until the entity is unlocked, and whole after.
 */
function present(row: BriefRow, viewer: Viewer, now = new Date()): Brief {
  const stuck = isStuck(row.status, row.started_at, now);
  const historyOpen = isPaidPlan(viewer) || row.followed === true;
  return {
    brief_id: row.id,
    project_id: row.project_id,
    entity_type: row.entity_type as BriefEntityType,
    entity_id: row.entity_id,
    status: (stuck ? BriefStatus.failed : row.status) as BriefStatus,
    dossier: row.dossier ? gateEvents(gateHistory(row.dossier as Record<string, unknown>, historyOpen), row.unlocked === true) : null,
    error: stuck ? STUCK_ERROR : row.error,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

const HISTORY_NARRATIVE_NOTE =
  "The narrative is withheld: it draws on the multi-year history, which a free organization sees only while it holds a follow slot of the entity.";

type DossierEvent = { event_type: string; title: string };

function gateEvents(dossier: Record<string, unknown>, unlocked: boolean): Record<string, unknown> {
  const events = dossier.events;
  if (!Array.isArray(events)) return dossier;
  return { ...dossier, events: (events as DossierEvent[]).map((event) => presentEvent(event, unlocked)) };
}

function gateHistory(dossier: Record<string, unknown>, historyOpen: boolean): Record<string, unknown> {
  const statistics = dossier.statistics as { trend?: unknown[] } | null | undefined;
  const finance = dossier.finance as { trend?: unknown[] } | null | undefined;
  if (historyOpen)
    return {
      ...dossier,
      statistics: statistics && { ...statistics, history_gated: false },
      finance: finance && { ...finance, history_gated: false },
    };
  return {
    ...dossier,
    statistics: statistics && { ...statistics, trend: (statistics.trend ?? []).slice(-1), enrollment_change: null, history_gated: true },
    finance: finance && { ...finance, trend: (finance.trend ?? []).slice(-1), history_gated: true },
    narrative: { included: false, note: HISTORY_NARRATIVE_NOTE },
  };
}

const BRIEF_COLUMNS = `b.id, b.project_id, b.entity_type, b.entity_id, b.status, b.dossier, b.error, b.started_at, b.finished_at,
  ${holdsEntitySlotSql("b.organization_id", "b.entity_type", "b.entity_id")} AS followed,
  EXISTS (SELECT 1 FROM unlocks bu WHERE bu.organization_id = b.organization_id AND bu.entity_type = b.entity_type
           AND bu.entity_id = b.entity_id AND ${unlockedSql("bu")}) AS unlocked`;

/**
 * GET /briefs?project_id=&entity_type=&entity_id=: the pair's brief, or null when it never had a build.
 * One statement: the project check (404 for a project that is not the caller's) and the brief.
 */
export async function briefOfPair(
  db: Db,
  viewer: Viewer,
  projectId: string,
  entityType: BriefEntityType,
  entityId: string,
): Promise<Brief | null> {
  const rows = await db.query<BriefRow & { project_found: string }>(
    `SELECT p.id AS project_found, ${BRIEF_COLUMNS}
       FROM projects p
       LEFT JOIN briefs b ON b.project_id = p.id AND b.organization_id = p.organization_id
                          AND b.entity_type = $3 AND b.entity_id = $4::uuid
      WHERE p.id = $1::uuid AND p.organization_id = $2::uuid`,
    [projectId, viewer.organizationId, entityType, entityId],
  );
  if (!rows[0]) throw new NotFoundError(`project ${projectId}`);
  return rows[0].id ? present(rows[0], viewer) : null;
}

/** GET /briefs/{brief_id} (the poll URL): the caller's organization's brief, or null (404 over REST). One statement. */
export async function briefById(db: Db, viewer: Viewer, briefId: string): Promise<Brief | null> {
  const rows = await db.query<BriefRow>(`SELECT ${BRIEF_COLUMNS} FROM briefs b WHERE b.id = $1::uuid AND b.organization_id = $2::uuid`, [
    briefId,
    viewer.organizationId,
  ]);
  return rows[0] ? present(rows[0], viewer) : null;
}

/** Plans other than enterprise and internal must follow the entity in the project first (403 forbidden). */
async function requireAllowed(tx: Tx, viewer: Viewer, input: BriefRequestInput): Promise<void> {
  if (WITHOUT_FOLLOW.has(viewer.plan)) return;
  const follow = await tx.follow.findFirst({
    where: {
      organization_id: viewer.organizationId,
      project_id: input.projectId,
      entity_type: input.entityType,
      entity_id: input.entityId,
      unfollowed_at: null,
    },
    select: { id: true },
  });
  if (!follow)
    throw new ForbiddenError(
      `the ${viewer.plan} plan requests briefs of followed entities only: follow ${input.entityType} ${input.entityId} in project ${input.projectId} first (POST /follows), or use an enterprise plan`,
    );
}

/** POST /briefs: idempotent per the state table (module comment). */
export async function requestBrief(
  db: Db,
  viewer: Viewer,
  input: BriefRequestInput,
  jobs: JobQueue | undefined,
): Promise<BriefRequestOutcome> {
  const org = viewer.organizationId;
  return db.prisma.$transaction(async (tx) => {
    await requireProject(tx, org, input.projectId);
    await requireProjectEntity(tx, input.entityType, input.entityId);
    await requireAllowed(tx, viewer, input);
    // Serializes requests of one pair (PGlite's single connection does so anyway); held until commit.
    await advisoryXactLock(tx, `brief:${input.projectId}:${input.entityType}:${input.entityId}`);
    const pair = { project_id: input.projectId, entity_type: input.entityType, entity_id: input.entityId };
    const existing = await tx.brief.findUnique({
      where: { project_id_entity_type_entity_id: pair },
      select: { id: true, status: true, started_at: true },
    });
    const now = new Date();
    if (
      existing &&
      (existing.status === BriefStatus.ready ||
        (existing.status === BriefStatus.building && !isStuck(existing.status, existing.started_at, now)))
    )
      return { brief_id: existing.id, status: existing.status as BriefStatus, started: false, poll: pollUrl(existing.id) };

    // No brief, a failed one, or one stuck in building: a new build.
    if (!jobs) throw new Error("briefs: the job queue is not running in this process");
    const jobId = crypto.randomUUID();
    const building = { status: BriefStatus.building, job_id: jobId, error: null, started_at: now, finished_at: null, updated_at: now };
    const row = existing
      ? await tx.brief.update({ where: { id: existing.id }, data: building, select: { id: true } })
      : await tx.brief.create({ data: { ...pair, organization_id: org, ...building }, select: { id: true } });
    await jobs.send(tx, buildBriefJob, { briefId: row.id, jobId }, jobId);
    return { brief_id: row.id, status: BriefStatus.building, started: true, poll: pollUrl(row.id) };
  }, MONEY_TX);
}

const PROMOTED_COLUMNS = {
  id: true,
  brief_id: true,
  person_key: true,
  project_id: true,
  entity_type: true,
  entity_id: true,
  name: true,
  title: true,
  contact_id: true,
  brief_reference: true,
  linked_at: true,
  created_at: true,
  updated_at: true,
} as const;

const presentPromoted = (row: Omit<PromotedContact, "linked">): PromotedContact => ({ ...row, linked: row.contact_id !== null });

/**
 * POST /briefs/{briefId}/people/{personKey}/promote: the person of a ready brief becomes the
 * organization's contact record (idempotent per brief and person). It stores the brief entry's
 * reference (brief_id, person_key, section) and the person's name and title, never the brief's prose.
 * Linked: the catalogue contact of the person (the dossier's, else one of the same name the catalogue
 * lists now); unlinked (contact_id null) when there is none, and a later promote links it once there is.
 */
export async function promoteBriefPerson(db: Db, viewer: Viewer, briefId: string, personKey: string): Promise<PromoteOutcome> {
  if (!PERSON_KEY_PATTERN.test(personKey))
    throw new BadRequestError("person_key must be a person key of the brief's dossier (p_ and 24 hex digits)");
  const org = viewer.organizationId;
  const brief = await db.prisma.brief.findFirst({
    where: { id: briefId, organization_id: org },
    select: { id: true, project_id: true, entity_type: true, entity_id: true, status: true, dossier: true },
  });
  if (!brief) throw new NotFoundError(`brief ${briefId}`);
  const people = ((brief.dossier as { people?: DossierPerson[] } | null)?.people ?? []) as DossierPerson[];
  const person = people.find((p) => p.person_key === personKey);
  if (!person) throw new NotFoundError(`person ${personKey} in brief ${briefId}`);

  const kind = brief.entity_type === "school" ? "school" : "district";
  // The catalogue's person of that name now (the dossier's contact_id was the same rule at build time).
  const [catalogue] = await listedContactsOfParent(db, kind, brief.entity_id, { limit: 1, name: person.name });
  const contactId = catalogue?.id ?? null;

  const key = { organization_id_brief_id_person_key: { organization_id: org, brief_id: briefId, person_key: personKey } };
  return db.prisma.$transaction(async (tx) => {
    await advisoryXactLock(tx, `promote:${org}:${briefId}:${personKey}`);
    const existing = await tx.promotedContact.findUnique({ where: key, select: PROMOTED_COLUMNS });
    const now = new Date();
    if (existing) {
      // An unlinked record is linked once the catalogue has the person (the merge docs/briefs.md describes).
      if (existing.contact_id === null && contactId !== null) {
        const linked = await tx.promotedContact.update({
          where: key,
          data: { contact_id: contactId, linked_at: now, updated_at: now },
          select: PROMOTED_COLUMNS,
        });
        return { created: false, contact: presentPromoted(linked as never) };
      }
      return { created: false, contact: presentPromoted(existing as never) };
    }
    const created = await tx.promotedContact.create({
      data: {
        organization_id: org,
        project_id: brief.project_id,
        brief_id: briefId,
        person_key: personKey,
        contact_id: contactId,
        entity_type: brief.entity_type,
        entity_id: brief.entity_id,
        name: person.name,
        title: person.title,
        brief_reference: { brief_id: briefId, person_key: personKey, section: "people" },
        linked_at: contactId ? now : null,
      },
      select: PROMOTED_COLUMNS,
    });
    return { created: true, contact: presentPromoted(created as never) };
  }, MONEY_TX);
}
