/**
 * The three demo organizations of contract section 10 (free, enterprise with `signals`, internal),
 * each with a project and a fresh API key. Idempotent by name: a re-run reuses the organizations and
 * issues new keys (stored keys are hashes and cannot be shown again).
 */
import type { Db } from "../../../db/client";
import { createApiKey } from "./api-keys.service";
import type { Plan } from "../auth/viewer";
import { createOrganization, createProject } from "./organization.service";

const DEMO_ORGANIZATIONS: { key: "free" | "enterprise" | "internal"; name: string; plan: Plan; credits: number; entitlements: string[] }[] =
  [
    { key: "free", name: "Demo Free Org", plan: "free", credits: 50, entitlements: [] },
    { key: "enterprise", name: "Demo Enterprise Org", plan: "enterprise", credits: 1000, entitlements: ["signals"] },
    { key: "internal", name: "Demo Internal Org", plan: "internal", credits: 10000, entitlements: ["signals"] },
  ];

export interface DemoOrganizations {
  demo_keys: Record<"free" | "enterprise" | "internal", string>;
  organizations: Record<"free" | "enterprise" | "internal", { organizationId: string; projectId: string }>;
}

export async function seedDemoOrganizations(db: Db): Promise<DemoOrganizations> {
  const demo_keys = {} as DemoOrganizations["demo_keys"];
  const organizations = {} as DemoOrganizations["organizations"];
  for (const org of DEMO_ORGANIZATIONS) {
    const existing = await db.prisma.organization.findFirst({
      where: { name: org.name },
      orderBy: { created_at: "asc" },
      select: { id: true },
    });
    const organizationId =
      existing?.id ??
      (await createOrganization(db, { name: org.name, plan: org.plan, credits: org.credits, entitlements: org.entitlements }))
        .organizationId;
    const project = await db.prisma.project.findFirst({
      where: { organization_id: organizationId },
      orderBy: { created_at: "asc" },
      select: { id: true },
    });
    const projectId =
      project?.id ??
      (await createProject(db, organizationId, "Demo project", { entity_types: ["district"], states: ["NE", "CA"] })).projectId;
    demo_keys[org.key] = (await createApiKey(db, organizationId, "demo key")).apiKey;
    organizations[org.key] = { organizationId, projectId };
  }
  return { demo_keys, organizations };
}
