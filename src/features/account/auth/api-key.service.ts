/**
 * API keys: `sk_live_` + 32 random bytes (base62-ish via base64url), shown once, stored as sha256. This file
 * authenticates them; an organization's keys are issued and revoked by src/features/account/organizations/api-keys.service.ts.
 * Lookups are cached for API_KEY_CACHE_SECONDS so a hot endpoint does not pay a statement per request;
 * a revoked key therefore stops working within that many seconds (0 disables the cache).
 */
import crypto from "node:crypto";
import type { Db } from "../../../db/client";
import { UnauthenticatedError } from "../../../graphql/errors";
import type { Plan, Viewer } from "./viewer";

const KEY_RE = /^sk_live_[A-Za-z0-9_-]{20,100}$/;

/** The key an `Authorization` header presents, or a 401 when it is missing or malformed (no database needed). */
export function presentedApiKey(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!header) throw new UnauthenticatedError("missing API key: send Authorization: Bearer sk_live_...");
  if (!match || !KEY_RE.test(match[1])) throw new UnauthenticatedError("malformed API key: expected Authorization: Bearer sk_live_...");
  return match[1];
}

export const hashApiKey = (key: string): string => crypto.createHash("sha256").update(key).digest("hex");

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
    const hash = hashApiKey(presentedApiKey(header));
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
