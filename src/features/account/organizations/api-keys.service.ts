/**
 * An organization's API keys, issued and revoked (`edmarket keys`, the demo organizations, tests): `sk_live_` +
 * 32 random bytes, shown once, stored as sha256 (src/features/account/auth/api-key.service.ts authenticates them).
 */
import crypto from "node:crypto";
import type { Db } from "../../../db/client";
import { BadRequestError } from "../../../graphql/errors";
import { hashApiKey } from "../auth/api-key.service";
import { requireOrganization } from "./organization.service";

export async function createApiKey(db: Db, organizationId: string, name?: string): Promise<{ apiKey: string; id: string }> {
  await requireOrganization(db, organizationId);
  const apiKey = `sk_live_${crypto.randomBytes(32).toString("base64url")}`;
  const row = await db.prisma.apiKey.create({
    data: { organization_id: organizationId, key_prefix: apiKey.slice(0, 16), key_hash: hashApiKey(apiKey), name: name ?? null },
    select: { id: true },
  });
  return { apiKey, id: row.id };
}

export async function revokeApiKeys(db: Db, keyPrefix: string): Promise<number> {
  if (!keyPrefix.startsWith("sk_live_") || keyPrefix.length < 12) {
    throw new BadRequestError("key prefix must start with sk_live_ and be at least 12 characters");
  }
  // Only the first 16 characters are stored in clear; a longer prefix is compared on those. Prisma's
  // startsWith is a LIKE that leaves `_` and `%` as wildcards (every prefix holds `sk_live_`): escape them.
  const { count } = await db.prisma.apiKey.updateMany({
    where: { key_prefix: { startsWith: keyPrefix.slice(0, 16).replace(/[\\%_]/g, "\\$&") }, revoked_at: null },
    data: { revoked_at: new Date() },
  });
  return count;
}
