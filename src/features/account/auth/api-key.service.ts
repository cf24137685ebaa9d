/**
 * API keys: `sk_live_` + 32 random bytes (base62-ish via base64url), shown once, stored as sha256.
 * Written and read through the Prisma client.
 * Lookups are cached for API_KEY_CACHE_SECONDS so a hot endpoint does not pay a statement per request;
 * a revoked key therefore stops working within that many seconds (0 disables the cache).
 */
import crypto from "node:crypto";
import type { Db } from "../../../db/client";
import { BadRequestError, UnauthenticatedError } from "../../../graphql/errors";
import { requireOrganization } from "../organizations/organization.service";
import type { Plan, Viewer } from "./viewer";

const KEY_RE = /^sk_live_[A-Za-z0-9_-]{20,100}$/;

export const hashApiKey = (key: string): string => crypto.createHash("sha256").update(key).digest("hex");

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

interface CachedViewer {
  viewer: Viewer | null;
  expires: number;
}

export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CachedViewer>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs: number,
  ) {}

  /** Resolves `Authorization: Bearer sk_live_...` to a viewer, or throws 401. */
  async authenticate(header: string | undefined): Promise<Viewer> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
    if (!header) throw new UnauthenticatedError("missing API key: send Authorization: Bearer sk_live_...");
    if (!match || !KEY_RE.test(match[1])) throw new UnauthenticatedError("malformed API key: expected Authorization: Bearer sk_live_...");
    const hash = hashApiKey(match[1]);
    const now = Date.now();
    const cached = this.cache.get(hash);
    const viewer = cached && cached.expires > now ? cached.viewer : await this.lookup(hash, now);
    if (!viewer) throw new UnauthenticatedError("unknown or revoked API key");
    return viewer;
  }

  private async lookup(hash: string, now: number): Promise<Viewer | null> {
    // A read by key with its organization: one statement (relationJoins), counted in bench/statements.ts
    // and by the tests that assert exact statement counts with the key cache off.
    const key = await this.db.prisma.apiKey.findUnique({
      where: { key_hash: hash, revoked_at: null },
      select: { id: true, organization: { select: { id: true, name: true, plan: true, entitlements: true } } },
    });
    const viewer: Viewer | null = key
      ? {
          organizationId: key.organization.id,
          organizationName: key.organization.name,
          plan: key.organization.plan as Plan,
          entitlements: new Set(key.organization.entitlements),
          apiKeyId: key.id,
        }
      : null;
    if (this.ttlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, { viewer, expires: now + this.ttlMs });
    }
    return viewer;
  }
}
