/**
 * Projects of an organization (contract section 3): read and written through the Prisma client, always
 * scoped to one organization. The one implementation of creating a project: POST /projects and the
 * admin CLI (`project create`, organization.service.ts) both come here.
 */
import type { Db } from "../../../db/client";
import { Prisma } from "../../../db/generated/client";
import { BadRequestError, NotFoundError } from "../../../graphql/errors";
import type { Viewer } from "../auth/viewer";
import type { EntityKind } from "../../kits/common/entity-kind";
import type { Tx } from "../../../db/transaction";
import { checkIcp } from "./project.icp";
import { PROJECT_NAME_MAX } from "./project.inputs";
import type { Project } from "./project.type";

const PROJECT_COLUMNS = { id: true, name: true, icp: true, created_at: true } satisfies Prisma.ProjectSelect;

/** The project is the caller's (404 otherwise: another organization's project is never revealed). */
export async function requireProject(tx: Tx | Db["prisma"], organizationId: string, projectId: string): Promise<void> {
  const project = await tx.project.findFirst({ where: { id: projectId, organization_id: organizationId }, select: { id: true } });
  if (!project) throw new NotFoundError(`project ${projectId}`);
}

/** The district or school a project acts on (a follow, a brief) exists (404 otherwise): a read by key. */
export async function requireProjectEntity(tx: Tx, kind: EntityKind, id: string): Promise<void> {
  const found =
    kind === "district"
      ? await tx.district.findUnique({ where: { id }, select: { id: true } })
      : await tx.school.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw new NotFoundError(`${kind} ${id}`);
}

/** Oldest first (ties by id): a project's place never changes. */
const PROJECT_ORDER: Prisma.ProjectOrderByWithRelationInput[] = [{ created_at: "asc" }, { id: "asc" }];

/** GET /projects: every project of the caller's organization. */
export async function listProjects(db: Db, viewer: Viewer): Promise<Project[]> {
  const rows = await db.prisma.project.findMany({
    where: { organization_id: viewer.organizationId },
    select: PROJECT_COLUMNS,
    orderBy: PROJECT_ORDER,
  });
  return rows as Project[];
}

export interface ProjectInput {
  name: unknown;
  icp?: unknown;
}

/** The checked name and profile of a new project (400 naming the property otherwise). */
export function checkProjectInput(input: ProjectInput): { name: string; icp: Prisma.InputJsonObject | null } {
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name || name.length > PROJECT_NAME_MAX) throw new BadRequestError(`name must be 1 to ${PROJECT_NAME_MAX} characters`);
  return { name, icp: checkIcp(input.icp) as Prisma.InputJsonObject | null };
}

/** A new project of `organizationId` (the caller's organization, or one the CLI checked exists). */
export async function createProject(db: Db, organizationId: string, input: ProjectInput): Promise<Project> {
  const { name, icp } = checkProjectInput(input);
  const row = await db.prisma.project.create({
    data: { organization_id: organizationId, name, icp: icp ?? Prisma.DbNull },
    select: PROJECT_COLUMNS,
  });
  return row as Project;
}

/**
 * PATCH /projects/{id}: a new name or profile for a project of the caller's organization (404 otherwise). A changed
 * profile moves updated_at, which the opportunity agent's sweep notices (docs/opportunities.md).
 */
export async function updateProject(
  db: Db,
  organizationId: string,
  id: string,
  input: { name?: unknown; icp?: unknown },
): Promise<Project> {
  const data: Prisma.ProjectUpdateManyMutationInput = { updated_at: new Date() };
  if (input.name !== undefined) {
    if (input.name === null) throw new BadRequestError("name must be 1 to 200 characters (it cannot be null)");
    data.name = checkProjectInput({ name: input.name }).name;
  }
  if (input.icp !== undefined) {
    const icp = checkIcp(input.icp) as Prisma.InputJsonObject | null;
    data.icp = icp ?? Prisma.DbNull;
  }
  const { count } = await db.prisma.project.updateMany({ where: { id, organization_id: organizationId }, data });
  if (!count) throw new NotFoundError(`project ${id}`);
  return (await db.prisma.project.findUniqueOrThrow({ where: { id }, select: PROJECT_COLUMNS })) as Project;
}
