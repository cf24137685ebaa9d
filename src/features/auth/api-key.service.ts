/**
 * API keys: `sk_live_` + 32 random bytes (base62-ish via base64url), shown once, stored as sha256.
 * Lookups are cached for API_KEY_CACHE_SECONDS so a hot endpoint does not pay a statement per request;
 * a revoked key therefore stops working within that many seconds (0 disables the cache).
 */
import crypto from "node:crypto";
import type { Db } from "../../db/client";
import { BadRequestError, NotFoundError, UnauthenticatedError } from "../../graphql/errors";
import type { Plan, Viewer } from "./viewer";

const KEY_RE = /^sk_live_[A-Za-z0-9_-]{20,100}$/;

export const hashApiKey = (key: string): string => crypto.createHash("sha256").update(key).digest("hex");

export async function createApiKey(db: Db, organizationId: string, name?: string): Promise<{ apiKey: string; id: string }> {
  const orgs = await db.query(`SELECT 1 FROM organizations WHERE id = $1`, [organizationId]);
  if (!orgs.length) throw new NotFoundError(`organization ${organizationId}`);
  const apiKey = `sk_live_${crypto.randomBytes(32).toString("base64url")}`;
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO api_keys (organization_id, key_prefix, key_hash, name) VALUES ($1, $2, $3, $4) RETURNING id`,
    [organizationId, apiKey.slice(0, 16), hashApiKey(apiKey), name ?? null],
  );
  return { apiKey, id: row.id };
}

export async function revokeApiKeys(db: Db, keyPrefix: string): Promise<number> {
  if (!keyPrefix.startsWith("sk_live_") || keyPrefix.length < 12) {
    throw new BadRequestError("key prefix must start with sk_live_ and be at least 12 characters");
  }
  // Only the first 16 characters are stored in clear; a longer prefix is compared on those.
  const rows = await db.query(
    `UPDATE api_keys SET revoked_at = now()
      WHERE starts_with(key_prefix, left($1, 16)) AND revoked_at IS NULL RETURNING id`,
    [keyPrefix],
  );
  return rows.length;
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
    const rows = await this.db.query<{ key_id: string; organization_id: string; name: string; plan: Plan; entitlements: string[] | null }>(
      `SELECT k.id AS key_id, o.id AS organization_id, o.name, o.plan, o.entitlements
         FROM api_keys k JOIN organizations o ON o.id = k.organization_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    const row = rows[0];
    const viewer: Viewer | null = row
      ? {
          organizationId: row.organization_id,
          organizationName: row.name,
          plan: row.plan,
          entitlements: new Set(row.entitlements ?? []),
          apiKeyId: row.key_id,
        }
      : null;
    if (this.ttlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, { viewer, expires: now + this.ttlMs });
    }
    return viewer;
  }
}
